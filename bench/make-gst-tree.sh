#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# On the build machine (Debian 12): builds GStreamer 1.26.2 (the series Debian 13 ships),
# or the release GST_VERSION names, from source, with only what the project needs, and
# packs it as a relocatable tree for a GPU host that has CUDA but no GStreamer:
# `CF_GST_SERIES=1.26 source bench/gpu-env.sh` there unpacks it and puts it on the paths.
#   bench/make-gst-tree.sh [OUT.tgz]          (default .gpu/gst-SERIES.tgz, e.g. gst-1.26.tgz)
#   GST_VERSION=1.28.6 GST_GIT=... bench/make-gst-tree.sh   (another release)
# Why from source: Debian 13's binaries need glibc 2.41 and the GPU host has 2.39, so
# they are rebuilt here against Debian 12's GLib (glibc 2.36), whose runtime libraries go
# into the tree too: it needs nothing of the 1.22 sysroot nor of the host beyond glibc
# and libstdc++.
# What is built: core (libgstreamer, base, check; the tools, the plugin scanner,
# coreelements, coretracers), base (its libraries; app, videotestsrc, videoconvertscale,
# typefind), good (isomp4, png), bad (its libraries, gstreamer-cuda and
# gstreamer-analytics among them; nvcodec, videoparsers). nvcodec loads CUDA and NVDEC
# at run time and needs no CUDA to build; no GL, X11, docs, tests or translations.
# Sources: the orig tarballs of Debian 13 where it has the release (deb-src trixie from
# the registry that this machine's apt sources name, fetched and checked by apt). Where
# the registry does not serve one, GST_GIT=<clone of GStreamer's monorepo> takes the
# subproject from the release's tag instead (the orig tarballs are `meson dist` of it).
# Needs: flex bison gcc g++ ninja-build pkg-config python3-venv libglib2.0-dev
# liborc-0.4-dev libpng-dev zlib1g-dev; meson >= 1.4 (otherwise pip puts 1.8.5 into a
# venv in the work folder). Work folder (sources, builds, prefix; about 1 GB):
# GST_TREE_WORK, default /tmp/gst-SERIES-work; kept, so that a second run only repacks.
# Under 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
ver=${GST_VERSION:-1.26.2}
name=gst-${ver%.*}                 # the tree's top folder in the tarball
out=$(realpath -m "${1:-.gpu/$name.tgz}")
work=${GST_TREE_WORK:-/tmp/$name-work}
prefix=$work/$name                 # installed here, then packed as it is
mods=(gstreamer gst-plugins-base gst-plugins-good gst-plugins-bad)
mkdir -p "$work"/{src,build}

missing=()
for t in flex bison gcc g++ ninja pkg-config python3 apt-get; do
  command -v "$t" >/dev/null || missing+=("$t")
