// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// The CPU backend against OpenCV in the same run: median (medianBlur), Gauss
// (GaussianBlur with the same sigma and kernel size) and histogram (calcHist, 256 bins
// over the full range), on one thread and on all cores, timed alternately call by
// call so that both see the same machine; median of the runs, wall time per frame.
// Rows of several threads also time ours on one thread in the same turns ("x 1
// thread": the gain of the threads).
// RGBA is filtered as the plugin does it: one packed plane of four channels, each
// kernel one call for all of them; OpenCV's call takes the 4-channel image (calcHist:
// one call per channel). Border: replicate for the median
// (medianBlur's only one), reflect-101 for Gauss (GaussianBlur's default). No GPU needed.
//
//   cpu-bench [--sizes WxH,...] [--formats GRAY8,GRAY16_LE,RGBA]
//             [--kernels median3,median5,median7,median9,median15,gauss1,gauss2,gauss10,hist,
//                        redact-fill,redact-pixelate,redact-blur]
//             [--threads 1,all] [--runs N] [--opencv yes|no] [--idle-ms N] [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <hwy/targets.h>
#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include "cpu_parallel.h"
#include "gauss.h"
#include "histogram.h"
#include "median.h"
#include "redact.h"
#include "redact_faces.h"

namespace {

struct Options {
  std::vector<std::pair<int, int>> sizes{{1920, 1080}, {3840, 2160}};
  std::vector<std::string> formats{"GRAY8", "GRAY16_LE", "RGBA"};
  std::vector<std::string> kernels{"median3", "median5", "median7", "median9",  "median15",
                                   "gauss1",  "gauss2",  "gauss10", "hist"};
  std::vector<std::string> threads{"1", "all"};
  int runs = 9;
  // OpenCV's calls alternate with ours; without them, the gain of threads is measured
  // free of OpenCV's worker threads, which spin on the same cores after each call.
  bool opencv = true;
  // Sleep before each timed call, as a live stream's frame interval leaves the cores
  // idle: the pool's workers sleep after 100 us without work, and a core idle that
  // long may wake slowly (measured on the 2-core build VM).
  int idle_ms = 0;
  std::string json;
};

struct Result {
  int width = 0;
  int height = 0;
  std::string format;
  std::string kernel;
  std::string params;
  int threads = 1;
  double ours_ms = 0;
  double opencv_ms = -1;  // < 0: OpenCV has no such filter
  double one_thread_ms = -1;  // threads > 1: ours on one thread, timed in turn with the others
  std::string note;
  // Redaction: the call's parameters and view (its shapes in redact_shapes).
  cf::RedactParams redact;
  cf::RedactView redact_view;
  std::vector<cf::RedactShape> redact_shapes;
};

std::vector<std::string> split(const std::string &text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ','))
    parts.push_back(part);
  return parts;
}

void usage() {
  std::fprintf(stderr,
               "usage: cpu-bench [--sizes WxH,...] [--formats GRAY8,GRAY16_LE,RGBA]\n"
               "                 [--kernels median3,...,gauss1,...,hist] [--threads 1,all]\n"
               "                 [--runs N] [--opencv yes|no] [--idle-ms N] [--json FILE]\n"
               "kernels: medianN (window N), gaussS (sigma S, automatic size), hist;\n"
               "redact-fill, redact-pixelate, redact-blur (not by default: OpenCV has no\n"
               "such call): 16 faces of 64x64 redacted in place, as cudaredact's defaults\n"
               "--idle-ms: sleep N ms before each timed call, as between a live stream's\n"
               "frames (default 0: each call right after the one before)\n");
}

