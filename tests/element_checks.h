// Element-level checks of cudamedian through GstHarness and real pipelines, shared by
// the CPU-backend suite (CI) and the CUDA-backend suite (GPU hosts): each takes the
// backend to demand ("cpu" or "cuda").
#pragma once

namespace cftest {

// Every supported format at 1x1, 2x3, 17x9, each border, windows 3 and 5.
void check_every_format(const char *backend);
// 1921x1081 frames of the main format families.
void check_large_frames(const char *backend);
// include-chroma on planar, semi-planar and packed YUV.
void check_include_chroma(const char *backend);
// Window sizes 3, 5, 7, 9, 15, 31 on 8- and 16-bit grey.
void check_window_sizes(const char *backend);
// Input buffers whose GstVideoMeta has padded strides and odd plane offsets, and
// input buffers of plain (foreign, pageable) memory.
void check_padded_strides(const char *backend);
// With frames in flight: nothing lost or reordered at EOS; frames held back as
// frames-in-flight says.
void check_eos_drain(const char *backend);
// Frames in flight are dropped at a flush, and the stream goes on afterwards.
void check_flush(const char *backend);
// New caps mid-stream: the old frames leave first, with the old size.
void check_caps_change(const char *backend);
// videotestsrc ! cudamedian ! fakesink through NULL-PLAYING-NULL cycles.
void check_state_cycles(const char *backend);
// LATENCY reports frames-in-flight - 1 frame durations.
void check_latency(const char *backend);

}  // namespace cftest
