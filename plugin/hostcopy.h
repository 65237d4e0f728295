// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Host-to-host copies of frame rows, spread over the process's worker threads
 * (the CPU kernels' pool, kernels/cpu_parallel.h), each piece handed on (to a
 * DMA) as soon as it and every piece before it are copied: the copy of piece
 * i + 1 overlaps the transfer of piece i. Knows nothing of CUDA.
 *
 * One copy thread streams from DRAM at a fraction of what a PCIe 5 DMA moves,
 * so frames staged through pinned memory need several to keep up with the
 * bus. The workers are shared by every element of the process: N pipelines
 * staging at once share them instead of each bringing its own. */
#pragma once

#include <glib.h>

#include <functional>
#include <vector>

namespace cf {

/* `rows` rows of `row_bytes` bytes, `src_stride` and `dst_stride` apart. */
struct RowCopy
{
  const guint8 *src = nullptr;
  gsize src_stride = 0;
  guint8 *dst = nullptr;
  gsize dst_stride = 0;
  gsize row_bytes = 0;
  guint rows = 0;

  gsize bytes () const { return row_bytes * rows; }
  /* From the first byte of the first row to the last of the last, at dst. */
  gsize dst_span () const
  {
    return rows ? (gsize) (rows - 1) * dst_stride + row_bytes : 0;
  }
};

/* The same rows as pieces of about `piece_bytes` bytes each (whole rows, at
 * least one a piece), in order. */
std::vector<RowCopy> split_rows (const std::vector<RowCopy> & blocks,
    gsize piece_bytes);

/* The piece size for staging a frame of `frame_bytes` for the DMA: at least
 * 256 KiB (a DMA call costs a few microseconds of host time, a PCIe 5
 * transfer of 256 KiB about five; a 1080p luma plane makes 8 pieces, one for
 * each of 8 threads), at most 16 pieces (the first DMA starts after 1/16). */
constexpr gsize
staging_piece_bytes (gsize frame_bytes)
{
  return frame_bytes / 16 > 256 * 1024 ? frame_bytes / 16 : 256 * 1024;
}

/* Workers that help one copy at most: half the processors, at least 1 and at
 * most 8; the caller's own thread copies too. */
guint host_copy_threads (void);

/* Copies every piece, the calling thread and up to `helpers` workers
 * together, and calls copied(i) on the calling thread for i = 0, 1, ... in
 * order, each once pieces 0..i are all copied. When copied() returns false no
 * further piece is started or handed on, and copy_rows_in_parallel returns
 * false once the pieces already started are copied: nothing touches any
 * piece's memory after it returns, whatever it returns. */
bool copy_rows_in_parallel (const std::vector<RowCopy> & pieces,
    guint helpers, const std::function<bool (gsize)> & copied);

}  // namespace cf
