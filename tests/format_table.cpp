// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "format_table.h"

#include <algorithm>
#include <cstring>

namespace cftest {

const std::vector<TableFormat> &table_formats() {
  // From the formats' definitions: planar 4:2:0 has one U and one V per 2x2 pixels,
  // semi-planar NV12 and P010 interleave them (P010's 16-bit words hold 10-bit values
  // in their top bits), YUY2 is Y0 U Y1 V for two pixels.
  static const std::vector<TableFormat> formats = {
      {"GRAY8", 1, 8, {{"Y", 1, 1}}},
      {"GRAY16_LE", 2, 16, {{"YY", 1, 1}}},
      {"I420", 1, 8, {{"Y", 1, 1}, {"U", 2, 2}, {"V", 2, 2}}},
      {"YV12", 1, 8, {{"Y", 1, 1}, {"V", 2, 2}, {"U", 2, 2}}},
      {"NV12", 1, 8, {{"Y", 1, 1}, {"UV", 2, 2}}},
      {"NV21", 1, 8, {{"Y", 1, 1}, {"VU", 2, 2}}},
      {"Y42B", 1, 8, {{"Y", 1, 1}, {"U", 2, 1}, {"V", 2, 1}}},
      {"Y444", 1, 8, {{"Y", 1, 1}, {"U", 1, 1}, {"V", 1, 1}}},
      {"YUY2", 1, 8, {{"YUYV", 2, 1}}},
      {"UYVY", 1, 8, {{"UYVY", 2, 1}}},
      {"RGBA", 1, 8, {{"RGBA", 1, 1}}},
      {"BGRA", 1, 8, {{"BGRA", 1, 1}}},
      {"RGBx", 1, 8, {{"RGBx", 1, 1}}},
      {"BGRx", 1, 8, {{"BGRx", 1, 1}}},
      {"ARGB", 1, 8, {{"ARGB", 1, 1}}},
      {"ABGR", 1, 8, {{"ABGR", 1, 1}}},
      {"xRGB", 1, 8, {{"xRGB", 1, 1}}},
      {"xBGR", 1, 8, {{"xBGR", 1, 1}}},
      {"RGB", 1, 8, {{"RGB", 1, 1}}},
      {"BGR", 1, 8, {{"BGR", 1, 1}}},
      {"P010_10LE", 2, 10, {{"YY", 1, 1}, {"UUVV", 2, 2}}},
      {"P016_LE", 2, 16, {{"YY", 1, 1}, {"UUVV", 2, 2}}},
      {"Y444_16LE", 2, 16, {{"YY", 1, 1}, {"UU", 1, 1}, {"VV", 1, 1}}},
  };
  return formats;
}

bool held_in_cuda_memory(const TableFormat &format) {
  // gstreamer-cuda's allocator holds neither grey formats nor xRGB and xBGR.
  const std::string name = format.name;
  return !format.is_gray() && name != "xRGB" && name != "xBGR";
}

const TableFormat &table_format(const std::string &name) {
  for (const TableFormat &format : table_formats())
    if (name == format.name)
      return format;
  g_error("no format %s in the tests' table", name.c_str());
}

const TableFormat &table_format(const GstVideoInfo &info) {
  return table_format(GST_VIDEO_INFO_NAME(&info));
}

char component_letter(const TableFormat &format, guint c) {
  const std::string letters = format.components();
  if (c >= letters.size())
    g_error("%s has no component %u", format.name, c);
  return letters[c];
}

cf::Plane table_plane(const GstVideoFrame &frame, guint c) {
  const TableFormat &format = table_format(frame.info);
  return TableComponent(format, frame, component_letter(format, c)).plane();
}

bool TableFormat::is_yuv() const { return has('U'); }
bool TableFormat::is_gray() const { return !has('U') && !has('R'); }

bool TableFormat::has(char component) const {
  return std::any_of(planes.begin(), planes.end(), [&](const TablePlane &plane) {
    return std::strchr(plane.group, component) != nullptr;
  });
}

std::string TableFormat::components() const {
  std::string all;
  for (char c : std::string(is_yuv() || is_gray() ? "YUVA" : "RGBA"))
    if (has(c))
      all += c;
  return all;
}

cf::SampleFormat TableFormat::sample_format() const {
  return sample_bytes == 1 ? cf::SampleFormat(cf::SampleDepth::U8)
                           : cf::SampleFormat(cf::SampleDepth::U16, 16 - value_bits);
}

namespace {

int round_up_div(int a, int b) { return (a + b - 1) / b; }

// The plane that holds `component`, and the offsets of its samples in one group.
int find_plane(const TableFormat &format, char component, std::vector<int> &offsets) {
  for (size_t p = 0; p < format.planes.size(); p++) {
    const std::string group = format.planes[p].group;
    offsets.clear();
    for (size_t b = 0; b < group.size(); b += format.sample_bytes)
      if (group[b] == component)
        offsets.push_back(int(b));
    if (!offsets.empty())
      return int(p);
  }
  g_error("%s has no component %c", format.name, component);
}

}  // namespace

int x_factor(const TableFormat &format, char component) {
  std::vector<int> offsets;
  const int p = find_plane(format, component, offsets);
  return format.planes[p].columns / int(offsets.size());
}

int y_factor(const TableFormat &format, char component) {
  std::vector<int> offsets;
  return format.planes[find_plane(format, component, offsets)].rows;
}

namespace {

// Rows of the picture a buffer holds: in interlace-mode=alternate each buffer is one
// field, of half the frame's rows (the top one the larger).
int picture_rows(const GstVideoInfo &info) {
  const int height = GST_VIDEO_INFO_HEIGHT(&info);
  return GST_VIDEO_INFO_INTERLACE_MODE(&info) == GST_VIDEO_INTERLACE_MODE_ALTERNATE
             ? (height + 1) / 2
             : height;
}

}  // namespace

TableComponent::TableComponent(const TableFormat &format, const GstVideoFrame &frame,
                               char component)
    : format_(format) {
  const int p = find_plane(format, component, offsets_);
  const TablePlane &plane = format.planes[p];
  data_ = static_cast<uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p));
  stride_ = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
  group_bytes_ = int(std::strlen(plane.group));
  const int per_group = int(offsets_.size());
  x_factor_ = cftest::x_factor(format, component);
  y_factor_ = cftest::y_factor(format, component);
  width_ = round_up_div(GST_VIDEO_FRAME_WIDTH(&frame) * per_group, plane.columns);
  height_ = round_up_div(picture_rows(frame.info), plane.rows);
  padding_bits_ = 8 * format.sample_bytes - format.value_bits;
}

