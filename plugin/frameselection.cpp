// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "frameselection.h"

#include <algorithm>

void
SelectionSettings::set_region_types (const gchar * types)
{
  region_types = types ? types : "";
  region_choice.types.clear ();
  gchar **names = g_strsplit (region_types.c_str (), ",", -1);
  for (gchar **name = names; *name; name++)
    if (*g_strstrip (*name))
      region_choice.types.push_back (g_quark_from_string (*name));
  g_strfreev (names);
}

std::string
SelectionSettings::ignored_region_properties () const
{
  std::string ignored;
  if (regions_from_meta ())
    return ignored;
  const auto add = [&ignored] (const std::string & setting) {
    ignored += (ignored.empty ()? "" : ", ") + setting;
  };
  if (!region_choice.types.empty ())
    add ("region-types=" + region_types);
  if (region_choice.padding > 0)
    add ("region-padding=" + std::to_string (region_choice.padding));
  if (region_choice.min_confidence > 0)
    add ("min-confidence=" + std::to_string (region_choice.min_confidence));
  return ignored;
}

FrameSelection
FrameSelector::select (GstElement * element, GstBuffer * buffer,
    const GstVideoInfo & info, const SelectionSettings & settings,
    guint max_regions)
{
  FrameSelection selection;
  selection.include_chroma = settings.include_chroma;
  selection.include_alpha = settings.include_alpha;
  const GstVideoInterlaceMode mode = GST_VIDEO_INFO_INTERLACE_MODE (&info);
  selection.fields = mode == GST_VIDEO_INTERLACE_MODE_INTERLEAVED ||
      (mode == GST_VIDEO_INTERLACE_MODE_MIXED &&
      GST_BUFFER_FLAG_IS_SET (buffer, GST_VIDEO_BUFFER_FLAG_INTERLACED));
  if (!settings.regions_from_meta ()) {
    warn_if_ignored (element, settings);
    return selection;
  }
  FoundRegions found = cf::read_regions (element, buffer, info,
      settings.region_choice, max_regions);
  selection.analyzed = found.analyzed;
  check_types (element, settings, found.types);
  warn_if_over (element, found.found, max_regions);
  if (max_regions > 0) {
    selection.regions_left_out = found.found - found.kept.size ();
    selection.regions = std::move (found.kept);
  }
  return selection;
}

void
FrameSelector::warn_if_ignored (GstElement * element,
    const SelectionSettings & settings)
{
  if (warned_ignored_)
    return;
  const std::string ignored = settings.ignored_region_properties ();
  warned_ignored_ = !ignored.empty ();
  if (warned_ignored_)
    GST_ELEMENT_WARNING (element, STREAM, FAILED, ("%s set, but regions=frame: "
            "the whole frame is processed; set regions=meta to work on the "
            "regions", ignored.c_str ()), (nullptr));
}

void
FrameSelector::warn_if_over (GstElement * element, gsize found,
    guint max_regions)
{
  if (found <= max_regions || warned_over_limit_ || max_regions == 0)
    return;
  warned_over_limit_ = true;
  GST_ELEMENT_WARNING (element, STREAM, FAILED,
      ("A frame carries %zu regions; only the first %u are used (the most "
          "the element takes in a frame)", found, max_regions), (nullptr));
}

/* The quarks' names, comma-separated; a region without a type shows as
 * "(none)". */
static std::string
type_names (const std::vector<GQuark> & types)
{
  std::string names;
  for (GQuark type : types) {
    const gchar *name = cf::region_type_name (type);
    names += (names.empty ()? "" : ",") + std::string (*name ? name : "(none)");
  }
  return names;
}

void
FrameSelector::check_types (GstElement * element,
    const SelectionSettings & settings, const std::vector<GQuark> & frame_types)
{
  const std::vector<GQuark> & wanted = settings.region_choice.types;
  if (type_check_.decided || wanted.empty () || frame_types.empty ())
    return;
  constexpr gsize kTypesNamed = 8;
  for (GQuark type : frame_types) {
    if (std::find (wanted.begin (), wanted.end (), type) != wanted.end ()) {
      type_check_.decided = true;
      return;
    }
    if (type_check_.seen.size () < kTypesNamed && std::find (type_check_.seen.
            begin (), type_check_.seen.end (), type) == type_check_.seen.end ())
      type_check_.seen.push_back (type);
  }
  if (++type_check_.frames < kFramesBeforeTypeWarning)
    return;
  type_check_.decided = true;
  GST_ELEMENT_WARNING (element, STREAM, FAILED, ("No region of %u frames is of "
          "a type region-types names (%s): their types are %s. Types match "
          "exactly, case included", type_check_.frames,
          type_names (wanted).c_str (),
          type_names (type_check_.seen).c_str ()), (nullptr));
}
