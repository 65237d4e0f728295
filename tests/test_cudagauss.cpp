// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// cudagauss as a user sees it. Built twice: with CF_TEST_BACKEND "cpu" (CI) and
// "cuda" (the gpu suite, skipped by name without a device).
#include <string>

#include "element_checks.h"
#include "gauss.h"
#include "reference_gauss.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

const char *const kBackend = CF_TEST_BACKEND;

struct GaussConfig {
  double sigma = 1.0;
  double sigma_y = 0;
  int kernel_size = 0;
  const char *border = "reflect-101";
  uint16_t border_value = 0;
  bool unsharp = false;
  double amount = 1.0;
  uint32_t threshold = 0;
};

// The element with `config`, and the reference fed with the parameters the element
// documents: taps from sigma and kernel size, amount in 1/256.
cftest::FilterUnderTest gauss(const GaussConfig &config) {
  std::string properties = "sigma=" + std::to_string(config.sigma) +
      " sigma-y=" + std::to_string(config.sigma_y) +
      " kernel-size=" + std::to_string(config.kernel_size) + " border=" + config.border +
      " border-value=" + std::to_string(config.border_value);
  if (config.unsharp)
    properties += " mode=unsharp amount=" + std::to_string(config.amount) +
        " threshold=" + std::to_string(config.threshold);
  return {"cudagauss", properties,
          [config](const cf::Plane &src, const cf::Plane &dst, cf::SampleDepth depth) {
            cf::GaussParams params = cf::make_gauss_params(
                config.sigma, config.sigma_y, config.kernel_size, config.kernel_size, depth,
                cftest::border_of(config.border, config.border_value, depth));
            if (config.unsharp) {
              params.mode = cf::GaussMode::Unsharp;
              params.amount_q8 = static_cast<int32_t>(config.amount * 256 + 0.5);
              params.threshold = std::min(config.threshold, cf::max_sample_value(depth));
            }
            cftest::reference_gauss(src, dst, depth, params);
          }};
}

const cftest::FilterUnderTest kDefault = gauss({});

}  // namespace

GST_START_TEST(test_every_format) {
  std::vector<cftest::FilterUnderTest> variants;
  for (const char *border : {"replicate", "reflect-101", "constant"}) {
    GaussConfig config;
    config.border = border;
    config.border_value = 300;  // clamps to 255 for 8-bit
    variants.push_back(gauss(config));
  }
  GaussConfig unsharp;
  unsharp.unsharp = true;
  unsharp.amount = 1.5;
  unsharp.threshold = 3;
  variants.push_back(gauss(unsharp));
  cftest::check_every_format(kBackend, variants);
}
GST_END_TEST;