bool parse(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      usage();
      return false;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "cpu-bench: %s needs a value\n", arg.c_str());
      return false;
    }
    const std::string value = argv[++i];
    if (arg == "--sizes") {
      options.sizes.clear();
      for (const std::string &size : split(value)) {
        int width = 0, height = 0;
        if (std::sscanf(size.c_str(), "%dx%d", &width, &height) != 2 || width <= 0 ||
            height <= 0) {
          std::fprintf(stderr, "cpu-bench: size %s is not WxH\n", size.c_str());
          return false;
        }
        options.sizes.emplace_back(width, height);
      }
    } else if (arg == "--formats") {
      options.formats = split(value);
    } else if (arg == "--kernels") {
      options.kernels = split(value);
    } else if (arg == "--threads") {
      options.threads = split(value);
    } else if (arg == "--runs") {
      options.runs = std::max(1, std::atoi(value.c_str()));
    } else if (arg == "--idle-ms" && std::atoi(value.c_str()) >= 0) {
      options.idle_ms = std::atoi(value.c_str());
    } else if (arg == "--opencv" && (value == "yes" || value == "no")) {
      options.opencv = value == "yes";
    } else if (arg == "--json") {
      options.json = value;
    } else {
      usage();
      return false;
    }
  }
  return true;
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// One frame in a cv::Mat and the plane the plugin would hand the kernels.
struct Frame {
  cv::Mat src;
  cv::Mat dst;
  cf::SampleFormat format;
  cf::Plane src_plane;
  cf::Plane dst_plane;
};

Frame make_frame(int width, int height, const std::string &format_name) {
  Frame frame;
  const bool gray16 = format_name == "GRAY16_LE";
  const int channels = format_name == "RGBA" ? 4 : 1;
  const int type = gray16 ? CV_16UC1 : CV_MAKETYPE(CV_8U, channels);
  frame.format = gray16 ? cf::SampleFormat(cf::SampleDepth::U16) : cf::SampleFormat();
  frame.src.create(height, width, type);
  frame.dst.create(height, width, type);
  cv::randu(frame.src, 0, gray16 ? 65536 : 256);
  frame.dst.setTo(0);
  const int pixel_bytes = channels * (gray16 ? 2 : 1);
  const unsigned every_channel = cf::all_channels(channels);
  frame.src_plane = {frame.src.data, width, height, static_cast<ptrdiff_t>(frame.src.step),
                     pixel_bytes, channels, every_channel};
  frame.dst_plane = {frame.dst.data, width, height, static_cast<ptrdiff_t>(frame.dst.step),
                     pixel_bytes, channels, every_channel};
  return frame;
}

// Times `calls` in turn, `runs` times each after one warm-up call of each, each timed
// call after `idle_ms` of sleep; the median of each in ms. Empty calls are not timed (-1).
std::vector<double> time_calls(int runs, int idle_ms,
                               const std::vector<std::function<void()>> &calls) {
  for (const auto &call : calls)
    if (call)
      call();
  std::vector<std::vector<double>> ms(calls.size());
  for (int run = 0; run < runs; ++run)
    for (size_t i = 0; i < calls.size(); ++i)
      if (calls[i]) {
        std::this_thread::sleep_for(std::chrono::milliseconds(idle_ms));
        const double start = now_ms();
        calls[i]();
        ms[i].push_back(now_ms() - start);
      }
  std::vector<double> medians;
  for (size_t i = 0; i < calls.size(); ++i)
    medians.push_back(calls[i] ? median_of(ms[i]) : -1.0);
  return medians;
}

void check(cudaError_t err, const char *what) {
  if (err != cudaSuccess) {
    std::fprintf(stderr, "cpu-bench: %s failed (%d)\n", what, static_cast<int>(err));
    std::exit(1);
  }
}

// `method` (fill, pixelate, blur) of grid_faces' 16 faces of 64x64, in place on the
// source frame.
bool redact_case(Frame &frame, const std::string &method, Result &result) {
  const int side = std::min({64, frame.src_plane.width, frame.src_plane.height});
  if (method == "fill")
    result.redact.method = cf::RedactMethod::Fill;
  else if (method == "blur")
    result.redact.method = cf::RedactMethod::Blur;
  else if (method != "pixelate")
    return false;
  result.kernel = "redact";
  result.params = method + ", 16 faces of " + std::to_string(side) + "x" + std::to_string(side);
  result.note = "OpenCV has no redaction";
  result.redact_shapes =
      cfbench::grid_faces(frame.src_plane.width, frame.src_plane.height, side, side);
  result.redact_view.plane = frame.src_plane;
  result.redact_view.shapes = result.redact_shapes.data();
  result.redact_view.count = int(result.redact_shapes.size());
  for (uint32_t &value : result.redact_view.fill)
    value = cf::max_sample_value(frame.format) / 2;
  return true;
}

