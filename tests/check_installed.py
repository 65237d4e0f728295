#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""The plugin as installed, found by GStreamer from where it was installed alone:

  check_installed.py destdir BUILD_DIR
      (meson test installed_plugin) `meson install --destdir` of BUILD_DIR into a
      scratch folder; the plugin is the only file installed, in the folder meson
      names for it (gstreamer-1.0's pluginsdir under the prefix).
  check_installed.py root ROOT BUILD_DIR
      (.ci/package) ROOT holds a package's files (dpkg -x): the plugin is in
      GStreamer's own plugin folder (pkg-config's pluginsdir of gstreamer-1.0),
      and nothing else is installed outside /usr/share/doc.
  check_installed.py system BUILD_DIR
      (.ci/install-package) the package installed on this system: the plugin is
      in GStreamer's own plugin folder, and gst-inspect-1.0 finds it there by
      GStreamer's default search, with no plugin path set.

Then, for the installed plugin: it exports only GStreamer's entry points and
links the CUDA runtime as it was built to (check_plugin_exports.py: BUILD_DIR's
cudart option for destdir; shared for the Debian package, debian/rules); gst-inspect-1.0 finds each element with only that
folder on the plugin path and a registry of its own, from the installed file, with
an origin URL, and no path into BUILD_DIR or the source tree shows; where
BUILD_DIR has the median demo, it runs once on the CPU backend with the installed
plugin (and GStreamer's own plugins for its source and sink). The elements are
those of tests/plugin_elements.txt, the list every test uses; the plugin must
register exactly those (gst-inspect-1.0 cudafilters), so that the list cannot go
stale.
"""
import json
import os
import subprocess
import sys
import tempfile

import check_plugin_exports
import plugin_elements

ELEMENTS = plugin_elements.NAMES
PLUGIN_FILE = "libgstcudafilters.so"
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def gstreamer_plugins_dir():
    """GStreamer's own plugin folder: gstreamer-1.0's pluginsdir."""
    return subprocess.run(["pkg-config", "--variable=pluginsdir", "gstreamer-1.0"],
                          check=True, capture_output=True, text=True).stdout.strip()


def files_under(root):
    return sorted(os.path.relpath(os.path.join(folder, name), root)
                  for folder, _, names in os.walk(root) for name in names)


def install_into_destdir(build_dir, destdir):
    """The installed plugin's folder, or problems."""
    run = subprocess.run(["meson", "install", "-C", build_dir, "--destdir", destdir,
                          "--no-rebuild", "--quiet"], capture_output=True, text=True)
    if run.returncode != 0:
        return None, [f"meson install failed:\n{run.stdout}{run.stderr}"]
    installed = json.loads(subprocess.run(
        ["meson", "introspect", "--installed", build_dir], check=True,
        capture_output=True, text=True).stdout)
    plugin = [path for built, path in installed.items()
              if os.path.basename(built) == PLUGIN_FILE]
    problems = []
    if len(installed) != 1 or len(plugin) != 1:
        problems.append(f"meson installs {sorted(installed.values())}: the plugin "
                        "alone expected (no tests, examples or benchmarks)")
    if not plugin:
        return None, problems
    found = files_under(destdir)
    wanted = os.path.relpath(plugin[0], "/")
    if found != [wanted]:
        problems.append(f"{destdir} holds {found}, not {wanted} alone")
    return os.path.join(destdir, os.path.dirname(wanted)), problems


def package_plugin_dir(root):
    plugins_dir = gstreamer_plugins_dir()
    wanted = os.path.join(os.path.relpath(plugins_dir, "/"), PLUGIN_FILE)
    others = [f for f in files_under(root)
              if f != wanted and not f.startswith("usr/share/doc/")]
    problems = []
    if not os.path.isfile(os.path.join(root, wanted)):
        problems.append(f"{root}: no {wanted} (GStreamer's plugin folder)")
    if others:
        problems.append(f"{root}: files outside GStreamer's plugin folder and "
                        f"/usr/share/doc: {others}")
    return os.path.join(root, os.path.dirname(wanted)), problems


def gst_env(plugin_path, registry):
    """GStreamer's plugins from `plugin_path` alone, or (None) from its default
    search, and a registry of their own."""
    env = dict(os.environ)
    for name in ("GST_PLUGIN_PATH", "GST_PLUGIN_PATH_1_0", "GST_PLUGIN_SYSTEM_PATH",
                 "GST_PLUGIN_SYSTEM_PATH_1_0", "GST_PLUGIN_LOADING_WHITELIST"):
        env.pop(name, None)
    if plugin_path is not None:
        env.update({"GST_PLUGIN_SYSTEM_PATH_1_0": "", "GST_PLUGIN_PATH_1_0": plugin_path})
    env["GST_REGISTRY_1_0"] = registry
    return env


def details_field(text, name):
    """A field of gst-inspect-1.0's plugin details ("Filename", "Origin URL")."""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(name + " "):
            return line[len(name):].strip()
    return None


def inspect_problems(plugin_dir, build_dir, env, elements=ELEMENTS):
    problems = []
    installed = os.path.join(plugin_dir, PLUGIN_FILE)
    plugin = os.path.realpath(installed)
    tree_paths = {os.path.realpath(build_dir), SOURCE_DIR}
    for element in elements:
        run = subprocess.run(["gst-inspect-1.0", element], env=env,
                             capture_output=True, text=True)
        text = run.stdout + run.stderr
        if run.returncode != 0:
            problems.append(f"gst-inspect-1.0 {element} failed ({run.returncode}):\n{text}")
            continue
        filename = details_field(text, "Filename")
        if not filename or os.path.realpath(filename) != plugin:
            problems.append(f"{element} came from {filename}, not {plugin}")
        origin = details_field(text, "Origin URL")
        if not origin or not origin.startswith("https://"):
            problems.append(f"{element}: no origin URL ({origin!r})")
        # The installed file's own path may lie inside the tree (.ci/package's
        # build-package/): any other path into it is one GStreamer should not know.
        shown = text.replace(installed, "").replace(plugin, "")
        leaked = [line.strip() for line in shown.splitlines()
                  if any(p in line for p in tree_paths)]
        if leaked:
            problems.append(f"gst-inspect-1.0 {element} shows the build or source "
                            f"tree: {leaked}")
        print(f"{element}: {filename}, package {details_field(text, 'Binary package')!r}")
    return problems


def demo_problems(plugin_dir, build_dir, scratch):
    demo = os.path.join(build_dir, "examples", "median-demo")
    if not os.path.exists(demo):
        print(f"{demo} not built (-Dexamples): no demo run")
        return []
    # The installed plugin first; GStreamer's own folder for appsrc and appsink,
    # where a cudafilters installed on this machine must not be the one that runs.
    env = gst_env(f"{plugin_dir}:{gstreamer_plugins_dir()}",
                  os.path.join(scratch, "demo-registry.bin"))
    problems = inspect_problems(plugin_dir, build_dir, env, ["cudamedian"])
    run = subprocess.run([demo, "--backend", "cpu", "--width", "320", "--height", "240",
                          "--frames", "10", "--output", os.path.join(scratch, "demo.png")],
                         env=env, capture_output=True, text=True, timeout=120)
    text = run.stdout + run.stderr
    if run.returncode != 0 or "backend=cpu" not in run.stdout:
        problems.append(f"median-demo --backend cpu failed ({run.returncode}):\n{text}")
    else:
        print(f"median-demo: {run.stdout.splitlines()[0]}")
    return problems


def built_cudart(build_dir):
    """How BUILD_DIR links the CUDA runtime (meson's cudart option)."""
    options = json.loads(subprocess.run(
        ["meson", "introspect", "--buildoptions", build_dir], check=True,
        capture_output=True, text=True).stdout)
    return next(option["value"] for option in options if option["name"] == "cudart")


def main(argv):
    modes = {"destdir": 3, "root": 4, "system": 3}
    if len(argv) < 2 or modes.get(argv[1]) != len(argv):
        print(__doc__, file=sys.stderr)
        return 2
    mode, build_dir = argv[1], argv[-1]
    with tempfile.TemporaryDirectory() as scratch:
        if mode == "destdir":
            plugin_dir, problems = install_into_destdir(
                build_dir, os.path.join(scratch, "destdir"))
        elif mode == "root":
            plugin_dir, problems = package_plugin_dir(os.path.abspath(argv[2]))
        else:
            plugin_dir, problems = gstreamer_plugins_dir(), []
            if not os.path.exists(os.path.join(plugin_dir, PLUGIN_FILE)):
                problems.append(f"no {PLUGIN_FILE} in {plugin_dir}")
        # system: GStreamer's default search, as users of the package have it
        search_path = None if mode == "system" else plugin_dir
        if plugin_dir and not problems:
            cudart = built_cudart(build_dir) if mode == "destdir" else "shared"
            problems += check_plugin_exports.problems_of(
                os.path.join(plugin_dir, PLUGIN_FILE), cudart)
            env = gst_env(search_path, os.path.join(scratch, "registry.bin"))
            problems += plugin_elements.registry_problems(env)
            problems += inspect_problems(plugin_dir, build_dir, env)
            problems += demo_problems(plugin_dir, build_dir, scratch)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
