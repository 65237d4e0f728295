// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "hostcopy.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "cpu_parallel.h"

std::vector<cf::RowCopy>
cf::split_rows (const std::vector<cf::RowCopy> & blocks, gsize piece_bytes)
{
  std::vector<cf::RowCopy> pieces;
  for (const cf::RowCopy & block : blocks) {
    const guint rows_per_piece = (guint) std::clamp<gsize> (piece_bytes /
        std::max<gsize> (block.row_bytes, 1), 1, G_MAXUINT);
    for (guint first = 0; first < block.rows; first += rows_per_piece) {
      cf::RowCopy piece = block;
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
copy_piece (const cf::RowCopy & piece)
{
  if (piece.src_stride == piece.row_bytes && piece.dst_stride == piece.row_bytes) {
    memcpy (piece.dst, piece.src, piece.bytes ());
    return;
  }
  for (guint y = 0; y < piece.rows; y++)
    memcpy (piece.dst + y * piece.dst_stride, piece.src + y * piece.src_stride,
        piece.row_bytes);
}

/* How long a caller that waits for a piece spins before it sleeps: waking a
 * sleeping thread costs tens of microseconds on a virtual machine, as long as
 * copying a piece. */
constexpr auto kSpin = std::chrono::microseconds (100);

/* Spins on ready() for up to kSpin, then sleeps on `wake` until it holds. */
template <typename Ready>
void
wait_for (std::mutex & lock, std::condition_variable & wake, Ready && ready)
{
  const auto spin_until = std::chrono::steady_clock::now () + kSpin;
  while (!ready ()) {
    if (std::chrono::steady_clock::now () >= spin_until) {
      std::unique_lock < std::mutex > hold (lock);
      wake.wait (hold, ready);
      return;
    }
    std::this_thread::yield ();
  }
}

/* One call's pieces, shared with the workers of the process's pool
 * (kernels/cpu_parallel.h) that help: a worker that comes late (after the
 * call returned) finds no piece left and touches nothing but this object,
 * which the pool keeps alive. */
struct CopyJob : cf::SharedWork
{
  explicit CopyJob (const std::vector<cf::RowCopy> & all)
      : pieces (all), done (new std::atomic<bool>[all.size ()] ()) {}

  void run () override
  {
    while (copy_next ()) {
    }
  }

  const std::vector<cf::RowCopy> pieces;
  /* Pieces are claimed in order; a claim at or past the end claims nothing. */
  std::atomic<gsize> next_claim { 0 };
  std::unique_ptr < std::atomic<bool>[] > done;
  /* For a caller that sleeps until a piece is done. */
  std::mutex lock;
  std::condition_variable copied_one;

  /* Copies the next unclaimed piece; false when none is left. */
  bool copy_next ()
  {
    const gsize i = next_claim.fetch_add (1);
    if (i >= pieces.size ())
      return false;
    copy_piece (pieces[i]);
    {
      std::lock_guard < std::mutex > hold (lock);
      done[i].store (true);
    }
    copied_one.notify_all ();
    return true;
  }

  void wait_until_done (gsize i)
  {
    wait_for (lock, copied_one, [&] {
          return done[i].load ();
        });
  }
};

}  // namespace

guint
cf::host_copy_threads (void)
{
  return CLAMP (g_get_num_processors () / 2, 1, 8);
}

bool
cf::copy_rows_in_parallel (const std::vector<cf::RowCopy> & pieces,
    guint helpers, const std::function<bool (gsize)> & copied)
{
  auto job = std::make_shared<CopyJob> (pieces);
  helpers = std::min<gsize> ({helpers, cf::host_copy_threads (),
        pieces.empty ()? 0 : pieces.size () - 1});
  cf::offer_work (job, (int) helpers);

  gsize handed_on = 0;
  bool ok = true;
  while (handed_on < pieces.size ()) {
    if (job->done[handed_on].load ()) {
      if (!copied (handed_on)) {
        ok = false;
        break;
      }
      handed_on++;
    } else if (!job->copy_next ()) {
      /* Everything is claimed: wait for the helper that copies this piece. */
      job->wait_until_done (handed_on);
    }
  }
  if (!ok) {
    /* Claims stop here; the pieces already claimed are finished first. */
    const gsize claimed = std::min (job->next_claim.exchange (pieces.size ()),
        pieces.size ());
    for (gsize i = 0; i < claimed; i++)
      job->wait_until_done (i);
  }
  return ok;
}
