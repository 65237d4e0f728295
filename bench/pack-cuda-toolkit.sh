#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# On the build machine: packs the CUDA toolkit of a Debian root (Debian 13's
# nvidia-cuda-toolkit, as in CI's build-debian-13/) into .gpu/cuda-VERSION.tgz, a
# tree in NVIDIA's layout (bin/, nvvm/libdevice/, include/, lib64/) that works
# wherever it is unpacked, so that a GPU host with another toolkit builds with this
# one too (bench/gpu-env.sh with CF_CUDA_TOOLKIT=VERSION puts it first on PATH).
# What a build of this project needs, no more: nvcc and the tools it runs (nvlink
# too: nvcc links its sanity-check programs itself), the runtime's static libraries,
# the headers of the toolkit, CUB, Thrust and libcu++; no profiler, no other library.
# nvcc's host compiler is the GPU host's g++.
#   bash bench/pack-cuda-toolkit.sh ROOT
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(realpath "${1:?usage: bench/pack-cuda-toolkit.sh ROOT}")
toolkit=$root/usr/lib/nvidia-cuda-toolkit
[ -x "$toolkit/bin/nvcc" ] || { echo "$root: no nvidia-cuda-toolkit there" >&2; exit 1; }
version=$("$toolkit/bin/nvcc" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree=$work/cuda-$version
mkdir -p "$tree/bin" "$tree/nvvm/libdevice" "$tree/include" "$tree/lib64"
cp -a "$toolkit/bin/nvcc" "$toolkit/bin/cicc" "$toolkit/bin/crt" "$tree/bin/"
for tool in ptxas fatbinary cudafe++ nvlink; do
  cp -a "$root/usr/bin/$tool" "$tree/bin/"
done
cp -a "$toolkit/libdevice/." "$tree/nvvm/libdevice/"
cp -a "$root"/usr/lib/x86_64-linux-gnu/{libcudart_static,libcudadevrt}.a "$tree/lib64/"
# Debian's headers lie in /usr/include beside everything else: take its packages'.
for package in nvidia-cuda-dev libcub-dev libthrust-dev libcu++-dev; do
  chroot "$root" dpkg -L "$package" | grep '^/usr/include/' |
    while read -r path; do
      [ -d "$root$path" ] && continue
      case ${path#/usr/include/} in  # the math libraries' headers: not needed
        cublas* | cufft* | curand* | cusolver* | cusparse* | npp* | nvjpeg* | nvblas*) continue ;;
      esac
      mkdir -p "$tree/include/$(dirname "${path#/usr/include/}")"
      cp -a "$root$path" "$tree/include/${path#/usr/include/}"
    done
done
# nvcc reads the profile beside it; _HERE_ is its own folder, wherever that is.
cat > "$tree/bin/nvcc.profile" <<'EOF'
TOP                = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
PATH              += $(_HERE_):
INCLUDES          += "-I$(TOP)/include" $(_SPACE_)
LIBRARIES          =+ $(_SPACE_) "-L$(TOP)/lib64"
EOF
mkdir -p .gpu
XZ_OPT=-9e tar cJf ".gpu/cuda-$version.tgz" -C "$work" "cuda-$version"
echo "wrote .gpu/cuda-$version.tgz ($(du -h ".gpu/cuda-$version.tgz" | cut -f1))," \
  "nvcc $version of $(chroot "$root" dpkg-query -W -f '${Version}' nvidia-cuda-toolkit)"