GST_START_TEST(test_large_frames) { cftest::check_large_frames(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_include_chroma) { cftest::check_include_chroma(kBackend, kDefault); }
GST_END_TEST;

// Sigmas, kernel sizes (automatic and explicit, up to the largest), separate
// vertical sigma, borders and unsharp masking, on frames larger and smaller than the
// kernel.
GST_START_TEST(test_kernel_shapes) {
  std::vector<GaussConfig> configs;
  for (double sigma : {0.1, 0.5, 2.5, 10.0, 20.0}) {
    GaussConfig config;
    config.sigma = sigma;
    configs.push_back(config);
  }
  GaussConfig anisotropic;
  anisotropic.sigma = 1.0;
  anisotropic.sigma_y = 4.0;
  configs.push_back(anisotropic);
  for (int kernel_size : {3, 15, 61, 121}) {
    GaussConfig config;
    config.sigma = 4.6;
    config.kernel_size = kernel_size;
    config.border = "constant";
    config.border_value = 40000;
    configs.push_back(config);
  }
  GaussConfig sharpen;
  sharpen.sigma = 2.0;
  sharpen.unsharp = true;
  sharpen.amount = 10.0;
  sharpen.border = "replicate";
  configs.push_back(sharpen);
  uint32_t seed = 200;
  for (const GaussConfig &config : configs)
    for (const char *format : {"GRAY8", "GRAY16_LE"}) {
      cftest::check_frame(kBackend, gauss(config), format, 67, 33, seed++);
      cftest::check_frame(kBackend, gauss(config), format, 5, 4, seed++);
    }
}
GST_END_TEST;

GST_START_TEST(test_regions) {
  GaussConfig wide;
  wide.sigma = 2.5;
  wide.border = "constant";
  wide.border_value = 200;
  cftest::check_regions(kBackend, gauss(wide));
}
GST_END_TEST;

GST_START_TEST(test_interlaced) {
  GaussConfig wide;
  wide.sigma = 2.5;
  wide.border = "reflect-101";
  cftest::check_interlaced(kBackend, gauss(wide));
}
GST_END_TEST;

GST_START_TEST(test_foreign_input) { cftest::check_foreign_input(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_region_limit) { cftest::check_region_limit(kBackend, gauss({})); }
GST_END_TEST;

GST_START_TEST(test_start_properties) { cftest::check_start_properties("cudagauss"); }
GST_END_TEST;

GST_START_TEST(test_region_mistakes) {
  cftest::check_region_mistakes(kBackend, "cudagauss", true);
}
GST_END_TEST;

GST_START_TEST(test_downstream_pools) { cftest::check_downstream_pools(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_eos_drain) { cftest::check_eos_drain(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_flush) { cftest::check_flush(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_caps_change) { cftest::check_caps_change(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_state_cycles) { cftest::check_state_cycles(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_latency) { cftest::check_latency(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_live_source) { cftest::check_live_source(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_qos) { cftest::check_qos(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_changes_mid_stream) {
  GaussConfig unsharp;
  unsharp.sigma = 2.5;
  unsharp.border = "replicate";
  unsharp.unsharp = true;
  unsharp.amount = 2;
  cftest::check_changes_mid_stream(kBackend, kDefault, gauss(unsharp));
}
GST_END_TEST;

GST_START_TEST(test_refused_caps) { cftest::check_refused_caps("cudagauss"); }
GST_END_TEST;

GST_START_TEST(test_property_errors) {
  GstElement *element = gst_element_factory_make("cudagauss", nullptr);
  fail_unless(element != nullptr);
  g_object_set(element, "kernel-size", 15, "sigma", 2.0, nullptr);
  CF_ASSERT_REFUSED(g_object_set(element, "kernel-size", 16, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "kernel-size", 123, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "sigma", 0.05, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "sigma", 21.0, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "amount", -1.0, nullptr));
  gint kernel_size;
  gdouble sigma;
  g_object_get(element, "kernel-size", &kernel_size, "sigma", &sigma, nullptr);
  fail_unless_equals_int(kernel_size, 15);
  fail_unless_equals_float(sigma, 2.0);
  gst_object_unref(element);

  GError *error = nullptr;
  GstElement *parsed = gst_parse_launch("cudagauss mode=sharpen", &error);
  fail_unless(error != nullptr, "mode=sharpen accepted");
  g_error_free(error);
  gst_clear_object(&parsed);
}
GST_END_TEST;

GST_START_TEST(test_backend_cuda_demanded) { cftest::check_backend_cuda_demanded("cudagauss"); }
GST_END_TEST;

GST_START_TEST(test_missing_device_id) { cftest::check_missing_device_id("cudagauss"); }
GST_END_TEST;

GST_START_TEST(test_auto_backend) { cftest::check_auto_backend("cudagauss"); }
GST_END_TEST;

GST_START_TEST(test_device_messages) { cftest::check_device_messages("cudagauss"); }
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_element_suite(
      g_str_equal(kBackend, "cuda") ? "cudagauss_gpu" : "cudagauss", kBackend,
      {
          CF_TEST(test_every_format),
          CF_TEST(test_large_frames),
          CF_TEST(test_include_chroma),
          CF_TEST(test_kernel_shapes),
          CF_TEST(test_regions),
          CF_TEST(test_interlaced),
          CF_TEST(test_region_limit),
          CF_TEST(test_region_mistakes),
          CF_TEST(test_start_properties),
          CF_TEST(test_foreign_input),
          CF_TEST(test_downstream_pools),
          CF_TEST(test_eos_drain),
          CF_TEST(test_flush),
          CF_TEST(test_caps_change),
          CF_TEST(test_state_cycles),
          CF_TEST(test_latency), CF_TEST(test_live_source), CF_TEST(test_qos), CF_TEST(test_changes_mid_stream),
          CF_TEST(test_refused_caps),
          CF_TEST(test_property_errors),
          CF_TEST(test_backend_cuda_demanded),
          CF_TEST(test_missing_device_id),
          CF_TEST(test_auto_backend), CF_TEST(test_device_messages),
      },
      argc, argv);
}