done
for m in glib-2.0 orc-0.4 libpng zlib; do pkg-config --exists "$m" || missing+=("$m (dev)"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "make-gst-tree.sh: missing ${missing[*]}; apt-get install flex bison g++ ninja-build" \
       "pkg-config python3-venv libglib2.0-dev liborc-0.4-dev libpng-dev zlib1g-dev" >&2
  exit 1
fi
meson=meson
if ! meson --version 2>/dev/null | awk -F. '{exit !($1 > 1 || ($1 == 1 && $2 >= 4))}'; then
  [ -x "$work/venv/bin/meson" ] || { python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q meson==1.8.5; }
  meson=$work/venv/bin/meson
fi

# --- sources: Debian 13's orig tarballs, else the monorepo's tag --------------------
apt_dir=$work/apt
sources=/etc/apt/sources.list.d/debian.sources
uri=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' "$sources" 2>/dev/null || true)
[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$uri" ] || { echo "make-gst-tree.sh: no Debian registry URI in this machine's apt sources" >&2; exit 1; }
mkdir -p "$apt_dir"/{lists/partial,cache/archives/partial,etc/sources.list.d,etc/preferences.d}
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri trixie main" > "$apt_dir/etc/sources.list"
apt_opts=(-o Dir::Etc::SourceList="$apt_dir/etc/sources.list" -o Dir::Etc::SourceParts="$apt_dir/etc/sources.list.d"
  -o Dir::Etc::Preferences="$apt_dir/etc/preferences" -o Dir::Etc::PreferencesParts="$apt_dir/etc/preferences.d"
  -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" -o Debug::NoLocking=1)
fetched_index=false
for m in "${mods[@]}"; do
  [ -f "$work/src/$m/meson.build" ] && continue
  case $m in gstreamer) pkg=gstreamer1.0 ;; *) pkg=${m}1.0 ;; esac
  orig=$work/src/${pkg}_$ver.orig.tar.xz
  if [ ! -f "$orig" ]; then
    $fetched_index || { apt-get "${apt_opts[@]}" update -qq; fetched_index=true; }
    # apt checks what it gets against the signed index; a file it cannot get is left out
    if apt-cache "${apt_opts[@]}" showsrc "$pkg" | grep -q "^Version: $ver-"; then
      (cd "$work/src" && apt-get "${apt_opts[@]}" source --download-only -qq "$pkg") >/dev/null 2>&1 || true
    fi
  fi
  if [ -f "$orig" ]; then
    echo "$m: $(basename "$orig") from $uri"
    tar xJf "$orig" -C "$work/src" && mv "$work/src/$m-$ver" "$work/src/$m"
  elif [ -n "${GST_GIT:-}" ]; then
    # docs/plugins/gst_plugins_cache.json (documentation only) is left out: some
    # snapshots of the repository lack that large blob
    echo "$m: the registry does not serve $(basename "$orig"); subprojects/$m of $GST_GIT at tag $ver"
    [ "$(git -C "$GST_GIT" log -1 --format=%s "$ver^{commit}")" = "Release $ver" ]
    mkdir -p "$work/src/$m"
    git -C "$GST_GIT" archive --format=tar "$ver:subprojects/$m" -- . ':(exclude)docs/plugins/gst_plugins_cache.json' |
      tar x -C "$work/src/$m"
  else
    echo "make-gst-tree.sh: the registry does not serve $(basename "$orig"); set GST_GIT to a clone of https://gitlab.freedesktop.org/gstreamer/gstreamer (with its tags)" >&2
    exit 1
  fi
done

# --- configure, build and install each into $prefix ---------------------------------
common=(--prefix="$prefix" --libdir=lib --wrap-mode=nodownload --buildtype=release -Doptimization=2 -Dauto_features=disabled
  -Ddoc=disabled -Dexamples=disabled -Dtests=disabled -Dnls=disabled)
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
# ORC (videoconvert's SIMD) where Debian 12's 0.4.33 is new enough: 1.28 wants 0.4.34
orc=enabled
pkg-config --atleast-version=0.4.34 orc-0.4 || case $ver in 1.2[2-6].*) ;; *) orc=disabled ;; esac
for m in "${mods[@]}"; do
  b=$work/build/$m
  [ -f "$b/.installed" ] && continue
  case $m in
    gstreamer) opts=(-Dcheck=enabled -Dtools=enabled -Dcoretracers=enabled -Dbenchmarks=disabled -Dintrospection=disabled
      -Dlibunwind=disabled -Dlibdw=disabled -Dbash-completion=disabled -Dptp-helper=disabled) ;;
    gst-plugins-base) opts=(-Dapp=enabled -Dvideotestsrc=enabled -Dvideoconvertscale=enabled
      -Dtypefind=enabled -Dorc=$orc -Dgl=disabled -Dtools=disabled -Dintrospection=disabled) ;;
    gst-plugins-good) opts=(-Disomp4=enabled -Dpng=enabled) ;;
    gst-plugins-bad) opts=(-Dnvcodec=enabled -Dvideoparsers=enabled -Dgl=disabled -Dtools=disabled -Dintrospection=disabled) ;;
  esac
  [ -f "$b/build.ninja" ] || "$meson" setup "$b" "$work/src/$m" "${common[@]}" "${opts[@]}"
  "$meson" install -C "$b" --quiet --skip-subprojects
  touch "$b/.installed"
done