bool run_case(const Options &options, Frame &frame, const std::string &format_name,
              const std::string &kernel, int threads, Result &result) {
  const int cv_threads = threads == 1 ? 0 : threads;  // 0: OpenCV runs sequentially
  std::function<void(int threads)> ours;
  std::function<void()> opencv;
  result.format = format_name;
  result.threads = threads;
  const bool gray16 = frame.format.depth == cf::SampleDepth::U16;
  const bool rgba = frame.src_plane.channels == 4;
  if (kernel.rfind("median", 0) == 0) {
    const int window = std::atoi(kernel.c_str() + 6);
    result.kernel = "median";
    result.params = std::to_string(window) + "x" + std::to_string(window);
    const cf::MedianParams params{window, {cf::BorderMode::Replicate, 0}};
    ours = [&frame, params](int threads) {
      check(cf::median_cpu(frame.src_plane, frame.dst_plane, frame.format, params, threads),
            "median_cpu");
    };
    // medianBlur: 16-bit only up to 5x5.
    if (!(gray16 && window > 5))
      opencv = [&frame, window] { cv::medianBlur(frame.src, frame.dst, window); };
    else
      result.note = "OpenCV's medianBlur takes 16-bit samples up to 5x5 only";
  } else if (kernel.rfind("gauss", 0) == 0) {
    const double sigma = std::atof(kernel.c_str() + 5);
    const int size = cf::gauss_auto_kernel_size(sigma);
    result.kernel = "gauss";
    char params_text[64];
    std::snprintf(params_text, sizeof params_text, "sigma %g, %d taps", sigma, size);
    result.params = params_text;
    const cf::GaussParams params = cf::make_gauss_params(
        sigma, sigma, size, size, frame.format, {cf::BorderMode::Reflect101, 0});
    ours = [&frame, params](int threads) {
      check(cf::gauss_cpu(frame.src_plane, frame.dst_plane, frame.format, params, threads),
            "gauss_cpu");
    };
    opencv = [&frame, sigma, size] {
      cv::GaussianBlur(frame.src, frame.dst, cv::Size(size, size), sigma, sigma,
                       cv::BORDER_REFLECT_101);
    };
  } else if (kernel == "hist") {
    result.kernel = "histogram";
    result.params = "256 bins";
    cf::HistogramParams params;
    params.upper = cf::max_sample_value(frame.format);
    static std::vector<uint32_t> bins(cf::kMaxChannels * 256);
    static cf::HistogramSummary summaries[cf::kMaxChannels];
    ours = [&frame, params](int threads) {
      cf::HistogramOutput outputs[cf::kMaxChannels];
      for (int c = 0; c < cf::kMaxChannels; ++c)
        outputs[c] = {bins.data() + c * 256, &summaries[c]};
      check(cf::histogram_cpu(frame.src_plane, frame.format, params, outputs, threads),
            "histogram_cpu");
    };
    opencv = [&frame, gray16, rgba] {
      cv::Mat hist;
      const int bin_count = 256;
      const float range[] = {0, gray16 ? 65536.0f : 256.0f};
      const float *ranges[] = {range};
      for (int c = 0; c < (rgba ? 4 : 1); ++c)
        cv::calcHist(&frame.src, 1, &c, cv::Mat(), hist, 1, &bin_count, ranges);
    };
  } else if (kernel.rfind("redact-", 0) == 0 && redact_case(frame, kernel.substr(7), result)) {
    ours = [&frame, &result](int threads) {
      check(cf::redact_cpu(&result.redact_view, 1, frame.format, result.redact, threads),
            "redact_cpu");
    };
  } else {
    std::fprintf(stderr, "cpu-bench: unknown kernel %s\n", kernel.c_str());
    return false;
  }
  if (!options.opencv)
    opencv = nullptr;
  cv::setNumThreads(cv_threads);
  // Several threads: ours on one thread too, in turn with the others, so that the
  // gain of threads is measured in the same moments (the shared build VM's speed
  // moves from minute to minute).
  std::function<void()> one_thread;
  if (threads > 1)
    one_thread = [&ours] { ours(1); };
  const std::vector<double> ms =
      time_calls(options.runs, options.idle_ms,
                 {[&ours, threads] { ours(threads); }, opencv, one_thread});
  result.ours_ms = ms[0];
  result.opencv_ms = ms[1];
  result.one_thread_ms = ms[2];
  return true;
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0)
      return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

