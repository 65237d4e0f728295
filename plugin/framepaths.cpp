// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "framepaths.h"

#include <cstring>
#include <string>

#include "formatlayout.h"

cudaError_t
FramePath::allocate_per_slot (const CudaDevice &, const GstVideoInfo &,
    const std::vector<cudaStream_t> &)
{
  return cudaSuccess;
}

cudaError_t
FramePath::free_per_slot ()
{
  return cudaSuccess;
}

FrameError
FramePath::bring_in (int, const GstVideoFrame &, CudaFrameSlots &)
{
  return {};
}

FrameError
FramePath::send_back (int, const GstVideoFrame &,
    const std::vector<PlaneArea> &, CudaFrameSlots &)
{
  return {};
}

FrameError
FramePath::prepare_out (int, const GstVideoFrame &, CudaFrameSlots &)
{
  return {};
}

FrameError
FramePath::send_out (int, const GstVideoFrame &, CudaFrameSlots &)
{
  return {};
}

FrameError
FramePath::order_after (int, const GstVideoFrame &, CudaFrameSlots &,
    bool *ordered)
{
  *ordered = false;
  return {};
}

/* ---- host memory ---- */

/* A frame refused where its GstVideoMeta describes another frame than `info`:
 * gst_video_frame_map() answers another format or a smaller frame with a
 * critical, and a larger one would not match the caps. */
static FrameError
check_video_meta (GstBuffer * buffer, const GstVideoInfo & info,
    const char *side)
{
  const GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  if (!meta || (meta->format == GST_VIDEO_INFO_FORMAT (&info) &&
          meta->width == (guint) GST_VIDEO_INFO_WIDTH (&info) &&
          meta->height == (guint) GST_VIDEO_INFO_HEIGHT (&info) &&
          meta->n_planes == GST_VIDEO_INFO_N_PLANES (&info)))
    return {};
  gchar *detail = g_strdup_printf ("GstVideoMeta of a %u x %u %s frame (%u "
      "planes), caps of %d x %d %s", meta->width, meta->height,
      gst_video_format_to_string (meta->format), meta->n_planes,
      GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info),
      GST_VIDEO_INFO_NAME (&info));
  FrameError err = FrameError::refused (std::string (side) +
      " frame of another format or size than its caps", detail);
  g_free (detail);
  return err;
}

/* Where a plane of a mapped frame does not lie in the memory mapped for it,
 * rows top-down and apart, which and why; empty where every plane does:
 * gst_video_frame_map() takes a GstVideoMeta's offsets and strides on
 * trust. */
static std::string
plane_outside_memory (const GstVideoFrame & frame)
{
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    const GstMapInfo & map = frame.meta ? frame.map[p] : frame.map[0];
    const gsize offset = static_cast<const guint8 *>
        (GST_VIDEO_FRAME_PLANE_DATA (&frame, p)) - map.data;
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    const gsize row_bytes = cf::plane_row_bytes (&frame.info, p);
    const gsize rows = cf::plane_rows (&frame.info, p);
    gchar *why = nullptr;
    if (stride < 0 || (rows > 1 && (gsize) stride < row_bytes)) {
      why = g_strdup_printf ("plane %u: rows of %" G_GSIZE_FORMAT " bytes, %d "
          "bytes apart", p, row_bytes, stride);
    } else {
      const gsize span = cf::plane_span (&frame.info, p, stride);
      if (offset > map.size || span > map.size - offset)
        why = g_strdup_printf ("plane %u: bytes %" G_GSIZE_FORMAT " to %"
            G_GSIZE_FORMAT " of a memory of %" G_GSIZE_FORMAT " bytes", p,
            offset, offset + span, map.size);
    }
    if (why) {
      std::string text = why;
      g_free (why);
      return text;
    }
  }
  return {};
}

FrameError
cf::map_video_frame (GstBuffer * buffer, const GstVideoInfo & info,
    GstMapFlags flags, GstVideoFrame * frame)
{
  frame->buffer = nullptr;
  const std::string side = (flags & GST_MAP_READ) ? "Input" : "Output";
  if (FrameError err = check_video_meta (buffer, info, side.c_str ()))
    return err;
  if (!gst_video_frame_map (frame, &info, buffer, flags)) {
    frame->buffer = nullptr;
    gchar *detail = g_strdup_printf ("buffer of %" G_GSIZE_FORMAT " bytes for "
        "a %d x %d %s frame", gst_buffer_get_size (buffer),
        GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info),
        GST_VIDEO_INFO_NAME (&info));
    FrameError err = FrameError::refused (side + " frame that could not be "
        "mapped", detail);
    g_free (detail);
    return err;
  }
  const std::string outside = plane_outside_memory (*frame);
  if (outside.empty ())
    return {};
  gst_video_frame_unmap (frame);
  frame->buffer = nullptr;
  return FrameError::refused (side + " frame whose planes do not lie in its "
      "memory", outside);
}

/* Frames in host memory where they are: the CPU backend's kernels read and
 * write them directly. */
class HostFramePath : public FramePath
{
public:
  FrameError map (GstBuffer * buffer, const GstVideoInfo & info,
      GstMapFlags access, GstVideoFrame * frame) override
  {
    return cf::map_video_frame (buffer, info, access, frame);
  }

  FramePlanes planes (int, const GstVideoFrame & frame) const override
  {
    return FramePlanes::of (frame);
  }
};

/* ---- no frame ---- */

class NoFramePath : public FramePath
{
public:
  FrameError map (GstBuffer *, const GstVideoInfo &, GstMapFlags,
      GstVideoFrame * frame) override
  {
    frame->buffer = nullptr;
    return {};
  }

  FramePlanes planes (int, const GstVideoFrame &) const override
  {
    return {};
  }
};

std::unique_ptr<FramePath>
cf::make_host_frame_path (bool cuda_backend)
{
#ifdef CF_HAVE_CUDA
  if (cuda_backend)
    return cf::make_staged_host_frame_path ();
#else
  g_assert (!cuda_backend);
#endif
  return std::make_unique<HostFramePath> ();
}

std::unique_ptr<FramePath>
cf::make_no_frame_path ()
{
  return std::make_unique<NoFramePath> ();
}
