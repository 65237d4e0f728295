// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// hist-fields: the host time of cudahist's results once they are counted: the
// fields of one frame's GstCudaHistMeta set from its results memory
// (plugin/histresults.h), and the meta freed with its buffer, for 1080p NV12
// (three channels) with 0 to 256 regions. No GPU and no GStreamer pipeline: the
// part of stream-bench's host time per frame that grows with the regions.
#include <gst/gst.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "histogram.h"
#include "histresults.h"

namespace {

constexpr const char *kMetaName = "GstCudaHistMeta";
constexpr int kBatches = 15;  // timed batches of frames, the median reported

// Random counts and summaries for every block (the frame's, then each region's).
std::vector<guint8> make_results(guint bins, guint n_regions, guint n_channels) {
  const gsize block = cf::hist_block_size(bins);
  std::vector<guint8> bytes(block * (1 + n_regions));
  std::mt19937 random(7);
  for (guint b = 0; b <= n_regions; b++) {
    for (guint c = 0; c < n_channels; c++) {
      guint8 *channel = bytes.data() + b * block + c * cf::hist_channel_result_size(bins);
      auto *counts = reinterpret_cast<uint32_t *>(channel);
      cf::HistogramSummary summary;
      for (guint i = 0; i < bins; i++) {
        counts[i] = random() % 1000;
        summary.samples += counts[i];
        summary.sum += (uint64_t)counts[i] * i;
      }
      summary.max = bins - 1;
      memcpy(channel + GST_ROUND_UP_8(bins * sizeof(uint32_t)), &summary, sizeof summary);
    }
  }
  return bytes;
}

HistFrameState make_state() {
  HistFrameState state{};
  state.lower = 0;
  state.upper = 255;
  state.n_channels = 3;
  for (int c = 0; c < 3; c++) state.channels[c] = c;
  return state;
}

std::vector<FrameRegion> make_regions(guint n_regions) {
  std::vector<FrameRegion> regions;
  const GQuark face = g_quark_from_static_string("face");
  for (guint r = 0; r < n_regions; r++)
    regions.push_back({(gint)r, face, {(int)(r % 16) * 100, (int)(r / 16) * 60, 96, 96}});
  return regions;
}

// Median over batches of microseconds per frame: attach, fill, free.
double us_per_frame(const cf::HistResultsLayout &layout, const std::vector<guint8> &bytes,
                    const HistFrameState &state, int frames) {
  std::vector<double> batches;
  for (int b = 0; b < kBatches; b++) {
    const auto start = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; f++) {
      GstBuffer *buffer = gst_buffer_new();
      GstStructure *fields =
          gst_custom_meta_get_structure(gst_buffer_add_custom_meta(buffer, kMetaName));
      cf::hist_set_results(layout, bytes.data(), state, fields);
      gst_buffer_unref(buffer);
    }
    const std::chrono::duration<double, std::micro> took =
        std::chrono::steady_clock::now() - start;
    batches.push_back(took.count() / frames);
  }
  std::nth_element(batches.begin(), batches.begin() + kBatches / 2, batches.end());
  return batches[kBatches / 2];
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  const int frames = argc > 1 ? atoi(argv[1]) : 200;
  const guint bins = argc > 2 ? (guint)atoi(argv[2]) : 256;
  const char *tags[] = {nullptr};
  gst_meta_register_custom(kMetaName, tags, nullptr, nullptr, nullptr);
  cf::hist_results_init();

  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, 1920, 1080);
  printf("hist-fields: 1080p NV12, %u bins, %d frames a batch, median of %d batches\n",
         bins, frames, kBatches);
  printf("%8s %14s %16s\n", "regions", "us per frame", "us per region");
  double without_regions = 0;
  for (guint n_regions : {0u, 16u, 64u, 256u}) {
    const std::vector<FrameRegion> regions = make_regions(n_regions);
    const cf::HistResultsLayout layout{&info, bins, n_regions > 0 ? &regions : nullptr};
    const auto bytes = make_results(bins, n_regions, 3);
    const double us = us_per_frame(layout, bytes, make_state(), frames);
    if (n_regions == 0) {
      without_regions = us;
      printf("%8u %14.2f %16s\n", n_regions, us, "-");
    } else {
      printf("%8u %14.2f %16.3f\n", n_regions, us, (us - without_regions) / n_regions);
    }
  }
  return 0;
}
