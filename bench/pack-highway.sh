#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

# On the build machine (Debian 12): packs Debian's Highway (libhwy-dev, libhwy1; the
# CPU backend's SIMD library) into .gpu/hwy.tgz for a GPU host that has CUDA but
# neither GStreamer nor Highway, beside the GStreamer sysroot that
# ../shared/gpu/prepare.sh writes to .gpu/. Its pkg-config files name their prefix
# relative to themselves, so the tree works wherever it is unpacked (bench/gpu-env.sh
# unpacks it there).
#   bash bench/pack-highway.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download libhwy-dev libhwy1)
for deb in "$work"/*.deb; do
  dpkg-deb -x "$deb" "$work/root"
done
# shellcheck disable=SC2016  # ${pcfiledir} is pkg-config's variable, not the shell's
sed -i 's|^prefix=.*|prefix=${pcfiledir}/../../..|' "$work"/root/usr/lib/*/pkgconfig/libhwy*.pc
mkdir -p .gpu
tar czf .gpu/hwy.tgz -C "$work" root
echo "wrote .gpu/hwy.tgz: $(dpkg-deb -f "$work"/libhwy1_*.deb Version)"
