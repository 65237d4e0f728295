# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# Source on a GPU host that lacks GStreamer or Highway:   source bench/gpu-env.sh
# Puts what .gpu/ carries on the paths, each only where the host has none of its own:
# the GStreamer sysroot of ../shared/gpu/prepare.sh (.gpu/gst-env.sh) and Highway
# from bench/pack-highway.sh (.gpu/hwy.tgz, unpacked once into /tmp/hwy-sysroot).
# CF_GST_SERIES picks a GStreamer whatever the host has: 1.22 the sysroot, 1.26 (or
# another series) the tree of bench/make-gst-tree.sh, .gpu/gst-1.26.tgz, unpacked into
# /tmp/gst-1.26 (again when the tarball is newer), with its own plugin registry.
#   CF_GST_SERIES=1.26 source bench/gpu-env.sh
# CF_CUDA_TOOLKIT=VERSION puts the toolkit of bench/pack-cuda-toolkit.sh first on PATH
# (.gpu/cuda-VERSION.tgz, unpacked once into /tmp/cuda-VERSION): nvcc of that version
# builds the kernels, its static runtime is linked in.
#   CF_CUDA_TOOLKIT=12.4 source bench/gpu-env.sh
_cf_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_cf_series=${CF_GST_SERIES:-}
if [ -z "$_cf_series" ] && pkg-config --exists gstreamer-1.0 2>/dev/null && command -v gst-inspect-1.0 >/dev/null; then
  :  # the host's own
elif [ -z "$_cf_series" ] || [ "$_cf_series" = 1.22 ]; then
  # shellcheck disable=SC1091
  source "$_cf_root/.gpu/gst-env.sh" "$_cf_root/.gpu/gst-sysroot.tgz"  # its $1 is the sysroot
elif [ ! -f "$_cf_root/.gpu/gst-$_cf_series.tgz" ]; then
  echo "gpu-env.sh: no .gpu/gst-$_cf_series.tgz: run bench/make-gst-tree.sh on the build machine" >&2
else
  _cf_tree=/tmp/gst-$_cf_series
  [ "$_cf_tree/.unpacked" -nt "$_cf_root/.gpu/gst-$_cf_series.tgz" ] ||
    { mkdir -p "$_cf_tree" && tar xzf "$_cf_root/.gpu/gst-$_cf_series.tgz" -C "$_cf_tree" && touch "$_cf_tree/.unpacked"; }
  # shellcheck disable=SC1090
  source "$_cf_tree/gst-$_cf_series/gst-env.sh"
  unset _cf_tree
fi
unset _cf_series
if pkg-config --exists libhwy 2>/dev/null; then
  :  # the host's own
elif [ ! -f "$_cf_root/.gpu/hwy.tgz" ]; then
  echo "gpu-env.sh: no Highway here and no .gpu/hwy.tgz: run bench/pack-highway.sh on the build machine" >&2
else
  _cf_hwy=/tmp/hwy-sysroot
  [ -d "$_cf_hwy/root" ] || { mkdir -p "$_cf_hwy" && tar xzf "$_cf_root/.gpu/hwy.tgz" -C "$_cf_hwy"; }
  export PKG_CONFIG_PATH=$_cf_hwy/root/usr/lib/x86_64-linux-gnu/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export LD_LIBRARY_PATH=$_cf_hwy/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  unset _cf_hwy
fi
if [ -n "${CF_CUDA_TOOLKIT:-}" ]; then
  if [ ! -f "$_cf_root/.gpu/cuda-$CF_CUDA_TOOLKIT.tgz" ]; then
    echo "gpu-env.sh: no .gpu/cuda-$CF_CUDA_TOOLKIT.tgz: run bench/pack-cuda-toolkit.sh on the build machine" >&2
  else
    [ -x "/tmp/cuda-$CF_CUDA_TOOLKIT/bin/nvcc" ] ||
      tar xJf "$_cf_root/.gpu/cuda-$CF_CUDA_TOOLKIT.tgz" -C /tmp
    export PATH=/tmp/cuda-$CF_CUDA_TOOLKIT/bin:$PATH
  fi
fi
unset _cf_root
