#pragma once
// The metadata writes in flight in one dependent replay (replay_engine.h), shared by its
// engine threads: a reader's step after a journal handle (ReplayJob::journal_wait_steps) waits
// for the metadata writes (ReplayJob::metadata_write_steps) that were in flight when it became
// ready, as the kernel's handle waits for a buffer being written, and not for writes issued
// while it waits: a flusher that keeps issuing metadata writes behind a writer's data would
// otherwise hold the reader for as long as it kept them coming (docs/replay.md §3, "After a
// journal handle"). Metadata writes are tens to hundreds in a replay: a mutex is enough.

#include <cstdint>
#include <mutex>
#include <set>

namespace elevbench {

/// Tickets of the metadata writes in flight, in the order they were issued.
class MetadataWritesInFlight {
 public:
  /// A metadata write was issued: its ticket, for Completed.
  uint64_t Issued();
  /// The write holding `ticket` completed.
  void Completed(uint64_t ticket);
  /// The ticket the next issued write will get: a waiting step's bound for DrainedBefore.
  uint64_t Next() const;
  /// Whether every write issued before ticket `bound` (Next() at the time) has completed.
  bool DrainedBefore(uint64_t bound) const;

 private:
  mutable std::mutex mu_;
  uint64_t next_ = 0;
  std::set<uint64_t> in_flight_;
};

}  // namespace elevbench
