#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The gst-cudafilters authors

"""Times CuPy's cupyx.scipy.ndimage median and Gaussian filters and cupy.bincount on
the cases of bench/kernel-times, for the peer column of bench/report.py.

  python3 bench/cupy_times.py [--sizes 1080p,4k,8k] [--formats GRAY8,GRAY16_LE,RGBA]
      [--kernels median,gauss,histogram] [--runs 50] [--json FILE]
  python3 bench/cupy_times.py --numpy ...   # the same cases on numpy/scipy, CPU times:
                                            # checks the script, not a measurement

Frames already on the device; each call queued behind a spinning kernel of about a
millisecond, so that its events time the device's work and not the host's launches
(as kernel-times does); the median of --runs runs after as many warm-up calls, at
most 10. The cases
and their names are kernel-times': medians with the replicate border ('nearest'),
Gauss with reflect-101 ('mirror') and the same tap count (truncate = radius / sigma),
histograms of random and constant frames. RGBA filters R, G and B (a strided view of
the frame, alpha left out), as the elements do; its histogram counts the three one
after the other. GRAY16_LE's 1024 bins are the top 10 bits of a sample. cupy.bincount
reads the frame's largest value back to the host to size its output, so its times hold
that round trip: they are what a CuPy user gets. CuPy's Gauss
computes in floating point and rounds its own way: a peer for time, not for results.
NV12 and P010_10LE have no CuPy counterpart here. Writes JSON like kernel-times':
{"device": ..., "measurements": [{"size", "format", "kernel", "params", "cupy_us"}]}.
"""
import argparse
import json
import statistics
import sys
import time

SIZES = {"1080p": (1920, 1080), "4k": (3840, 2160), "8k": (7680, 4320)}
MEDIAN_WINDOWS = (3, 5, 7, 9, 15)
# kernel-times' Gauss cases: sigma, taps.
GAUSS_CASES = ((1, 5), (2, 9), (4.6, 15), (10, 61))
SPIN_CYCLES = 2_000_000  # about a millisecond at the GPUs' clocks


class Device:
    """CuPy on the current CUDA device, timed with events behind a spinning kernel."""

    def __init__(self):
        import cupy
        import cupyx.scipy.ndimage as ndimage
        self.xp, self.ndimage = cupy, ndimage
        self.spin = cupy.RawKernel(r"""
extern "C" __global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {}
}""", "spin")
        props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        name = props["name"]
        self.name = name.decode() if isinstance(name, bytes) else name
        self.version = cupy.__version__

    def time_us(self, call):
        start, end = self.xp.cuda.Event(), self.xp.cuda.Event()
        self.spin((1,), (1,), (self.xp.int64(SPIN_CYCLES),))
        start.record()
        call()
        end.record()
        end.synchronize()
        return self.xp.cuda.get_elapsed_time(start, end) * 1000.0


class Host:
    """numpy and scipy on the CPU: the same calls, wall-clock times (a dry run)."""

    def __init__(self):
        import numpy
        import scipy.ndimage as ndimage
        self.xp, self.ndimage = numpy, ndimage
        self.name = "numpy/scipy on the CPU (dry run)"
        self.version = numpy.__version__

    def time_us(self, call):
        start = time.perf_counter()
        call()
        return (time.perf_counter() - start) * 1e6


def frame(backend, width, height, fmt, constant=False, seed=1):
    xp = backend.xp
    shape = (height, width, 4) if fmt == "RGBA" else (height, width)
    dtype = xp.uint16 if fmt == "GRAY16_LE" else xp.uint8
    if constant:
        return xp.full(shape, 1000 if fmt == "GRAY16_LE" else 128, dtype=dtype)
    rng = xp.random.RandomState(seed)
    top = 65536 if fmt == "GRAY16_LE" else 256
    return rng.randint(0, top, size=shape).astype(dtype)