std::string utc_now() {
  char text[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

std::string json_number(double value) {
  if (value < 0)
    return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

std::string json_string(const std::string &text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parse(argc, argv, options))
    return 2;
  const int cores = cf::usable_cores();
  // The best of Highway's targets that this CPU runs, as the kernels' dispatch picks.
  const int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
  const char *target = hwy::TargetName(targets & -targets);
  const std::string machine = cpu_model();
  const std::string date = utc_now();
  std::printf("cpu-bench: %s, %d cores, Highway target %s, OpenCV %s, %d runs each, "
              "%d ms idle before each\n",
              machine.c_str(), cores, target, CV_VERSION, options.runs, options.idle_ms);
  std::printf("%-10s %-9s %-7s %-20s %7s %10s %10s %7s %10s\n", "size", "format", "kernel",
              "params", "threads", "ours ms", "OpenCV ms", "ratio", "x 1 thread");

  std::vector<Result> results;
  for (const auto &[width, height] : options.sizes)
    for (const std::string &format : options.formats) {
      if (format != "GRAY8" && format != "GRAY16_LE" && format != "RGBA") {
        std::fprintf(stderr, "cpu-bench: unknown format %s\n", format.c_str());
        return 2;
      }
      Frame frame = make_frame(width, height, format);
      for (const std::string &kernel : options.kernels)
        for (const std::string &threads_name : options.threads) {
          Result result;
          result.width = width;
          result.height = height;
          const int threads = threads_name == "all" ? cores : std::atoi(threads_name.c_str());
          if (!run_case(options, frame, format, kernel, std::max(1, threads), result))
            return 2;
          char ratio[16] = "-", gain[16] = "-";
          if (result.opencv_ms > 0)
            std::snprintf(ratio, sizeof ratio, "%.2f", result.ours_ms / result.opencv_ms);
          if (result.one_thread_ms > 0)
            std::snprintf(gain, sizeof gain, "%.2f", result.one_thread_ms / result.ours_ms);
          std::printf("%4dx%-5d %-9s %-7s %-20s %7d %10.3f %10s %7s %10s%s%s\n", width, height,
                      format.c_str(), result.kernel.c_str(), result.params.c_str(),
                      result.threads, result.ours_ms,
                      result.opencv_ms > 0 ? json_number(result.opencv_ms).c_str() : "-",
                      ratio, gain, result.note.empty() ? "" : "  ", result.note.c_str());
          std::fflush(stdout);
          results.push_back(result);
        }
    }

  if (options.json.empty())
    return 0;
  std::FILE *file = std::fopen(options.json.c_str(), "w");
  if (!file) {
    std::fprintf(stderr, "cpu-bench: cannot write %s\n", options.json.c_str());
    return 1;
  }
  std::fprintf(file,
               "{\n  \"machine\": %s,\n  \"cores\": %d,\n  \"highway_target\": %s,\n"
               "  \"opencv_version\": %s,\n  \"date\": %s,\n  \"runs\": %d,\n"
               "  \"idle_ms\": %d,\n  \"measurements\": [\n",
               json_string(machine).c_str(), cores, json_string(target).c_str(),
               json_string(CV_VERSION).c_str(), json_string(date).c_str(), options.runs,
               options.idle_ms);
  for (size_t i = 0; i < results.size(); ++i) {
    const Result &r = results[i];
    std::fprintf(file,
                 "    {\"width\": %d, \"height\": %d, \"size\": \"%dx%d\", \"format\": %s, "
                 "\"kernel\": %s, \"params\": %s, \"threads\": %d, \"ours_ms\": %s, "
                 "\"opencv_ms\": %s, \"ratio\": %s, \"one_thread_ms\": %s, "
                 "\"note\": %s}%s\n",
                 r.width, r.height, r.width, r.height, json_string(r.format).c_str(),
                 json_string(r.kernel).c_str(), json_string(r.params).c_str(), r.threads,
                 json_number(r.ours_ms).c_str(), json_number(r.opencv_ms).c_str(),
                 r.opencv_ms > 0 ? json_number(r.ours_ms / r.opencv_ms).c_str() : "null",
                 json_number(r.one_thread_ms).c_str(), json_string(r.note).c_str(), i + 1 < results.size() ? "," : "");
  }
  std::fprintf(file, "  ]\n}\n");
  std::fclose(file);
  return 0;
}
