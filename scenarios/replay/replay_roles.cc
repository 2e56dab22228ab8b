#include "scenarios/replay/replay_roles.h"

#include <algorithm>

namespace elevbench {

bool IsJournalCommit(BlockTraceOp op, uint8_t flags) {
  return op == BlockTraceOp::kWrite && (flags & (kTracePreflush | kTraceFua)) != 0;
}

std::set<int32_t> JournalPids(const BlockTrace& trace) {
  std::set<int32_t> journals;
  for (const BlockTraceRecord& r : trace.records) {
    if (IsJournalCommit(r.op, r.flags)) journals.insert(r.pid);
  }
  return journals;
}

std::map<int32_t, const BlockTraceDirtier*> HeldBackWriters(const BlockTrace& trace) {
  std::map<int32_t, const BlockTraceDirtier*> held_back, owning;
  if (!trace.header.writeback_traced) return owning;
  const std::set<int32_t> journals = JournalPids(trace);
  for (const BlockTraceDirtier& d : trace.header.dirtiers) {
    if (d.held_back_ns > 0 && journals.count(d.pid) == 0) held_back[d.pid] = &d;
  }
  for (const BlockTraceRecord& r : trace.records) {
    const auto it = held_back.find(r.owner);
    if (r.owner > 0 && r.op == BlockTraceOp::kWrite && it != held_back.end()) owning.insert(*it);
  }
  return owning;
}

bool HasBufferedWriters(const BlockTrace& trace) { return !HeldBackWriters(trace).empty(); }

int64_t LastReadNs(const BlockTrace& trace, const std::set<int32_t>& writeback) {
  int64_t last = -1;
  for (const BlockTraceRecord& r : trace.records) {
    if (r.op == BlockTraceOp::kRead && writeback.count(r.pid) == 0) {
      last = static_cast<int64_t>(r.time_ns);
    }
  }
  return last;
}

ReplayBufferedWriter BufferedWriterOf(const BlockTraceDirtier& d,
                                      const std::vector<const BlockTraceRecord*>& owned,
                                      const ReplayMapping& m, const ReplayClock& clock,
                                      int64_t last_read_ns, KernelSpan* span) {
  ReplayBufferedWriter w;
  w.start_us = clock.no_stall ? 0 : clock.Us(d.first_ns);
  span->first_ns = d.first_ns;
  for (const BlockTraceRecord* r : owned) {
    const uint64_t offset = MappedOffset(m, r->sector, r->sectors);
    const uint64_t len = static_cast<uint64_t>(r->sectors) * kReplaySectorBytes;
    if (!w.extents.empty() && w.extents.back().first + w.extents.back().second == offset) {
      w.extents.back().second += len;
    } else {
      w.extents.emplace_back(offset, len);
    }
    w.bytes += len;
    span->Add(*r);
  }
  // Still dirtying when the last read was queued (or after: a writer killed beside the readers
  // goes on until its write returns from the kernel's wait): its demand outlasted the readers.
  // Done long before: it had finished its own work.
  const auto last_read = static_cast<uint64_t>(std::max<int64_t>(last_read_ns, 0));
  w.until_readers_end = last_read_ns >= 0 && d.last_ns + kReplayWriterOpenEndNs >= last_read;
  return w;
}

}  // namespace elevbench