def cases(backend, width, height, fmt, kernels):
    """(kernel, params, call) for one size and format, on frames made here."""
    nd, xp = backend.ndimage, backend.xp
    src = frame(backend, width, height, fmt)
    if fmt == "RGBA":
        view, window = src[..., :3], lambda k: (k, k, 1)
        sigmas = lambda s: (s, s, 0)
    else:
        view, window = src, lambda k: (k, k)
        sigmas = lambda s: s
    out = xp.empty_like(view)
    if "median" in kernels:
        for k in MEDIAN_WINDOWS:
            yield ("median", f"{k}x{k}",
                   lambda k=k: nd.median_filter(view, size=window(k), mode="nearest",
                                                output=out))
    if "gauss" in kernels:
        for sigma, taps in GAUSS_CASES:
            radius = taps // 2
            yield ("gauss", f"sigma {sigma}, {taps} taps",
                   lambda sigma=sigma, radius=radius: nd.gaussian_filter(
                       view, sigmas(sigma), mode="mirror", truncate=radius / sigma,
                       output=out))
    if "histogram" in kernels:
        for name, data in (("random", src),
                           ("constant", frame(backend, width, height, fmt, constant=True))):
            if fmt == "GRAY16_LE":
                yield ("histogram", f"1024 bins, {name}",
                       lambda data=data: xp.bincount((data >> 6).ravel(), minlength=1024))
                yield ("histogram", f"65536 bins, {name}",
                       lambda data=data: xp.bincount(data.ravel(), minlength=65536))
            elif fmt == "RGBA":
                yield ("histogram", f"256 bins, {name}",
                       lambda data=data: [xp.bincount(data[..., c].ravel(), minlength=256)
                                          for c in range(3)])
            else:
                yield ("histogram", f"256 bins, {name}",
                       lambda data=data: xp.bincount(data.ravel(), minlength=256))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1080p,4k,8k")
    parser.add_argument("--formats", default="GRAY8,GRAY16_LE,RGBA")
    parser.add_argument("--kernels", default="median,gauss,histogram")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--json", help="write the results here as well")
    parser.add_argument("--numpy", action="store_true",
                        help="run the cases on numpy/scipy instead (checks the script)")
    args = parser.parse_args()
    sizes = [s.strip() for s in args.sizes.split(",")]
    formats = [f.strip() for f in args.formats.split(",")]
    kernels = {k.strip() for k in args.kernels.split(",")}
    unknown = ([s for s in sizes if s not in SIZES]
               + [f for f in formats if f not in ("GRAY8", "GRAY16_LE", "RGBA")]
               + sorted(kernels - {"median", "gauss", "histogram"}))
    if unknown or args.runs < 1:
        parser.error(f"unknown: {', '.join(unknown) or '--runs below 1'}")
    try:
        backend = Host() if args.numpy else Device()
    except Exception as e:  # no CuPy, no device, no NVRTC: say so, fail
        print(f"cupy_times.py: {'numpy/scipy' if args.numpy else 'CuPy'} unusable: {e}",
              file=sys.stderr)
        return 1

    print(f"device: {backend.name}, {backend.xp.__name__} {backend.version}")
    warmup = min(10, args.runs)
    print(f"median of {args.runs} runs after {warmup} warm-up calls, us")
    measurements = []
    for size in sizes:
        width, height = SIZES[size]
        for fmt in formats:
            for kernel, params, call in cases(backend, width, height, fmt, kernels):
                for _ in range(warmup):
                    call()
                us = statistics.median(backend.time_us(call) for _ in range(args.runs))
                print(f"{width}x{height} {fmt:9} {kernel:9} {params:22} {us:10.1f}",
                      flush=True)
                measurements.append({"size": f"{width}x{height}", "width": width,
                                     "height": height, "format": fmt, "kernel": kernel,
                                     "params": params, "cupy_us": round(us, 3)})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": backend.name, "library": f"{backend.xp.__name__} "
                       f"{backend.version}", "runs": args.runs,
                       "measurements": measurements}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
