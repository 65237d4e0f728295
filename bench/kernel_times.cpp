// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Kernel-level timing on device-resident frames: CUDA events around each launch,
// warm-up first, median of many runs, rotating over enough frames that the L2 cache
// does not hold them. Side by side in the same run: NPP (where built in and where it
// has the case) and the project's own CPU backend (host copies, std::chrono).
//
//   kernel-times [--sizes WxH,...] [--runs N] [--cpu-runs N] [--no-cpu] [--json FILE]
//                [--formats F,...] [--kernels median,gauss,histogram,redact] [--quick]
//                [--windows W,...] [--median-data random,constant]
//   kernel-times WIDTH HEIGHT [RUNS]        (the older form: one size)
//
// Sizes: 1920x1080, 3840x2160 and 7680x4320 by default (aliases 1080p, 4k, 8k).
// Formats: GRAY8 (one U8 plane), GRAY16_LE (one U16 plane), RGBA (one packed plane of
// 4 channels, R, G and B computed and alpha copied, in one call as the element makes
// it); the decoders' NV12 and P010_10LE as whole frames, the way the elements filter
// them with include-chroma: the luma plane, then the interleaved UV plane of
// (W+1)/2 x (H+1)/2 pixels (both channels computed in one call), one after the other
// on one stream and timed together (the histogram counts Y, U and V). P010_10LE's
// 16-bit samples hold 10-bit values above 6 padding bits; its histogram has 1024 bins
// over 0..1023. GRAY8 and GRAY16_LE are the luma-only cases (NV12's or P016's luma
// plane alone). GPix/s counts frame pixels (a RGBA or NV12 pixel once, not per
// component or plane). speed-up = NPP time / our time; NPP has no 2-channel median,
// Gauss or histogram, so NV12 and P010_10LE have no NPP time ("no C2").
//
// Rows whose params end in ", 16 boxes" time the filter restricted to an output region
// (regions.h) of 16 boxes, 10% of each plane, for comparison with the same filter on
// the whole frame: Gauss sigma 8 (both rows here) and the 3x3 and 5x5 medians. Rows
// ending in ", 64 boxes" count 64 boxes tiling each plane, each box on its own,
// against the frame's histogram in the row before.
//
// Frames carry a border of kPad pixels on every side of every plane, filled with data:
// NPP's median reads outside its ROI (it has no border handling), so with the border
// it can filter the whole frame like ours. Ours and NPP's Gauss only ever read inside.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

#ifdef CF_HAVE_NPP
#include <npp.h>
#endif

#include "device_delay.h"
#include "gauss.h"
#include "histogram.h"
#include "median.h"
#include "redact.h"
#include "redact_faces.h"

namespace {

bool check(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
  return err == cudaSuccess;
}

// Device allocations, freed together.
struct DeviceMemory {
  std::vector<void *> blocks;
  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;
  ~DeviceMemory() {
    for (void *block : blocks)
      cudaFree(block);
  }
  uint8_t *allocate(size_t bytes) {
    void *block = nullptr;
    if (!check(cudaMalloc(&block, bytes), "cudaMalloc"))
      return nullptr;
    blocks.push_back(block);
    return static_cast<uint8_t *>(block);
  }
};

constexpr int kPad = 16;  // pixels of border on every side; > the largest median radius

struct Format {
  const char *name;
  cf::SampleDepth depth;  // of every plane's samples
  int pixel_bytes;        // pixel_stride of the first (or only) plane
  int components;         // computed per pixel of the first plane
  int padding_bits = 0;   // low bits of every sample below its value (P010: 6)
  // A second plane of interleaved U and V, (W+1)/2 x (H+1)/2 pixels, both computed.
  bool uv_plane = false;

  // What the kernels take: with P010's padding, so that they read its 10-bit values.
  cf::SampleFormat sample_format() const { return {depth, padding_bits}; }
};
const Format kFormats[] = {
    {"GRAY8", cf::SampleDepth::U8, 1, 1},
    {"GRAY16_LE", cf::SampleDepth::U16, 2, 1},
    {"RGBA", cf::SampleDepth::U8, 4, 3},
    {"NV12", cf::SampleDepth::U8, 1, 1, 0, true},
    {"P010_10LE", cf::SampleDepth::U16, 2, 1, 6, true},
};

// Geometry of one padded plane of a frame of one size and format (device and host
// alike), at `offset` bytes into the frame's allocation.
struct Layout {
  int width = 0, height = 0;  // of this plane
  // The frame's format. NPP, given the first plane of one-plane formats only, reads
  // its depth and components as the plane's.
  Format format{};
  int pixel_bytes = 0;  // this plane's pixel_stride
  int components = 0;   // this plane's computed channels, the first ones of a pixel
  size_t offset = 0;    // a multiple of 256, as every pitch is
  ptrdiff_t pitch = 0;  // bytes per padded row, a multiple of 256
  size_t bytes = 0;     // of the padded plane

  Layout(int w, int h, const Format &f, int plane_pixel_bytes, int plane_components,
         size_t plane_offset)
      : width(w), height(h), format(f), pixel_bytes(plane_pixel_bytes),
        components(plane_components), offset(plane_offset) {
    pitch = (static_cast<ptrdiff_t>(w + 2 * kPad) * pixel_bytes + 255) / 256 * 256;
    bytes = static_cast<size_t>(pitch) * (h + 2 * kPad);
  }
  // The plane's pixel (0, 0) within a frame's padded buffer.
  uint8_t *origin(uint8_t *base) const {
    return base + offset + kPad * pitch + kPad * pixel_bytes;
  }
  // The plane as one packed plane: its first `components` channels computed.
  cf::Plane plane(uint8_t *base) const {
    cf::Plane plane;
    plane.data = origin(base);
    plane.width = width;
    plane.height = height;
    plane.row_pitch = pitch;
    plane.pixel_stride = pixel_bytes;
    plane.channels = pixel_bytes / cf::bytes_per_sample(format.depth);
    plane.channel_mask = cf::all_channels(components);
    return plane;
  }
};

// A whole frame: its planes' Layouts one after the other in one allocation. A
// one-plane format is a frame of one plane.
struct FrameLayout {
  std::vector<Layout> planes;
  size_t bytes = 0;  // of the allocation

  FrameLayout(int w, int h, const Format &f) {
    add(w, h, f, f.pixel_bytes, f.components);
    if (f.uv_plane)  // 4:2:0: half the luma size, rounded up, of U and V side by side
      add((w + 1) / 2, (h + 1) / 2, f, 2 * cf::bytes_per_sample(f.depth), 2);
  }
  std::vector<cf::Plane> frame(uint8_t *base) const {
    std::vector<cf::Plane> frame;
    for (const Layout &layout : planes)
      frame.push_back(layout.plane(base));
    return frame;
  }
  int components() const {  // computed in all planes
    int sum = 0;
    for (const Layout &layout : planes)
      sum += layout.components;
    return sum;
  }

