#pragma once
// The metadata writes in flight in one dependent replay (replay_engine.h), shared by its
// engine threads: a reader's step after a journal handle (ReplayJob::journal_wait_steps) waits
// for the metadata writes (ReplayJob::metadata_write_steps) that were in flight when it became
// ready, as the kernel's handle waits for a buffer being written, and not for writes issued
// while it waits: a flusher that keeps issuing metadata writes behind a writer's data would
// otherwise hold the reader for as long as it kept them coming (docs/replay.md §3, "After a
// journal handle"). Where the step knows the buffers its handles changed, it waits only for the
// writes of those and for the journal's log writes. Metadata writes are tens to hundreds in
// flight at the most: a mutex and a scan are enough.

#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace elevbench {

/// A buffer's extent on the target: {offset, bytes}.
using ReplayBuffer = std::pair<uint64_t, uint64_t>;

/// Tickets of the metadata writes in flight, in the order they were issued.
class MetadataWritesInFlight {
 public:
  /// A metadata write of `bytes` at `offset` was issued; `log`: a journal's log write (it may
  /// carry any buffer's copy). Its ticket, for Completed.
  uint64_t Issued(uint64_t offset = 0, uint64_t bytes = 0, bool log = false);
  /// The write holding `ticket` completed.
  void Completed(uint64_t ticket);
  /// The ticket the next issued write will get: a waiting step's bound for DrainedBefore.
  uint64_t Next() const;
  /// Whether every write issued before ticket `bound` (Next() at the time) that a change of
  /// `buffers` waits for has completed: with no buffers, every write; else the log writes and
  /// the writes that overlap one of them (the kernel's handle waits for the buffer it changes
  /// while that buffer is written, to the log or to its home).
  bool DrainedBefore(uint64_t bound, const std::vector<ReplayBuffer>& buffers = {}) const;

 private:
  struct Write {
    uint64_t offset = 0, bytes = 0;
    bool log = false;
  };
  mutable std::mutex mu_;
  uint64_t next_ = 0;
  std::map<uint64_t, Write> in_flight_;  // by ticket
};

}  // namespace elevbench
