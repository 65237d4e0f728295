// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// host-paths: what one frame of foreign host memory costs to reach the device, by
// each way the elements could take, so that the choice between them rests on
// measurements. Frames of 1080p GRAY8, 1080p NV12 and 4K RGBA size, in memory
// allocated and written ahead (as a source's frames are), each used once ("fresh")
// or the same few again and again ("recycled"); the transfer of each frame timed
// alone, synchronously; GB/s of frame bytes. Ways:
//   driver     cudaMemcpyAsync from the pageable frame (the driver stages it)
//   staged/T   plugin/hostcopy.h: pieces copied into pinned memory by the caller
//              and T helper threads, each piece's DMA queued once it is there
//   copy/15    the staged way's host copy alone (15 helpers), without the DMA
//   pin+copy   cudaHostRegister, the DMA, cudaHostUnregister, every frame
//   pinned     the DMA from memory registered once (recycled only)
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "hostcopy.h"

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool check(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
  return err == cudaSuccess;
}

struct Frames {
  std::vector<guint8 *> frames;
  Frames(size_t count, size_t bytes) {
    for (size_t i = 0; i < count; i++) {
      auto *frame = static_cast<guint8 *>(malloc(bytes));
      memset(frame, int(i), bytes);
      frames.push_back(frame);
    }
  }
  ~Frames() {
    for (guint8 *frame : frames)
      free(frame);
  }
};

}  // namespace

int main() {
  const struct {
    const char *name;
    size_t bytes;
  } sizes[] = {{"1080p GRAY8", 1920 * 1080}, {"1080p NV12", 1920 * 1080 * 3 / 2},
               {"4K RGBA", 3840 * 2160 * 4}};
  cudaStream_t stream;
  if (!check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream"))
    return 1;
  std::printf("host copy threads: %u\n", cf::host_copy_threads());
  std::printf("%-12s %-9s %-10s %10s %8s\n", "frame", "memory", "way", "us/frame", "GB/s");
  for (const auto &size : sizes) {
    const int count = int(std::clamp<size_t>((size_t{2} << 30) / size.bytes, 16, 200));
    void *device = nullptr, *pinned = nullptr;
    if (!check(cudaMalloc(&device, size.bytes), "cudaMalloc") ||
        !check(cudaHostAlloc(&pinned, size.bytes, cudaHostAllocPortable), "cudaHostAlloc"))
      return 1;
    auto report = [&](const char *memory, const char *way, double seconds, int frames) {
      std::printf("%-12s %-9s %-10s %10.1f %8.1f\n", size.name, memory, way,
                  1e6 * seconds / frames, size.bytes * frames / seconds / 1e9);
    };
    // The DMA left out (copy_only): the host's own copy rate, the staged way's ceiling.
    auto staged = [&](guint8 *frame, guint helpers, bool copy_only = false) {
      cf::RowCopy whole;
      whole.src = frame;
      whole.dst = static_cast<guint8 *>(pinned);
      whole.src_stride = whole.dst_stride = whole.row_bytes = 1920;
      whole.rows = guint(size.bytes / 1920);
      const auto pieces = cf::split_rows({whole}, cf::staging_piece_bytes(size.bytes));
      cf::copy_rows_in_parallel(pieces, helpers, [&](gsize i) {
        return copy_only ||
               cudaMemcpyAsync(static_cast<guint8 *>(device) + (pieces[i].dst - whole.dst),
                               pieces[i].dst, pieces[i].dst_span(), cudaMemcpyHostToDevice,
                               stream) == cudaSuccess;
      });
    };
    for (const char *memory : {"fresh", "recycled"}) {
      const bool fresh = memory[0] == 'f';
      auto run = [&](const char *way, auto &&transfer) {
        Frames frames(fresh ? count : 4, size.bytes);
        transfer(frames.frames[0]);  // warm: workers, first touch of pinned memory
        cudaStreamSynchronize(stream);
        const double start = now_s();
        for (int i = 0; i < count; i++) {
          transfer(frames.frames[i % frames.frames.size()]);
          cudaStreamSynchronize(stream);
        }
        report(memory, way, now_s() - start, count);
      };
      run("driver", [&](guint8 *frame) {
        cudaMemcpyAsync(device, frame, size.bytes, cudaMemcpyHostToDevice, stream);
      });
      for (guint helpers : {0u, 1u, 3u, 7u, 15u}) {
        char way[16];
        std::snprintf(way, sizeof way, "staged/%u", helpers);
        run(way, [&](guint8 *frame) { staged(frame, helpers); });
      }
      run("copy/15", [&](guint8 *frame) { staged(frame, 15, true); });
      run("pin+copy", [&](guint8 *frame) {
        if (cudaHostRegister(frame, size.bytes, cudaHostRegisterPortable) != cudaSuccess)
          return;
        cudaMemcpyAsync(device, frame, size.bytes, cudaMemcpyHostToDevice, stream);
        cudaStreamSynchronize(stream);
        cudaHostUnregister(frame);
      });
      if (!fresh) {
        Frames frames(4, size.bytes);
        for (guint8 *frame : frames.frames)
          check(cudaHostRegister(frame, size.bytes, cudaHostRegisterPortable), "register");
        const double start = now_s();
        for (int i = 0; i < count; i++) {
          cudaMemcpyAsync(device, frames.frames[i % 4], size.bytes, cudaMemcpyHostToDevice,
                          stream);
          cudaStreamSynchronize(stream);
        }
        report(memory, "pinned", now_s() - start, count);
        for (guint8 *frame : frames.frames)
          cudaHostUnregister(frame);
      }
    }
    cudaFree(device);
    cudaFreeHost(pinned);
  }
  cudaStreamDestroy(stream);
  return 0;
}
