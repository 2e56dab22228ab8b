#include "scenarios/replay/replay_cautions.h"

#include <cstdio>
#include <set>
#include <utility>

namespace elevbench {

std::vector<std::string> ReplayCautions(const BlockTrace& trace, const ReplayOptions& o) {
  std::vector<std::string> cautions;
  if (!trace.header.writeback_traced) {
    uint64_t async_writes = 0;
    for (const BlockTraceRecord& r : trace.records) {
      if (r.op == BlockTraceOp::kWrite && !(r.flags & kTraceSync)) ++async_writes;
    }
    if (async_writes > 0) {
      cautions.push_back(
          "a version 1 trace does not say whose pages its " + std::to_string(async_writes) +
          " writeback writes (writes without REQ_SYNC) were: they are replayed at the capture's "
          "pace, so a buffered writer that the scheduler would have sped up or held back is not "
          "(a capture by this elevbench writes version 2, which says)");
    }
    return cautions;
  }
  if (o.buffered_writers) {
    std::string waits = FileSystemWaitsCaution(trace);
    if (!waits.empty()) cautions.push_back(std::move(waits));
    return cautions;
  }
  for (const auto& [pid, d] : HeldBackWriters(trace)) {
    char held[32];
    std::snprintf(held, sizeof held, "%.3f", static_cast<double>(d->held_back_ns) / 1e9);
    cautions.push_back(d->comm + " (pid " + std::to_string(pid) + ") was held back " + held +
                       " s by writeback in the capture, a writer whose pace the scheduler sets, "
                       "but --replayer fio replays its pages as the flusher's bios at their "
                       "recorded times (the dependent replayer replays it as a buffered writer)");
  }
  return cautions;
}

std::string FileSystemWaitsCaution(const BlockTrace& trace) {
  const auto writers = HeldBackWriters(trace);
  if (writers.empty()) return "";
  std::set<int32_t> readers;
  uint64_t commits = 0;
  for (const BlockTraceRecord& r : trace.records) {
    if (r.op == BlockTraceOp::kRead && writers.count(r.pid) == 0) readers.insert(r.pid);
    if (IsJournalCommit(r.op, r.flags)) ++commits;
  }
  if (readers.empty() || commits == 0) return "";
  uint64_t handles = 0;  // the readers' journal handles, which the replay waits after
  uint64_t known = 0;    // of those, the ones whose buffer the capture read
  for (const BlockTraceJournalHandles& h : trace.header.journal_handles) {
    if (readers.count(h.pid) == 0) continue;
    handles += h.times_ns.size();
    for (int64_t sector : h.buffer_sectors) known += sector >= 0 ? 1 : 0;
  }
  if (handles > 0 && known == handles) {
    return "a reader beside a buffered writer on a journaling file system: after each of the "
           "readers' " +
           std::to_string(handles) +
           " journal handles the replay holds their next I/O until the writes of the buffer the "
           "handle changed and the journal's log writes in flight at the time have completed, "
           "where the kernel waits for a log write only when it carries that buffer, so a "
           "reader that changes metadata often may wait longer than for real "
           "(docs/replay-measurements.md, \"A reader's journal handles, waiting for their own "
           "buffer\")";
  }
  if (handles > 0) {
    return "a reader beside a buffered writer on a journaling file system: after each of the "
           "readers' " +
           std::to_string(handles) +
           " journal handles the replay holds their next I/O until the writes of metadata in "
           "flight at the time have completed, where the kernel waits only for the buffer the "
           "handle changes, so a reader "
           "that changes metadata often (an access time for each file read) may wait longer "
           "than for real (docs/replay-measurements.md, \"A reader's journal handles, replayed\")";
  }
  return "a reader beside a buffered writer on a journaling file system (" +
         std::to_string(commits) +
         " journal writes with a preflush or FUA in the trace): the replay repeats the capture's "
         "bios, not the file system's waits between them, so a reader's wait that the capture's "
         "scheduler did not cause is not replayed (an access-time update waiting in the journal "
         "for an inode block whose write is queued behind the writer's data: "
         "docs/replay-measurements.md, \"A reader's waits inside the file system\")";
}

}  // namespace elevbench
