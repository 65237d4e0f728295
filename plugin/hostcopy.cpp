// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "hostcopy.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>

std::vector<RowCopy>
split_rows (const std::vector<RowCopy> & blocks, gsize piece_bytes)
{
  std::vector<RowCopy> pieces;
  for (const RowCopy & block : blocks) {
    const guint rows_per_piece = (guint) std::clamp<gsize> (piece_bytes /
        std::max<gsize> (block.row_bytes, 1), 1, G_MAXUINT);
    for (guint first = 0; first < block.rows; first += rows_per_piece) {
      RowCopy piece = block;
      piece.src += (gsize) first * block.src_stride;
      piece.dst += (gsize) first * block.dst_stride;
      piece.rows = MIN (rows_per_piece, block.rows - first);
      pieces.push_back (piece);
    }
  }
  return pieces;
}

namespace {

void
copy_piece (const RowCopy & piece)
{
  if (piece.src_stride == piece.row_bytes && piece.dst_stride == piece.row_bytes) {
    memcpy (piece.dst, piece.src, piece.bytes ());
    return;
  }
  for (guint y = 0; y < piece.rows; y++)
    memcpy (piece.dst + y * piece.dst_stride, piece.src + y * piece.src_stride,
        piece.row_bytes);
}

/* One call's pieces, shared with the workers that help: a worker that comes
 * late (after the call returned) finds no piece left and touches nothing but
 * this object, which it keeps alive. */
struct CopyJob
{
  explicit CopyJob (const std::vector<RowCopy> & all)
      : pieces (all), done (all.size (), false) {}

  const std::vector<RowCopy> pieces;
  /* Pieces are claimed in order; a claim at or past the end claims nothing. */
  std::atomic<gsize> next_claim { 0 };
  std::mutex lock;
  std::condition_variable copied_one;
  std::vector<bool> done;       /* under lock */

  /* Copies the next unclaimed piece; false when none is left. */
  bool copy_next ()
  {
    const gsize i = next_claim.fetch_add (1);
    if (i >= pieces.size ())
      return false;
    copy_piece (pieces[i]);
    {
      std::lock_guard < std::mutex > hold (lock);
      done[i] = true;
    }
    copied_one.notify_all ();
    return true;
  }
};

void
help_with_job (gpointer data, gpointer)
{
  std::unique_ptr < std::shared_ptr < CopyJob >> job (
      static_cast<std::shared_ptr < CopyJob > *>(data));
  while ((*job)->copy_next ()) {
  }
}

/* Made once, used for the rest of the process (it holds no memory of any
 * element). */
GThreadPool *
workers (void)
{
  static GThreadPool *pool = g_thread_pool_new (help_with_job, nullptr,
      (gint) host_copy_threads (), TRUE, nullptr);
  return pool;
}

}  // namespace

guint
host_copy_threads (void)
{
  return CLAMP (g_get_num_processors () / 2, 1, 8);
}

bool
copy_rows_in_parallel (const std::vector<RowCopy> & pieces, guint helpers,
    const std::function<bool (gsize)> & copied)
{
  auto job = std::make_shared<CopyJob> (pieces);
  helpers = std::min<gsize> ({helpers, host_copy_threads (),
        pieces.empty ()? 0 : pieces.size () - 1});
  for (guint i = 0; i < helpers; i++)
    g_thread_pool_push (workers (), new std::shared_ptr < CopyJob > (job),
        nullptr);

  gsize handed_on = 0;
  bool ok = true;
  while (handed_on < pieces.size ()) {
    bool ready;
    {
      std::lock_guard < std::mutex > hold (job->lock);
      ready = job->done[handed_on];
    }
    if (ready) {
      if (!copied (handed_on)) {
        ok = false;
        break;
      }
      handed_on++;
    } else if (!job->copy_next ()) {
      /* Everything is claimed: wait for the helper that copies this piece. */
      std::unique_lock < std::mutex > hold (job->lock);
      job->copied_one.wait (hold, [&] {
            return job->done[handed_on];
          });
    }
  }
  if (!ok) {
    /* Claims stop here; the pieces already claimed are finished first. */
    const gsize claimed = std::min (job->next_claim.exchange (pieces.size ()),
        pieces.size ());
    std::unique_lock < std::mutex > hold (job->lock);
    job->copied_one.wait (hold, [&] {
          for (gsize i = 0; i < claimed; i++)
            if (!job->done[i])
              return false;
          return true;
        });
  }
  return ok;
}