 private:
  void add(int w, int h, const Format &f, int pixel_bytes, int components) {
    planes.emplace_back(w, h, f, pixel_bytes, components, bytes);
    bytes += planes.back().bytes;
  }
};

double median_of(std::vector<double> values) {
  if (values.empty())
    return NAN;
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

// Times launches on one stream with CUDA events: `warmup` launches, then the median of
// `runs`, frame i of the rotation in launch i.
class Timer {
 public:
  Timer(cudaStream_t stream, int warmup, int runs)
      : stream_(stream), warmup_(warmup), runs_(runs) {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~Timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  Timer(const Timer &) = delete;
  Timer &operator=(const Timer &) = delete;

  // Median microseconds; NAN where `launch` returned false or CUDA reported an error.
  // Each run queues behind a device-side delay long enough for the host to queue it
  // whole, so the events time the device's work and not the host's launch calls (which
  // the elements overlap with uploads); NPP and ours alike.
  double run(int frames, const std::function<bool(int frame)> &launch, const char *name) {
    std::vector<double> times;
    for (int run = -warmup_; run < runs_; run++) {
      const int frame = (run + warmup_) % frames;
      if (!check(queue_device_delay(stream_, kHostQueueingMicroseconds), "delay kernel") ||
          !check(cudaEventRecord(start_, stream_), "cudaEventRecord") || !launch(frame) ||
          !check(cudaGetLastError(), name) ||
          !check(cudaEventRecord(stop_, stream_), "cudaEventRecord") ||
          !check(cudaEventSynchronize(stop_), name))
        return NAN;
      float ms = 0;
      if (!check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime"))
        return NAN;
      if (run >= 0)
        times.push_back(ms * 1000.0);
    }
    return median_of(times);
  }

 private:
  static constexpr unsigned kHostQueueingMicroseconds = 200;

  cudaStream_t stream_;
  int warmup_, runs_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// Median microseconds of `runs` host runs (after one warm-up run), fewer when the
// runs so far took more than `budget_s` seconds in all.
double time_cpu(int runs, double budget_s, const std::function<void()> &work) {
  using clock = std::chrono::steady_clock;
  std::vector<double> times;
  double spent = 0;
  for (int run = -1; run < runs; run++) {  // run -1 warms up
    const auto start = clock::now();
    work();
    const double us = std::chrono::duration<double, std::micro>(clock::now() - start).count();
    spent += us / 1e6;
    if (run >= 0)
      times.push_back(us);
    if (spent > budget_s) {
      if (times.empty())
        times.push_back(us);  // the warm-up alone took the budget: it has to do
      break;
    }
  }
  return median_of(times);
}

// One line of the table and one record of the JSON file.
struct Result {
  int width = 0, height = 0;
  std::string format, kernel, params;
  double ours_us = NAN, npp_us = NAN, cpu_us = NAN;
  std::string npp_note;  // why npp_us is missing
  std::string cpu_note;  // why cpu_us is missing
  double pixels() const { return static_cast<double>(width) * height; }
  double gpix_s(double us) const { return pixels() / us / 1e3; }
};

void print_header() {
  std::printf("%-9s %-9s %-10s %-22s %9s %7s %9s %7s %7s %10s %7s\n", "size", "format",
              "kernel", "params", "ours_us", "GPix/s", "npp_us", "GPix/s", "speedup",
              "cpu_us", "GPix/s");
}

void print_result(const Result &r) {
  char size[32], npp[64], cpu[64];
  std::snprintf(size, sizeof size, "%dx%d", r.width, r.height);
  if (std::isnan(r.npp_us))
    std::snprintf(npp, sizeof npp, "%9s %7s %7s", r.npp_note.c_str(), "", "");
  else
    std::snprintf(npp, sizeof npp, "%9.1f %7.2f %6.2fx", r.npp_us, r.gpix_s(r.npp_us),
                  r.npp_us / r.ours_us);
  if (std::isnan(r.cpu_us))
    std::snprintf(cpu, sizeof cpu, "%10s %7s", r.cpu_note.c_str(), "");
  else
    std::snprintf(cpu, sizeof cpu, "%10.0f %7.3f", r.cpu_us, r.gpix_s(r.cpu_us));
  std::printf("%-9s %-9s %-10s %-22s %9.1f %7.2f %s %s\n", size, r.format.c_str(),
              r.kernel.c_str(), r.params.c_str(), r.ours_us, r.gpix_s(r.ours_us), npp, cpu);
  std::fflush(stdout);
}

std::string json_string(const std::string &text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      continue;
    out += c;
  }
  return out + "\"";
}

std::string json_number(double value) {
  if (std::isnan(value) || std::isinf(value))
    return "null";
  char text[48];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

struct Options {
  std::vector<std::pair<int, int>> sizes;
  int runs = 50;
  int warmup = 10;
  int cpu_runs = 5;
  double cpu_budget_s = 5;
  bool cpu = true;
  bool quick = false;
  std::string json;
  std::vector<std::string> formats;  // empty: every format
  std::vector<std::string> kernels;  // empty: median, gauss, histogram and redact
  std::vector<int> windows = {3, 5, 7, 9, 15};
  std::vector<std::string> median_data = {"random"};

  bool wants(const std::vector<std::string> &chosen, const std::string &name) const {
    return chosen.empty() || std::find(chosen.begin(), chosen.end(), name) != chosen.end();
  }
};

std::vector<std::string> split_list(const std::string &text) {
  std::vector<std::string> items;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t end = std::min(text.find(',', begin), text.size());
    items.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return items;
}

bool parse_size(const std::string &text, std::pair<int, int> &size) {
  if (text == "1080p")
    size = {1920, 1080};
  else if (text == "4k" || text == "2160p")
    size = {3840, 2160};
  else if (text == "8k" || text == "4320p")
    size = {7680, 4320};
  else if (std::sscanf(text.c_str(), "%dx%d", &size.first, &size.second) != 2)
    return false;
  return size.first >= 1 && size.second >= 1 && size.first <= 16384 && size.second <= 16384;
}

void usage() {
  std::fprintf(stderr,
               "usage: kernel-times [--sizes WxH,...] [--runs N] [--cpu-runs N] [--no-cpu]\n"
               "                    [--formats F,...] [--kernels K,...] [--json FILE] [--quick]\n"
               "                    [--windows W,...] [--median-data random,constant]\n"
               "       kernel-times WIDTH HEIGHT [RUNS]\n"
               "sizes: WxH or 1080p, 4k, 8k; default 1920x1080,3840x2160,7680x4320.\n"
               "--runs: GPU runs per case, at least 50 (default 50); --quick: 1920x1080,\n"
               "10 GPU runs, 1 CPU run, for smoke tests. --formats: of GRAY8, GRAY16_LE, RGBA,\n"
               "NV12, P010_10LE (whole frames: luma and the UV plane, timed together; GRAY8 and\n"
               "GRAY16_LE are the luma-only cases); --kernels: of median, gauss, histogram,\n"
               "redact (NV12 and P010_10LE only)\n"
               "(default: all of each); --windows: median windows, odd, 3 to 31 (default\n"
               "3,5,7,9,15); --median-data: the medians' frames, random (default) and/or\n"
               "constant (a cost that depends on the data shows between the two).\n");
}

bool parse_options(int argc, char **argv, Options &options) {
  std::vector<std::string> positional;
  bool runs_given = false;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    std::string text;
    if (arg == "--help" || arg == "-h") {
      usage();
      std::exit(0);
    } else if (arg == "--quick") {
      options.quick = true;
    } else if (arg == "--no-cpu") {
      options.cpu = false;
    } else if (arg == "--sizes") {
      if (!value(text))
        return false;
      options.sizes.clear();
      for (const std::string &item : split_list(text)) {
        std::pair<int, int> size;
        if (!parse_size(item, size))
          return false;
        options.sizes.push_back(size);
      }
    } else if (arg == "--formats") {
      if (!value(text))
        return false;
      options.formats = split_list(text);
    } else if (arg == "--kernels") {
      if (!value(text))
        return false;
      options.kernels = split_list(text);
    } else if (arg == "--windows") {
      if (!value(text))
        return false;
      options.windows.clear();
      for (const std::string &item : split_list(text)) {
        const int window = std::atoi(item.c_str());
        if (window < cf::kMedianMinWindow || window > cf::kMedianMaxWindow || window % 2 == 0)
          return false;
        options.windows.push_back(window);
      }
    } else if (arg == "--median-data") {
      if (!value(text))
        return false;
      options.median_data = split_list(text);
      for (const std::string &data : options.median_data)
        if (data != "random" && data != "constant")
          return false;
    } else if (arg == "--runs") {
      if (!value(text))
        return false;
      options.runs = std::atoi(text.c_str());
      runs_given = true;
    } else if (arg == "--cpu-runs") {
      if (!value(text))
        return false;
      options.cpu_runs = std::max(1, std::atoi(text.c_str()));
    } else if (arg == "--json") {
      if (!value(options.json))
        return false;
    } else if (!arg.empty() && arg[0] != '-') {
      positional.push_back(arg);
    } else {
      return false;
    }
  }
  if (positional.size() == 1 || positional.size() > 3)
    return false;
  if (positional.size() >= 2) {  // WIDTH HEIGHT [RUNS]
    std::pair<int, int> size;
    if (!parse_size(positional[0] + "x" + positional[1], size))
      return false;
    options.sizes = {size};
    if (positional.size() == 3) {
      options.runs = std::atoi(positional[2].c_str());
      runs_given = true;
    }
  }
  if (options.quick) {
    if (options.sizes.empty())
      options.sizes = {{1920, 1080}};
    if (!runs_given)
      options.runs = 10;
    options.warmup = 3;
    options.cpu_runs = 1;
    options.cpu_budget_s = 2;
  } else if (options.runs < 50) {
    std::fprintf(stderr, "kernel-times: --runs %d raised to 50 (at least 50 for GPU times)\n",
                 options.runs);
    options.runs = 50;
  }
  if (options.runs < 1)
    return false;
  if (options.sizes.empty())
    options.sizes = {{1920, 1080}, {3840, 2160}, {7680, 4320}};
  return true;
}

// ---------------------------------------------------------------------------------------
// NPP: every call goes through here, so that the file builds without NPP.

#ifdef CF_HAVE_NPP

// Receives a buffer size from any NPP ...GetBufferSize function, whichever integer
// type its header gives the out-parameter (Npp32u for median, int or size_t for
// histograms, as the NPP version has it).
struct BufferSizeOut {
  size_t as_size_t = 0;
  int as_int = 0;
  Npp32u as_u32 = 0;
  operator size_t *() { return &as_size_t; }
  operator int *() { return &as_int; }
  operator Npp32u *() { return &as_u32; }
  size_t value() const {
    return std::max({as_size_t, static_cast<size_t>(std::max(as_int, 0)),
                     static_cast<size_t>(as_u32)});
  }
};

bool npp_check(NppStatus status, const char *what, std::string &note) {
  if (status == NPP_SUCCESS)
    return true;
  if (status > 0) {  // a warning: the result is there
    std::fprintf(stderr, "%s: NPP warning %d\n", what, static_cast<int>(status));
    return true;
  }
  std::fprintf(stderr, "%s: NPP error %d\n", what, static_cast<int>(status));
  note = "err " + std::to_string(static_cast<int>(status));
  return false;
}

bool make_npp_context(cudaStream_t stream, NppStreamContext &ctx) {
  ctx = NppStreamContext{};
  int device = 0;
  cudaDeviceProp props{};
  unsigned int flags = 0;
  if (!check(cudaGetDevice(&device), "cudaGetDevice") ||
      !check(cudaGetDeviceProperties(&props, device), "cudaGetDeviceProperties") ||
      !check(cudaStreamGetFlags(stream, &flags), "cudaStreamGetFlags"))
    return false;
  ctx.hStream = stream;
  ctx.nCudaDeviceId = device;
  ctx.nMultiProcessorCount = props.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = props.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = props.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = props.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = props.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = props.minor;
  ctx.nStreamFlags = flags;
  return true;
}

std::string npp_version() {
  const NppLibraryVersion *version = nppGetLibVersion();
  if (!version)
    return "unknown";
  return std::to_string(version->major) + "." + std::to_string(version->minor) + "." +
         std::to_string(version->build);
}

#endif  // CF_HAVE_NPP

// The NPP side of one case: prepares (allocations, buffer sizes) outside the timing.
// time() is NAN with note set where NPP has no such function or it failed. Formats of a
// UV plane get no NPP call: NPP has no median, Gauss or histogram of 2 channels (C2).
class NppRunner {
 public:
  NppRunner(cudaStream_t stream, Timer &timer) : timer_(timer) {
#ifdef CF_HAVE_NPP
    ready_ = make_npp_context(stream, ctx_);
#else
    (void)stream;
#endif
  }

  // Median window x window, anchor at the centre.
  double median(const Layout &layout, const std::vector<uint8_t *> &in,
                const std::vector<uint8_t *> &out, int window, std::string &note) {
    if (layout.format.uv_plane)
      return fail(note, "no C2");
#ifdef CF_HAVE_NPP
    if (!ready_)
      return fail(note, "no ctx");
    const NppiSize roi{layout.width, layout.height};
    const NppiSize mask{window, window};
    const NppiPoint anchor{window / 2, window / 2};
    const Npp32s step = static_cast<Npp32s>(layout.pitch);
    BufferSizeOut size;
    NppStatus status;
    const Format &f = layout.format;
    const bool u16 = f.depth == cf::SampleDepth::U16;
    if (f.components == 3)
      status = nppiFilterMedianGetBufferSize_8u_AC4R_Ctx(roi, mask, size, ctx_);
    else if (u16)
      status = nppiFilterMedianGetBufferSize_16u_C1R_Ctx(roi, mask, size, ctx_);
    else
      status = nppiFilterMedianGetBufferSize_8u_C1R_Ctx(roi, mask, size, ctx_);
    if (!npp_check(status, "nppiFilterMedianGetBufferSize", note))
      return NAN;
    DeviceMemory memory;
    Npp8u *buffer = memory.allocate(std::max<size_t>(size.value(), 1));
    if (!buffer)
      return fail(note, "no mem");
    return timer_.run(
        static_cast<int>(in.size()),
        [&](int frame) {
          const uint8_t *src = layout.origin(in[frame]);
          uint8_t *dst = layout.origin(out[frame]);
          NppStatus s;
          if (f.components == 3)
            s = nppiFilterMedian_8u_AC4R_Ctx(src, step, dst, step, roi, mask, anchor, buffer,
                                             ctx_);
          else if (u16)
            s = nppiFilterMedian_16u_C1R_Ctx(reinterpret_cast<const Npp16u *>(src), step,
                                             reinterpret_cast<Npp16u *>(dst), step, roi, mask,
                                             anchor, buffer, ctx_);
          else
            s = nppiFilterMedian_8u_C1R_Ctx(src, step, dst, step, roi, mask, anchor, buffer,
                                            ctx_);
          return npp_check(s, "nppiFilterMedian", note);
        },
        "nppiFilterMedian");
#else
    (void)layout, (void)in, (void)out, (void)window;
    return fail(note, "n/a");
#endif
  }

  // Gauss blur with NPP's fixed mask of `taps` x `taps` (its own sigma for that size),
  // replicating the border; n/a for tap counts NPP has no mask of.
  double gauss(const Layout &layout, const std::vector<uint8_t *> &in,
               const std::vector<uint8_t *> &out, int taps, std::string &note) {
    if (layout.format.uv_plane)
      return fail(note, "no C2");
#ifdef CF_HAVE_NPP
    if (!ready_)
      return fail(note, "no ctx");
    NppiMaskSize mask;
    switch (taps) {
    case 3: mask = NPP_MASK_SIZE_3_X_3; break;
    case 5: mask = NPP_MASK_SIZE_5_X_5; break;
    case 7: mask = NPP_MASK_SIZE_7_X_7; break;
    case 9: mask = NPP_MASK_SIZE_9_X_9; break;
    case 11: mask = NPP_MASK_SIZE_11_X_11; break;
    case 13: mask = NPP_MASK_SIZE_13_X_13; break;
    case 15: mask = NPP_MASK_SIZE_15_X_15; break;
    default: return fail(note, "n/a");
    }
    const NppiSize size{layout.width, layout.height};
    const NppiPoint offset{0, 0};
    const Npp32s step = static_cast<Npp32s>(layout.pitch);
    const Format &f = layout.format;
    return timer_.run(
        static_cast<int>(in.size()),
        [&](int frame) {
          const uint8_t *src = layout.origin(in[frame]);
          uint8_t *dst = layout.origin(out[frame]);
          NppStatus s;
          if (f.components == 3)
            s = nppiFilterGaussBorder_8u_AC4R_Ctx(src, step, size, offset, dst, step, size,
                                                  mask, NPP_BORDER_REPLICATE, ctx_);
          else if (f.depth == cf::SampleDepth::U16)
            s = nppiFilterGaussBorder_16u_C1R_Ctx(reinterpret_cast<const Npp16u *>(src), step,
                                                  size, offset, reinterpret_cast<Npp16u *>(dst),
                                                  step, size, mask, NPP_BORDER_REPLICATE, ctx_);
          else
            s = nppiFilterGaussBorder_8u_C1R_Ctx(src, step, size, offset, dst, step, size, mask,
                                                 NPP_BORDER_REPLICATE, ctx_);
          return npp_check(s, "nppiFilterGaussBorder", note);
        },
        "nppiFilterGaussBorder");
#else
    (void)layout, (void)in, (void)out, (void)taps;
    return fail(note, "n/a");
#endif
  }

  // HistogramEven with bins + 1 levels over the depth's full range: bin k holds
  // [k * range / bins, (k + 1) * range / bins), as ours with lower 0, upper max.
  double histogram(const Layout &layout, const std::vector<uint8_t *> &in, int bins,
                   std::string &note) {
    if (layout.format.uv_plane)
      return fail(note, "no C2");
#ifdef CF_HAVE_NPP
    if (!ready_)
      return fail(note, "no ctx");
    const NppiSize roi{layout.width, layout.height};
    const int step = static_cast<int>(layout.pitch);
    const Format &f = layout.format;
    const bool u16 = f.depth == cf::SampleDepth::U16;
    int levels = bins + 1;
    Npp32s lower = 0;
    Npp32s upper = static_cast<Npp32s>(cf::max_sample_value(f.depth)) + 1;
    int levels3[3] = {levels, levels, levels};
    Npp32s lower3[3] = {lower, lower, lower};
    Npp32s upper3[3] = {upper, upper, upper};
    BufferSizeOut size;
    NppStatus status;
    if (f.components == 3)
      status = nppiHistogramEvenGetBufferSize_8u_AC4R_Ctx(roi, levels3, size, ctx_);
    else if (u16)
      status = nppiHistogramEvenGetBufferSize_16u_C1R_Ctx(roi, levels, size, ctx_);
    else
      status = nppiHistogramEvenGetBufferSize_8u_C1R_Ctx(roi, levels, size, ctx_);
    if (!npp_check(status, "nppiHistogramEvenGetBufferSize", note))
      return NAN;
    DeviceMemory memory;
    Npp8u *buffer = memory.allocate(std::max<size_t>(size.value(), 1));
    Npp32s *hist = reinterpret_cast<Npp32s *>(
        memory.allocate(sizeof(Npp32s) * static_cast<size_t>(bins) * f.components));
    if (!buffer || !hist)
      return fail(note, "no mem");
    Npp32s *hist3[3] = {hist, hist + bins, hist + 2 * bins};
    return timer_.run(
        static_cast<int>(in.size()),
        [&](int frame) {
          const uint8_t *src = layout.origin(in[frame]);
          NppStatus s;
          if (f.components == 3)
            s = nppiHistogramEven_8u_AC4R_Ctx(src, step, roi, hist3, levels3, lower3, upper3,
                                              buffer, ctx_);
          else if (u16)
            s = nppiHistogramEven_16u_C1R_Ctx(reinterpret_cast<const Npp16u *>(src), step, roi,
                                              hist, levels, lower, upper, buffer, ctx_);
          else
            s = nppiHistogramEven_8u_C1R_Ctx(src, step, roi, hist, levels, lower, upper, buffer,
                                             ctx_);
          return npp_check(s, "nppiHistogramEven", note);
        },
        "nppiHistogramEven");
#else
    (void)layout, (void)in, (void)bins;
    return fail(note, "n/a");
#endif
  }

 private:
  static double fail(std::string &note, const char *why) {
    note = why;
    return NAN;
  }
  [[maybe_unused]] Timer &timer_;  // used only with NPP
#ifdef CF_HAVE_NPP
  NppStreamContext ctx_{};
  bool ready_ = false;
#endif
};

// ---------------------------------------------------------------------------------------

struct Environment {
  std::string device, date, npp = "not built in";
  int driver = 0, runtime = 0;
  size_t l2 = 0;
};

bool write_json(const std::string &path, const Environment &env, const Options &options,
                const std::vector<Result> &results) {
  FILE *file = std::fopen(path.c_str(), "w");
  if (!file) {
    std::fprintf(stderr, "kernel-times: cannot write %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return false;
  }
  std::fprintf(file,
               "{\n  \"device\": %s,\n  \"driver_version\": %d,\n  \"cuda_runtime_version\": "
               "%d,\n  \"npp_version\": %s,\n  \"l2_bytes\": %zu,\n  \"date\": %s,\n"
               "  \"gpu_runs\": %d,\n  \"cpu_runs\": %d,\n  \"measurements\": [\n",
               json_string(env.device).c_str(), env.driver, env.runtime,
               json_string(env.npp).c_str(), env.l2, json_string(env.date).c_str(),
               options.runs, options.cpu ? options.cpu_runs : 0);
  for (size_t i = 0; i < results.size(); i++) {
    const Result &r = results[i];
    const double speedup = r.npp_us / r.ours_us;
    std::fprintf(
        file,
        "    {\"device\": %s, \"date\": %s, \"width\": %d, \"height\": %d, \"size\": \"%dx%d\", "
        "\"format\": %s, \"kernel\": %s, \"params\": %s, \"ours_us\": %s, \"npp_us\": %s, "
        "\"cpu_us\": %s, \"gpix_s\": %s, \"npp_gpix_s\": %s, \"cpu_gpix_s\": %s, "
        "\"speedup\": %s, \"npp_note\": %s, \"cpu_note\": %s}%s\n",
        json_string(env.device).c_str(), json_string(env.date).c_str(), r.width, r.height,
        r.width, r.height, json_string(r.format).c_str(), json_string(r.kernel).c_str(),
        json_string(r.params).c_str(), json_number(r.ours_us).c_str(),
        json_number(r.npp_us).c_str(), json_number(r.cpu_us).c_str(),
        json_number(r.gpix_s(r.ours_us)).c_str(), json_number(r.gpix_s(r.npp_us)).c_str(),
        json_number(r.gpix_s(r.cpu_us)).c_str(), json_number(speedup).c_str(),
        json_string(r.npp_note).c_str(), json_string(r.cpu_note).c_str(),
        i + 1 < results.size() ? "," : "");
  }
  std::fprintf(file, "  ]\n}\n");
  return std::fclose(file) == 0;
}

// Fills the padded frames (borders too) with random bytes; the host frames get the
// last device frame's content. Any bytes are valid samples, P010's too: the kernels
// ignore the padding bits.
bool fill_random(size_t bytes, const std::vector<uint8_t *> &inputs,
                 std::vector<uint8_t> &host, std::mt19937 &random) {
  std::vector<uint8_t> data(bytes);
  for (uint8_t *frame : inputs) {
    for (size_t i = 0; i + 4 <= data.size(); i += 4) {
      const uint32_t word = random();
      std::memcpy(&data[i], &word, 4);
    }
    if (!check(cudaMemcpy(frame, data.data(), bytes, cudaMemcpyHostToDevice), "upload"))
      return false;
  }
  if (!host.empty())
    host = data;
  return true;
}

// Sets every byte of the frames to 0x5a: 0x5a5a for 16-bit samples, a value (361 for
// P010) like any other.
bool fill_constant(size_t bytes, const std::vector<uint8_t *> &inputs,
                   std::vector<uint8_t> &host) {
  for (uint8_t *frame : inputs)
    if (!check(cudaMemset(frame, 0x5a, bytes), "cudaMemset"))
      return false;
  std::fill(host.begin(), host.end(), uint8_t{0x5a});
  return true;
}

// Runs every case of one size and format.
bool run_format(const Options &options, const cudaDeviceProp &props, cudaStream_t stream,
                int width, int height, const Format &format, std::vector<Result> &results) {
  const FrameLayout layout(width, height, format);
  const cf::SampleFormat sample = format.sample_format();
  // At least 4x the L2 cache in inputs, so every run reads from device memory.
  const int count = std::max<int>(4, 4 * static_cast<size_t>(props.l2CacheSize) / layout.bytes + 1);
  DeviceMemory memory;
  std::vector<uint8_t *> inputs, outputs;
  for (int i = 0; i < count; i++) {
    inputs.push_back(memory.allocate(layout.bytes));
    outputs.push_back(memory.allocate(layout.bytes));
    if (!inputs.back() || !outputs.back())
      return false;
  }
  const bool cpu = options.cpu && static_cast<double>(width) * height <= 3840.0 * 2160;
  std::vector<uint8_t> host_in(cpu ? layout.bytes : 0), host_out(cpu ? layout.bytes : 0);
  const auto fill_inputs = [&](const std::string &data) {
    std::mt19937 random(1);
    return data == "constant" ? fill_constant(layout.bytes, inputs, host_in)
                              : fill_random(layout.bytes, inputs, host_in, random);
  };
  if (!fill_inputs("random"))
    return false;
  // Outputs: written once, so that no kernel sees fresh pages on its first run.
  for (uint8_t *frame : outputs)
    if (!check(cudaMemset(frame, 0xa5, layout.bytes), "cudaMemset"))
      return false;

  Timer timer(stream, options.warmup, options.runs);
  NppRunner npp(stream, timer);
  // NPP gets one-plane frames only (NppRunner), as that plane's Layout.
  const Layout &first_plane = layout.planes.front();
  const int components = layout.components();

  auto finish = [&](Result &r, const std::function<void()> &cpu_work) {
    if (std::isnan(r.ours_us))
      return false;
    if (!cpu)
      r.cpu_note = options.cpu ? "skipped" : "off";
    else
      r.cpu_us = time_cpu(options.cpu_runs, options.cpu_budget_s, cpu_work);
    print_result(r);
    results.push_back(r);
    return true;
  };
  auto make_result = [&](const char *kernel, const std::string &params) {
    Result r;
    r.width = width;
    r.height = height;
    r.format = format.name;
    r.kernel = kernel;
    r.params = params;
    return r;
  };

  // A filter over each frame: ours on the device, one call per plane (all its
  // processed components), every plane in one timed run; then the CPU backend on host
  // copies, given the whole frame as the element gives it (median_cpu takes all planes
  // in one call). r carries NPP's time already.
  using Frame = std::vector<cf::Plane>;
  using DeviceFilter = std::function<cudaError_t(const cf::Plane &, const cf::Plane &)>;
  using HostFilter = std::function<void(const Frame &, const Frame &)>;
  auto measure_filter = [&](Result r, const char *name, const DeviceFilter &on_device,
                            const HostFilter &on_host) {
    r.ours_us = timer.run(
        count,
        [&](int frame) {
          for (const Layout &plane : layout.planes)
            if (!check(on_device(plane.plane(inputs[frame]), plane.plane(outputs[frame])),
                       name))
              return false;
          return true;
        },
        name);
    return finish(r, [&] { on_host(layout.frame(host_in.data()), layout.frame(host_out.data())); });
  };

  for (const std::string &data : options.median_data) {
    if (!options.wants(options.kernels, "median"))
      break;
    if (!fill_inputs(data))
      return false;
    for (const int window : options.windows) {
      cf::MedianParams params;
      params.window = window;
      const std::string size = std::to_string(window) + "x" + std::to_string(window);
      Result r = make_result("median", data == "random" ? size : size + ", " + data);
      r.npp_us = npp.median(first_plane, inputs, outputs, window, r.npp_note);
      if (!measure_filter(
              r, "median_cuda",
              [&](const cf::Plane &src, const cf::Plane &dst) {
                return cf::median_cuda(src, dst, sample, params, stream);
              },
              [&](const Frame &src, const Frame &dst) {
                std::vector<cf::MedianPlane> planes;
                for (size_t i = 0; i < src.size(); i++)
                  planes.push_back({src[i], dst[i], sample, params});
                cf::median_cpu(planes);
              }))
        return false;
    }
  }
  if (!fill_inputs("random"))
    return false;

  const struct {
    double sigma;
    int kernel_size;  // 0: automatic
  } blurs[] = {{1, 5}, {2, 9}, {4.6, 15}, {10, 0}};
  for (const auto &blur : blurs) {
    if (!options.wants(options.kernels, "gauss"))
      break;
    const cf::GaussParams params =
        cf::make_gauss_params(blur.sigma, 0, blur.kernel_size, blur.kernel_size, sample, {});
    const int taps = static_cast<int>(params.taps_x.size());
    char text[64];
    std::snprintf(text, sizeof text, "sigma %g, %d taps", blur.sigma, taps);
    Result r = make_result("gauss", text);
    r.npp_us = npp.gauss(first_plane, inputs, outputs, taps, r.npp_note);
    if (!measure_filter(
            r, "gauss_cuda",
            [&](const cf::Plane &src, const cf::Plane &dst) {
              return cf::gauss_cuda(src, dst, sample, params, stream);
            },
            [&](const Frame &src, const Frame &dst) {
              for (size_t i = 0; i < src.size(); i++)
                cf::gauss_cpu(src[i], dst[i], sample, params);
            }))
      return false;
  }

  // Output regions: 16 boxes in a 4x4 grid, each a sixteenth of its plane's width by a
  // tenth of its height (10% of the frame, 120x108 at 1080p), against the same filter on
  // the whole frame in the row before. Gauss sigma 8 (49 taps, the strip kernel) and the
  // 3x3 and 5x5 medians.
  const auto grid_boxes = [](const cf::Plane &plane) {
    const int w = std::max(1, plane.width / 16), h = std::max(1, plane.height / 10);
    std::vector<cf::Box> boxes;
    for (int j = 0; j < 4; j++)
      for (int i = 0; i < 4; i++)
        boxes.push_back({std::clamp((2 * i + 1) * plane.width / 8 - w / 2, 0, plane.width - w),
                         std::clamp((2 * j + 1) * plane.height / 8 - h / 2, 0, plane.height - h),
                         w, h});
    return boxes;
  };
  for (const bool regions : {false, true}) {
    if (!options.wants(options.kernels, "gauss"))
      break;
    const cf::GaussParams whole = cf::make_gauss_params(8, 0, 0, 0, sample, {});
    char text[64];
    std::snprintf(text, sizeof text, "sigma 8, %d taps%s", static_cast<int>(whole.taps_x.size()),
                  regions ? ", 16 boxes" : "");
    Result r = make_result("gauss", text);
    r.npp_note = regions ? "no boxes" : "not run";
    const auto with_boxes = [&](const cf::Plane &plane, std::vector<cf::Box> &boxes) {
      cf::GaussParams params = whole;
      if (regions) {
        boxes = grid_boxes(plane);
        params.region = cf::OutputRegion::inside(boxes);
      }
      return params;
    };
    if (!measure_filter(
            r, "gauss_cuda",
            [&](const cf::Plane &src, const cf::Plane &dst) {
              std::vector<cf::Box> boxes;
              return cf::gauss_cuda(src, dst, sample, with_boxes(src, boxes), stream);
            },
            [&](const Frame &src, const Frame &dst) {
              for (size_t i = 0; i < src.size(); i++) {
                std::vector<cf::Box> boxes;
                cf::gauss_cpu(src[i], dst[i], sample, with_boxes(src[i], boxes));
              }
            }))
      return false;
  }
  for (const int window : {3, 5}) {
    if (!options.wants(options.kernels, "median"))
      break;
    const std::string size = std::to_string(window) + "x" + std::to_string(window);
    // The whole-frame row is the median rows' above.
    Result r = make_result("median", size + ", 16 boxes");
    r.npp_note = "no boxes";
    const auto with_boxes = [&](const cf::Plane &plane, std::vector<cf::Box> &boxes) {
      cf::MedianParams params;
      params.window = window;
      boxes = grid_boxes(plane);
      params.region = cf::OutputRegion::inside(boxes);
      return params;
    };
    if (!measure_filter(
            r, "median_cuda",
            [&](const cf::Plane &src, const cf::Plane &dst) {
              std::vector<cf::Box> boxes;
              return cf::median_cuda(src, dst, sample, with_boxes(src, boxes), stream);
            },
            [&](const Frame &src, const Frame &dst) {
              for (size_t i = 0; i < src.size(); i++) {
                std::vector<cf::Box> boxes;
                cf::median_cpu(src[i], dst[i], sample, with_boxes(src[i], boxes));
              }
            }))
      return false;
  }

  // Redaction in place of 16 shapes of face_w x face_h luma samples (a 4x4 grid; their
  // chroma halves at half the position), every plane in one call as the element makes
  // it: pixelate blocks of ceil(longer side / 6) rounded to even luma samples and half
  // that in chroma; blur at cudaredact's default strength, 0.15 x the shorter side
  // rounded up to 8 steps per octave in luma, half that in chroma, beside gauss_cuda of
  // the same boxes at the same sigmas into another frame (what cudagauss regions=meta
  // runs). 64x64 with boxes and ellipses; 150x84, stream-bench's faces at 1080p, with
  // boxes. Frames with a chroma plane only (NV12, P010_10LE).
  if (options.wants(options.kernels, "redact") && layout.planes.size() == 2) {
    uint8_t *workspace = nullptr;
    size_t workspace_bytes = 0;
    {
      size_t frame_bytes = 0;
      for (const Layout &plane : layout.planes)
        frame_bytes += static_cast<size_t>(plane.height) * plane.pitch;
      workspace_bytes = cf::redact_cuda_workspace_bytes(frame_bytes);
      workspace = memory.allocate(workspace_bytes);
      if (workspace == nullptr)
        return false;
    }
    const auto redact_rows = [&](int face_w, int face_h, bool with_ellipses) {
      std::vector<cf::RedactShape> shapes[2];
      shapes[0] = cfbench::grid_faces(width, height, face_w, face_h);
      const Layout &uv = layout.planes[1];
      for (const cf::RedactShape &face : shapes[0]) {
        const cf::Box &b = face.box;
        const int ux = std::min(b.x / 2, uv.width - 1), uy = std::min(b.y / 2, uv.height - 1);
        shapes[1].push_back({{ux, uy, std::min(b.width / 2, uv.width - ux),
                              std::min(b.height / 2, uv.height - uy)},
                             face.block_width / 2, face.block_height / 2, face.sigma_x / 2,
                             face.sigma_y / 2});
      }
      const auto views_of = [&](uint8_t *base, int feather) {
        std::vector<cf::RedactView> views;
        for (size_t p = 0; p < 2; p++) {
          cf::RedactView view;
          view.plane = layout.planes[p].plane(base);
          view.shapes = shapes[p].data();
          view.count = static_cast<int>(shapes[p].size());
          view.feather = p == 0 ? feather : feather / 2;
          view.fill[0] = view.fill[1] = cf::max_sample_value(sample) / 2;
          views.push_back(view);
        }
        return views;
      };
      for (const bool ellipse : {false, true})
        for (const cf::RedactMethod method :
             {cf::RedactMethod::Fill, cf::RedactMethod::Pixelate, cf::RedactMethod::Blur}) {
          if (ellipse && !with_ellipses)
            continue;
          const int feather = ellipse ? 8 : 0;
          cf::RedactParams params;
          params.method = method;
          params.outline = ellipse ? cf::RedactOutline::Ellipse : cf::RedactOutline::Box;
          const char *const names[] = {"pixelate", "fill", "blur"};
          char text[96];
          std::snprintf(text, sizeof text, "%s, %s, feather %d, 16 shapes %dx%d",
                        names[int(method)], ellipse ? "ellipse" : "box", feather, face_w,
                        face_h);
          Result r = make_result("redact", text);
          r.npp_note = "no redaction";
          r.ours_us = timer.run(
              count,
              [&](int frame) {
                const std::vector<cf::RedactView> views = views_of(inputs[frame], feather);
                return check(cf::redact_cuda(views.data(), 2, sample, params, workspace,
                                             workspace_bytes, stream),
                             "redact_cuda");
              },
              "redact_cuda");
          if (!finish(r, [&] {
                const std::vector<cf::RedactView> views = views_of(host_in.data(), feather);
                cf::redact_cpu(views.data(), 2, sample, params);
              }))
            return false;
        }
      const auto gauss_of_shapes = [&](const cf::Plane &plane, std::vector<cf::Box> &boxes) {
        const int p = plane.width == layout.planes[0].width ? 0 : 1;
        for (const cf::RedactShape &shape : shapes[p])
          boxes.push_back(shape.box);
        const double sigma = shapes[p].front().sigma_x;
        cf::GaussParams params =
            cf::make_gauss_params(sigma, 0, 0, 0, sample, {cf::BorderMode::Reflect101, 0});
        params.region = cf::OutputRegion::inside(boxes);
        return params;
      };
      char text[96];
      std::snprintf(text, sizeof text, "gauss_cuda of the 16 shapes' boxes %dx%d, sigma %.2f",
                    face_w, face_h, shapes[0].front().sigma_x);
      Result r = make_result("redact", text);
      r.npp_note = "no boxes";
      return measure_filter(
          r, "gauss_cuda",
          [&](const cf::Plane &src, const cf::Plane &dst) {
            std::vector<cf::Box> boxes;
            return cf::gauss_cuda(src, dst, sample, gauss_of_shapes(src, boxes), stream);
          },
          [&](const Frame &src, const Frame &dst) {
            for (size_t i = 0; i < src.size(); i++) {
              std::vector<cf::Box> boxes;
              cf::gauss_cpu(src[i], dst[i], sample, gauss_of_shapes(src[i], boxes));
            }
          });
    };
    if (!redact_rows(64, 64, true) || !redact_rows(150, 84, false))
      return false;
  }
  if (!options.wants(options.kernels, "histogram"))
    return true;
  // Histograms: on the random frames, then on constant ones (every atomic on one bin).
  // Bins: one per value of 8-bit and 10-bit (P010) values, 1024 and 65536 of 16-bit ones.
  const int value_bits = cf::value_bits(sample);
  const std::vector<int> bin_counts =
      value_bits == 16 ? std::vector<int>{1024, 65536} : std::vector<int>{1 << value_bits};
  const int max_bins = *std::max_element(bin_counts.begin(), bin_counts.end());
  const size_t workspace_bytes = cf::histogram_cuda_workspace_bytes(max_bins);
  auto *counts = reinterpret_cast<uint32_t *>(
      memory.allocate(sizeof(uint32_t) * static_cast<size_t>(max_bins) * components));
  auto *summaries = reinterpret_cast<cf::HistogramSummary *>(
      memory.allocate(sizeof(cf::HistogramSummary) * components));
  uint8_t *workspace = memory.allocate(workspace_bytes);
  if (!counts || !summaries || !workspace ||
      !check(cudaMemset(workspace, 0, workspace_bytes), "cudaMemset"))
    return false;
  std::vector<uint32_t> host_counts(static_cast<size_t>(max_bins) * components);
  std::vector<cf::HistogramSummary> host_summaries(components);
  // One output per counted channel of the frame (Y, U, V for NV12), in plane order:
  // plane p's call counts into those from first_output[p] on.
  std::vector<size_t> first_output;
  for (size_t p = 0, c = 0; p < layout.planes.size(); c += layout.planes[p++].components)
    first_output.push_back(c);

  // Histograms of 64 boxes, an 8x8 grid tiling each plane, each box counted on its own
  // (histogram_boxes_cuda), against the frame's histogram in the row before.
  constexpr int kBoxes = 64;
  const size_t box_workspace_bytes = cf::histogram_boxes_cuda_workspace_bytes(max_bins, kBoxes);
  const size_t box_outputs = static_cast<size_t>(kBoxes) * components;
  auto *box_counts = reinterpret_cast<uint32_t *>(
      memory.allocate(sizeof(uint32_t) * static_cast<size_t>(max_bins) * box_outputs));
  auto *box_summaries = reinterpret_cast<cf::HistogramSummary *>(
      memory.allocate(sizeof(cf::HistogramSummary) * box_outputs));
  uint8_t *box_workspace = memory.allocate(box_workspace_bytes);
  if (!box_counts || !box_summaries || !box_workspace ||
      !check(cudaMemset(box_workspace, 0, box_workspace_bytes), "cudaMemset"))
    return false;
  std::vector<uint32_t> host_box_counts(static_cast<size_t>(max_bins) * (cpu ? box_outputs : 0));
  std::vector<cf::HistogramSummary> host_box_summaries(cpu ? box_outputs : 0);
  const auto tiling = [](const cf::Plane &plane) {
    std::vector<cf::Box> boxes;
    for (int j = 0; j < 8; j++)
      for (int i = 0; i < 8; i++) {
        const int x0 = i * plane.width / 8, y0 = j * plane.height / 8;
        boxes.push_back({x0, y0, (i + 1) * plane.width / 8 - x0, (j + 1) * plane.height / 8 - y0});
      }
    return boxes;
  };
  // Plane p's outputs: box b's k-th channel at b * (its channels) + k.
  const auto box_outputs_of = [&](size_t p, int bins, uint32_t *all_counts,
                                  cf::HistogramSummary *all_summaries) {
    std::vector<cf::HistogramOutput> outputs;
    const int channels = layout.planes[p].components;
    for (int b = 0; b < kBoxes; b++)
      for (int k = 0; k < channels; k++) {
        const size_t o = static_cast<size_t>(kBoxes) * first_output[p] +
                         static_cast<size_t>(b) * channels + k;
        outputs.push_back({all_counts + o * bins, all_summaries + o});
      }
    return outputs;
  };
  const auto measure_boxes = [&](const cf::HistogramParams &params) {
    Result r = make_result("histogram", std::to_string(params.bins) + " bins, 64 boxes");
    r.npp_note = "no boxes";
    r.ours_us = timer.run(
        count,
        [&](int frame) {
          for (size_t p = 0; p < layout.planes.size(); p++) {
            const cf::Plane plane = layout.planes[p].plane(inputs[frame]);
            const std::vector<cf::Box> boxes = tiling(plane);
            const std::vector<cf::HistogramOutput> outputs =
                box_outputs_of(p, params.bins, box_counts, box_summaries);
            if (!check(cf::histogram_boxes_cuda(plane, sample, params, boxes.data(), kBoxes,
                                                outputs.data(), box_workspace, stream),
                       "histogram_boxes_cuda"))
              return false;
          }
          return true;
        },
        "histogram_boxes_cuda");
    return finish(r, [&] {
      for (size_t p = 0; p < layout.planes.size(); p++) {
        const cf::Plane plane = layout.planes[p].plane(host_in.data());
        const std::vector<cf::Box> boxes = tiling(plane);
        const std::vector<cf::HistogramOutput> outputs =
            box_outputs_of(p, params.bins, host_box_counts.data(), host_box_summaries.data());
        cf::histogram_boxes_cpu(plane, sample, params, boxes.data(), kBoxes, outputs.data());
      }
    });
  };
  for (const char *data : {"random", "constant"}) {
    if (std::string(data) == "constant" && !fill_inputs(data))
      return false;
    for (const int bins : bin_counts) {
      cf::HistogramParams params;
      params.bins = bins;
      params.lower = 0;
      params.upper = cf::max_sample_value(sample);
      std::vector<cf::HistogramOutput> outputs_on_device, outputs_on_host;
      for (int c = 0; c < components; c++) {
        outputs_on_device.push_back({counts + static_cast<size_t>(c) * bins, summaries + c});
        outputs_on_host.push_back(
            {host_counts.data() + static_cast<size_t>(c) * bins, &host_summaries[c]});
      }
      Result r = make_result("histogram", std::to_string(bins) + " bins, " + data);
      r.ours_us = timer.run(
          count,
          [&](int frame) {
            for (size_t p = 0; p < layout.planes.size(); p++)
              if (!check(cf::histogram_cuda(layout.planes[p].plane(inputs[frame]), sample,
                                            params, &outputs_on_device[first_output[p]],
                                            workspace, stream),
                         "histogram_cuda"))
                return false;
            return true;
          },
          "histogram_cuda");
      r.npp_us = npp.histogram(first_plane, inputs, bins, r.npp_note);
      if (!finish(r, [&] {
            for (size_t p = 0; p < layout.planes.size(); p++)
              cf::histogram_cpu(layout.planes[p].plane(host_in.data()), sample, params,
                                &outputs_on_host[first_output[p]]);
          }))
        return false;
      if (std::string(data) == "random" && !measure_boxes(params))
        return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parse_options(argc, argv, options)) {
    usage();
    return 2;
  }
  Environment env;
#ifdef CF_HAVE_NPP
  env.npp = npp_version();
  std::printf("NPP: %s\n", env.npp.c_str());
#else
  std::printf("NPP: not built in\n");
#endif
  {
    char date[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    env.date = date;
  }
  int devices = 0;
  const cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "kernel-times: no CUDA device (%s); nothing timed\n",
                 err != cudaSuccess ? cudaGetErrorString(err) : "device count 0");
    return 1;
  }
  cudaDeviceProp props{};
  if (!check(cudaGetDeviceProperties(&props, 0), "cudaGetDeviceProperties"))
    return 1;
  cudaDriverGetVersion(&env.driver);
  cudaRuntimeGetVersion(&env.runtime);
  env.device = props.name;
  env.l2 = static_cast<size_t>(props.l2CacheSize);
  cudaStream_t stream = nullptr;
  if (!check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate"))
    return 1;

  std::printf("device: %s, driver %d, CUDA runtime %d, L2 %zu MB, %s\n", props.name,
              env.driver, env.runtime, env.l2 >> 20, env.date.c_str());
  std::printf("GPU: median of %d runs after %d warm-up, CUDA events; CPU: median of <= %d "
              "runs, %s; random data unless said\n",
              options.runs, options.warmup, options.cpu_runs,
              options.cpu ? "one thread per core, up to 3840x2160" : "off");
  print_header();

  std::vector<Result> results;
  bool ok = true;
  for (const auto &size : options.sizes)
    for (const Format &format : kFormats)
      if (options.wants(options.formats, format.name) &&
          !run_format(options, props, stream, size.first, size.second, format, results)) {
        std::fprintf(stderr, "kernel-times: %dx%d %s failed\n", size.first, size.second,
                     format.name);
        ok = false;
      }
  cudaStreamDestroy(stream);
  if (!options.json.empty() && !write_json(options.json, env, options, results))
    ok = false;
  return ok ? 0 : 1;
}
