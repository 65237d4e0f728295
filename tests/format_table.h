// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Where each component of each format lies, as the tests know it: written from the
// formats' definitions (one string of bytes per plane), never read from
// GstVideoFormatInfo nor from the plugin's own table (plugin/formatlayout.h), so that
// a mistake in either cannot hide in both. Only planes' starts and row strides come
// from the frame (its GstVideoMeta or GstVideoInfo).
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <string>
#include <vector>

#include "plane.h"

namespace cftest {

// One plane: a group of bytes that repeats along a row, each byte named by the
// component whose sample it holds ('Y' 'U' 'V' 'R' 'G' 'B' 'A'; 'x' for none), a
// sample of two bytes named twice (little-endian); one group covers `columns`
// pixels of a frame row, one plane row covers `rows` frame rows.
struct TablePlane {
  const char *group;
  int columns;
  int rows;
};

struct TableFormat {
  const char *name;
  int sample_bytes;  // 1 or 2
  int value_bits;    // of a sample's value: 8, 16, or 10 (P010: in the top bits)
  std::vector<TablePlane> planes;

  bool is_yuv() const;
  bool is_gray() const;
  // The components it has, in GStreamer's order (Y U V A, R G B A), as letters.
  std::string components() const;
  bool has(char component) const;
  cf::SampleFormat sample_format() const;
  uint32_t max_value() const { return (uint32_t{1} << value_bits) - 1; }
  // The GRAY format that holds one component's values alone.
  const char *gray_name() const { return sample_bytes == 1 ? "GRAY8" : "GRAY16_LE"; }
};

// Every format the elements take in system memory, and those of CUDA memory.
const std::vector<TableFormat> &table_formats();
bool held_in_cuda_memory(const TableFormat &format);
const TableFormat &table_format(const std::string &name);

// A component's samples in a mapped frame.
class TableComponent {
public:
  TableComponent(const TableFormat &format, const GstVideoFrame &frame, char component);

  int width() const { return width_; }
  int height() const { return height_; }
  // Frame pixels one sample covers, across and down.
  int x_factor() const { return x_factor_; }
  int y_factor() const { return y_factor_; }
  uint8_t *address(int x, int y) const;
  uint32_t stored(int x, int y) const;
  uint32_t value(int x, int y) const { return stored(x, y) >> padding_bits_; }
  void set_value(int x, int y, uint32_t value) const;
  // The samples as the kernels see them (evenly spaced in every format).
  cf::Plane plane() const;

private:
  const TableFormat &format_;
  uint8_t *data_ = nullptr;
  int stride_ = 0;
  int group_bytes_ = 0;
  std::vector<int> offsets_;  // of each of its samples in a group
  int width_ = 0, height_ = 0, x_factor_ = 1, y_factor_ = 1;
  int padding_bits_ = 0;
};

// The entry of a frame's format, and the letter of GStreamer's component c of it.
const TableFormat &table_format(const GstVideoInfo &info);
char component_letter(const TableFormat &format, guint c);
// Frame pixels one sample of a component covers, across and down.
int x_factor(const TableFormat &format, char component);
int y_factor(const TableFormat &format, char component);
// Component c of a mapped frame as the kernels see it.
cf::Plane table_plane(const GstVideoFrame &frame, guint c);

// Whether byte `byte` of a row of plane `plane` holds a sample of any component of a
// frame `width` pixels wide (not RGBx's x, nor bytes past the last sample).
bool is_sample_byte(const TableFormat &format, int plane, int width, int byte);
// Bytes of a row of the plane that its groups span for a frame `width` pixels wide.
int row_bytes(const TableFormat &format, int plane, int width);
int plane_rows(const TableFormat &format, int plane, int height);
// The same for the frames of `info`.
int row_bytes(const GstVideoInfo &info, int plane);
int plane_rows(const GstVideoInfo &info, int plane);

}  // namespace cftest
