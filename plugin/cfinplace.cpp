// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cfinplace.h"

#include "cudafaults.h"

G_DEFINE_ABSTRACT_TYPE (CfInPlace, cf_in_place, CF_TYPE_BASE_FILTER);

void
cf_in_place_class_install_properties (GObjectClass * klass,
    CfRegions default_regions)
{
  cf_base_filter_class_install_property (klass, CF_PROP_REGIONS,
      default_regions);
  cf_base_filter_class_install_property (klass, CF_PROP_REGION_TYPES);
  cf_base_filter_class_install_property (klass, CF_PROP_REGION_PADDING);
  /* Chroma too, as CfFilter: a change of luma alone (a redaction) would
   * leave the colours of what it hides. */
  cf_base_filter_class_install_property (klass, CF_PROP_INCLUDE_CHROMA, TRUE);
}

/* Box `box` of `view`'s samples as an area of the plane of `frame` (the
 * planes the view was made of) it lies in: the same rows and bytes on the
 * frame wherever it lives. */
static PlaneArea
plane_area (const FramePlanes & frame, const ComponentView & view,
    const cf::Box & box)
{
  PlaneArea area;
  area.plane = FormatLayout::of (*frame.info).component
      (view.first_component ()).plane;
  /* A field's view starts on its first row, every other row its own. */
  const guint first_row = view.field < 0 ? 0 : view.field;
  area.row_step = view.field < 0 ? 1 : 2;
  area.x = (gsize) (view.src.data - frame.data[area.plane]) -
      (gsize) first_row * frame.stride[area.plane] +
      (gsize) box.x * view.src.pixel_stride;
  area.y = first_row + box.y * area.row_step;
  cf::Plane row = view.src;
  row.width = box.width;
  area.row_bytes = cf::row_span_bytes (row, view.format);
  area.rows = box.height;
  return area;
}

/* The areas of `edited` as the engine takes them; cudaErrorInvalidValue where
 * a box does not lie within its view: a subclass is not trusted to write
 * inside the frame, nor the copy back to read outside it. */
static cudaError_t
add_edited_areas (const FrameWork & work,
    const std::vector<ComponentView> & views, const EditedAreas & edited)
{
  if (edited.size () != views.size ())
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < views.size (); i++)
    for (const cf::Box & box : edited[i]) {
      if (!cf::is_within (box, views[i].src))
        return cudaErrorInvalidValue;
      work.edited->push_back (plane_area (work.input, views[i], box));
    }
  return cudaSuccess;
}

/* A frame's work: the subclass's kernels on the frame's views, src and dst
 * the same samples, restricted to its regions (maybe none) with
 * regions=meta, unless the subclass chose the whole frame. */
static FrameError
cf_in_place_run_frame (CfBaseFilter * base, const FrameWork & work,
    const FrameSelection & selection)
{
  auto *self = CF_IN_PLACE (base);
  std::vector<ComponentView> views = ProcessedComponents (*work.input.info,
      selection.include_chroma, false).views (work.input, &work.input,
      selection.fields);
  const bool restricted = selection.regions && !selection.whole_frame;
  const std::vector<std::vector<cf::Box>> boxes = restricted ?
      cf::restrict_to_regions (views, *selection.regions, *work.input.info) :
      std::vector<std::vector<cf::Box>> ();
  EditedAreas edited (views.size ());
  cudaError_t err = CF_CUDA (Kernel, CF_IN_PLACE_GET_CLASS (self)->edit_frame
      (self, views, selection, work.exec, work.workspace, &edited));
  if (err == cudaSuccess)
    err = add_edited_areas (work, views, edited);
  return FrameError::check (work.exec.on_device ? "Launching the kernels" :
      "Editing on the CPU", err);
}

static void
cf_in_place_class_init (CfInPlaceClass * klass)
{
  auto *base_class = CF_BASE_FILTER_CLASS (klass);
  base_class->edits_input = true;
  base_class->run_frame = cf_in_place_run_frame;
  gst_type_mark_as_plugin_api (CF_TYPE_IN_PLACE, (GstPluginAPIFlags) 0);
}

/* Works in place: GstBaseTransform gives it no output pool, and hands it its
 * input, made writable (a copy of the buffer where it is shared, and of each
 * memory that is, when mapped for writing). */
static void
cf_in_place_init (CfInPlace * self)
{
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}
