// cudamedian through the CPU backend (what CI can run), plus what the element does
// when CUDA is asked for or missing, and how it refuses bad property values.
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include <cuda_runtime_api.h>

#include <initializer_list>

#include "element_checks.h"

namespace {

bool cuda_device_usable() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

GstElement *make_median() {
  GstElement *element = gst_element_factory_make("cudamedian", nullptr);
  fail_unless(element != nullptr, "cudamedian not found: is GST_PLUGIN_PATH set?");
  return element;
}

}  // namespace

GST_START_TEST(test_every_format) { cftest::check_every_format("cpu"); }
GST_END_TEST;

GST_START_TEST(test_large_frames) { cftest::check_large_frames("cpu"); }
GST_END_TEST;

GST_START_TEST(test_include_chroma) { cftest::check_include_chroma("cpu"); }
GST_END_TEST;

GST_START_TEST(test_window_sizes) { cftest::check_window_sizes("cpu"); }
GST_END_TEST;

GST_START_TEST(test_padded_strides) { cftest::check_padded_strides("cpu"); }
GST_END_TEST;

GST_START_TEST(test_eos_drain) { cftest::check_eos_drain("cpu"); }
GST_END_TEST;

GST_START_TEST(test_flush) { cftest::check_flush("cpu"); }
GST_END_TEST;

GST_START_TEST(test_caps_change) { cftest::check_caps_change("cpu"); }
GST_END_TEST;

GST_START_TEST(test_state_cycles) { cftest::check_state_cycles("cpu"); }
GST_END_TEST;

GST_START_TEST(test_latency) { cftest::check_latency("cpu"); }
GST_END_TEST;

GST_START_TEST(test_refused_caps) {
  GstElement *element = make_median();
  GstPad *sink = gst_element_get_static_pad(element, "sink");
  for (const char *caps : {"video/x-raw,format=GRAY16_BE,width=8,height=8",
                           "video/x-raw,format=v210,width=8,height=8",
                           "audio/x-raw,format=S16LE"}) {
    GstCaps *refused = gst_caps_from_string(caps);
    fail_if(gst_pad_query_accept_caps(sink, refused), "accepted %s", caps);
    gst_caps_unref(refused);
  }
  gst_object_unref(sink);
  gst_object_unref(element);
}
GST_END_TEST;

GST_START_TEST(test_property_errors) {
  GstElement *element = make_median();
  // Even sizes, sizes out of range and zero frames in flight are refused with a
  // warning, and the previous value stays.
  g_object_set(element, "size", 7, nullptr);
  ASSERT_WARNING(g_object_set(element, "size", 4, nullptr));
  ASSERT_WARNING(g_object_set(element, "size", 33, nullptr));
  ASSERT_WARNING(g_object_set(element, "size", 1, nullptr));
  ASSERT_WARNING(g_object_set(element, "frames-in-flight", 0u, nullptr));
  ASSERT_WARNING(g_object_set(element, "border-value", 70000u, nullptr));
  gint size;
  guint in_flight;
  g_object_get(element, "size", &size, "frames-in-flight", &in_flight, nullptr);
  fail_unless_equals_int(size, 7);
  fail_unless_equals_int(in_flight, 2);
  gst_object_unref(element);

  // The path gst-launch-1.0 takes: a value that is not one of the enum's nicks.
  GError *error = nullptr;
  GstElement *parsed = gst_parse_launch("cudamedian border=mirror", &error);
  fail_unless(error != nullptr, "border=mirror accepted");
  fail_unless(g_error_matches(error, GST_PARSE_ERROR, GST_PARSE_ERROR_COULD_NOT_SET_PROPERTY));
  g_error_free(error);
  gst_clear_object(&parsed);
}
GST_END_TEST;

// backend=cuda without a device is an error at start, never a crash; with one it runs.
GST_START_TEST(test_backend_cuda_demanded) {
  GstElement *element = make_median();
  gst_util_set_object_arg(G_OBJECT(element), "backend", "cuda");
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(element, bus);
  const GstStateChangeReturn ret = gst_element_set_state(element, GST_STATE_PAUSED);
  if (cuda_device_usable()) {
    fail_unless(ret != GST_STATE_CHANGE_FAILURE);
  } else {
    fail_unless_equals_int(ret, GST_STATE_CHANGE_FAILURE);
    GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    fail_unless(message != nullptr, "no error message on the bus");
    GError *error = nullptr;
    gst_message_parse_error(message, &error, nullptr);
    fail_unless(g_strrstr(error->message, "CUDA") != nullptr, "%s", error->message);
    g_error_free(error);
    gst_message_unref(message);
  }
  fail_unless_equals_int(gst_element_set_state(element, GST_STATE_NULL),
                         GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus(element, nullptr);
  gst_object_unref(bus);
  gst_object_unref(element);
}
GST_END_TEST;

GST_START_TEST(test_missing_device_id) {
  GstElement *element = make_median();
  g_object_set(element, "device-id", 4000, nullptr);
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(element, bus);
  fail_unless_equals_int(gst_element_set_state(element, GST_STATE_PAUSED),
                         GST_STATE_CHANGE_FAILURE);
  GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(message != nullptr);
  GError *error = nullptr;
  gst_message_parse_error(message, &error, nullptr);
  fail_unless(g_strrstr(error->message, "4000") != nullptr, "%s", error->message);
  g_error_free(error);
  gst_message_unref(message);
  gst_element_set_state(element, GST_STATE_NULL);
  gst_element_set_bus(element, nullptr);
  gst_object_unref(bus);
  gst_object_unref(element);
}
GST_END_TEST;

// backend=auto: CUDA where a device works, else the CPU with one warning on the bus.
GST_START_TEST(test_auto_backend) {
  GstElement *element = make_median();
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(element, bus);
  const bool device = cuda_device_usable();
  for (int cycle = 0; cycle < 2; cycle++) {
    fail_unless(gst_element_set_state(element, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE);
    gint active;
    g_object_get(element, "active-backend", &active, nullptr);
    fail_unless_equals_int(active, device ? 1 : 2);  // cuda : cpu
    fail_unless_equals_int(gst_element_set_state(element, GST_STATE_NULL),
                           GST_STATE_CHANGE_SUCCESS);
  }
  int warnings = 0;
  GstMessage *message;
  while ((message = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING))) {
    warnings++;
    gst_message_unref(message);
  }
  fail_unless_equals_int(warnings, device ? 0 : 1);  // said once, not at every start
  gst_element_set_bus(element, nullptr);
  gst_object_unref(bus);
  gst_object_unref(element);
}
GST_END_TEST;

static Suite *cudamedian_suite() {
  Suite *suite = suite_create("cudamedian");
  TCase *tc = tcase_create("cpu");
  tcase_set_timeout(tc, 600);
  suite_add_tcase(suite, tc);
  tcase_add_test(tc, test_every_format);
  tcase_add_test(tc, test_large_frames);
  tcase_add_test(tc, test_include_chroma);
  tcase_add_test(tc, test_window_sizes);
  tcase_add_test(tc, test_padded_strides);
  tcase_add_test(tc, test_eos_drain);
  tcase_add_test(tc, test_flush);
  tcase_add_test(tc, test_caps_change);
  tcase_add_test(tc, test_state_cycles);
  tcase_add_test(tc, test_latency);
  tcase_add_test(tc, test_refused_caps);
  tcase_add_test(tc, test_property_errors);
  tcase_add_test(tc, test_backend_cuda_demanded);
  tcase_add_test(tc, test_missing_device_id);
  tcase_add_test(tc, test_auto_backend);
  return suite;
}

GST_CHECK_MAIN(cudamedian);