uint8_t *TableComponent::address(int x, int y) const {
  const int per_group = int(offsets_.size());
  return data_ + ptrdiff_t{y} * stride_ + (x / per_group) * group_bytes_ +
      offsets_[x % per_group];
}

uint32_t TableComponent::stored(int x, int y) const {
  const uint8_t *sample = address(x, y);
  return format_.sample_bytes == 1 ? sample[0] : uint32_t(sample[0]) | uint32_t(sample[1]) << 8;
}

void TableComponent::set_value(int x, int y, uint32_t value) const {
  const uint32_t sample = value << padding_bits_;
  uint8_t *at = address(x, y);
  at[0] = uint8_t(sample);
  if (format_.sample_bytes == 2)
    at[1] = uint8_t(sample >> 8);
}

cf::Plane TableComponent::plane() const {
  cf::Plane plane;
  plane.data = address(0, 0);
  plane.width = width_;
  plane.height = height_;
  plane.row_pitch = stride_;
  plane.pixel_stride = group_bytes_ / int(offsets_.size());
  return plane;
}

int row_bytes(const TableFormat &format, int plane, int width) {
  const TablePlane &layout = format.planes[plane];
  return round_up_div(width, layout.columns) * int(std::strlen(layout.group));
}

int plane_rows(const TableFormat &format, int plane, int height) {
  return round_up_div(height, format.planes[plane].rows);
}

int row_bytes(const GstVideoInfo &info, int plane) {
  return row_bytes(table_format(info), plane, GST_VIDEO_INFO_WIDTH(&info));
}

int plane_rows(const GstVideoInfo &info, int plane) {
  return plane_rows(table_format(info), plane, picture_rows(info));
}

bool is_sample_byte(const TableFormat &format, int plane, int width, int byte) {
  const TablePlane &layout = format.planes[plane];
  const std::string group = layout.group;
  const int in_group = byte % int(group.size());
  const char component = group[in_group];
  if (component == 'x' || byte >= row_bytes(format, plane, width))
    return false;
  // Its index among the component's samples of the row, against their number.
  int before = 0, per_group = 0;
  for (size_t b = 0; b < group.size(); b += format.sample_bytes)
    if (group[b] == component) {
      per_group++;
      before += int(b) + format.sample_bytes <= in_group;
    }
  const int index = byte / int(group.size()) * per_group + before;
  return index < round_up_div(width * per_group, layout.columns);
}

}  // namespace cftest