# --- the runtime libraries of Debian 12 it needs, and their dev files ----------------
is_host_lib() {  # what every glibc host has
  case $1 in ld-linux*|libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libstdc++.so*|libgcc_s.so*|linux-vdso*) return 0;; esac
  return 1
}
elfs() { find "$prefix" -type f \( -name '*.so*' -o -perm -u+x \) -exec sh -c 'head -c4 "$1" | grep -q ELF' _ {} \; -print; }
for _ in 1 2 3; do  # the libraries' own needs, to a fixed point
  elfs | while read -r f; do
    LD_LIBRARY_PATH=$prefix/lib ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
  done | sort -u | while read -r so path; do
    is_host_lib "$so" || [ -e "$prefix/lib/$so" ] || { cp -L "$path" "$prefix/lib/$so"; echo "added $so"; }
  done
done
# Headers, pkg-config files and link names of what the .pc files require (GLib's and
# ORC's chains), from Debian 12's dev packages; and libgl-dev's GL/gl.h, which
# gstreamer-cuda's headers include through the toolkit's cudaGL.h
devs=(libglib2.0-dev libpcre2-dev libffi-dev zlib1g-dev libmount-dev libblkid-dev libselinux1-dev libsepol-dev liborc-0.4-dev libgl-dev)
debs=$work/debs12
if [ ! -d "$debs/root" ]; then
  mkdir -p "$debs" && (cd "$debs" && apt-get download -qq "${devs[@]}")
  for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$debs/root"; done
fi
cp -a "$debs"/root/usr/include/. "$prefix/include/"
ma=$debs/root/usr/lib/x86_64-linux-gnu
cp -a "$ma/glib-2.0" "$prefix/lib/"
find "$ma" -maxdepth 1 -name '*.so' -type l -exec cp -a {} "$prefix/lib/" \;
for l in "$prefix"/lib/*.so; do  # link names of libraries that only static links use
  [ -L "$l" ] || continue
  case $(readlink "$l") in /*) rm "$l" ;; *) [ -e "$l" ] || rm "$l" ;; esac
done
for pc in "$ma"/pkgconfig/*.pc "$debs"/root/usr/share/pkgconfig/*.pc; do
  [ -f "$pc" ] || continue
  # shellcheck disable=SC2016  # ${pcfiledir} and ${prefix} are pkg-config's variables
  sed -e 's|^prefix=.*|prefix=${pcfiledir}/../..|' -e 's|/usr/lib/x86_64-linux-gnu|${prefix}/lib|g' \
      -e 's|\${prefix}/lib/x86_64-linux-gnu|${prefix}/lib|g' -e 's|/usr/include|${prefix}/include|g' \
      "$pc" > "$prefix/lib/pkgconfig/$(basename "$pc")"
done
# GStreamer's own .pc files name $prefix: make them relative to where they lie
# shellcheck disable=SC2016
sed -i "s|^prefix=$prefix\$|prefix=\${pcfiledir}/../..|; s|$prefix|\${prefix}|g" "$prefix"/lib/pkgconfig/gst*.pc

# --- the environment script, trimming, packing -----------------------------------------
cat > "$prefix/gst-env.sh" <<'EOF'
# Source to use this GStreamer (bench/gpu-env.sh does, with CF_GST_SERIES its series):
#   source gst-SERIES/gst-env.sh
# It comes first on every path; the plugin registry is kept beside the tree.
_r=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=$_r/bin:$PATH
export LD_LIBRARY_PATH=$_r/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GST_PLUGIN_SYSTEM_PATH=$_r/lib/gstreamer-1.0
export GST_PLUGIN_SCANNER=$_r/libexec/gstreamer-1.0/gst-plugin-scanner
export PKG_CONFIG_PATH=$_r/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export GST_REGISTRY=$_r/registry.bin
unset _r
EOF
rm -rf "$prefix"/share/{gdb,gstreamer-1.0/gdb,locale,doc,man,aclocal,bash-completion} "$prefix"/lib/*.a \
  "$prefix"/libexec/gstreamer-1.0/gst-{hotdoc-plugins-scanner,plugins-doc-cache-generator,completion-helper} "$prefix/registry.bin"
elfs | xargs strip --strip-unneeded
mkdir -p "$(dirname "$out")"
tar czf "$out" -C "$work" "$name"
echo "wrote $out: GStreamer $ver, $(du -h "$out" | cut -f1)"
