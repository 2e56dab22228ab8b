#include "harness/trace/block_trace_summary.h"

#include <algorithm>
#include <tuple>

namespace elevbench {
namespace {

uint64_t RoundUpToPowerOfTwo(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

TraceDirectionSummary* DirectionOf(BlockTraceSummary* s, BlockTraceOp op) {
  switch (op) {
    case BlockTraceOp::kRead:
      return &s->reads;
    case BlockTraceOp::kWrite:
      return &s->writes;
    case BlockTraceOp::kDiscard:
      return &s->discards;
    case BlockTraceOp::kFlush:
      return nullptr;
  }
  return nullptr;
}

// Adds the bytes of each second, then picks the busiest (the earliest of equals).
void FindBusiestSecond(const BlockTrace& trace, BlockTraceSummary* s) {
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> per_second;  // ops, bytes
  for (const BlockTraceRecord& r : trace.records) {
    auto& [ops, bytes] = per_second[static_cast<uint32_t>(r.time_ns / 1000000000ULL)];
    ++ops;
    bytes += static_cast<uint64_t>(r.sectors) * 512;
  }
  for (const auto& [second, counts] : per_second) {
    if (counts.second > s->busiest_second_bytes ||
        (s->busiest_second_ops == 0 && counts.first > 0)) {
      s->busiest_second = second;
      s->busiest_second_ops = counts.first;
      s->busiest_second_bytes = counts.second;
    }
  }
}

}  // namespace

double BlockTraceSummary::SequentialShare() const {
  const uint64_t ops = reads.ops + writes.ops + discards.ops;
  const uint64_t seq = reads.sequential_ops + writes.sequential_ops + discards.sequential_ops;
  return ops > 0 ? static_cast<double>(seq) / static_cast<double>(ops) : 0;
}

BlockTraceSummary SummarizeBlockTrace(const BlockTrace& trace) {
  BlockTraceSummary s;
  s.duration_seconds = static_cast<double>(trace.header.duration_ns) / 1e9;
  s.records = trace.records.size();
  std::map<int32_t, TraceProcessSummary> processes;
  std::map<std::tuple<int32_t, BlockTraceOp>, uint64_t> next_sector;  // per process, direction
  s.first_sector = UINT64_MAX;
  for (const BlockTraceRecord& r : trace.records) {
    const uint64_t bytes = static_cast<uint64_t>(r.sectors) * 512;
    TraceProcessSummary& p = processes[r.pid];
    p.pid = r.pid;
    p.comm = r.comm;
    ++p.ops;
    p.bytes += bytes;
    if (r.flags & kTraceSync) ++s.sync_ops;
    if (r.flags & kTraceFua) ++s.fua;
    if (r.flags & kTracePreflush) ++s.preflushes;
    TraceDirectionSummary* d = DirectionOf(&s, r.op);
    if (d == nullptr) {
      ++s.flushes;
      ++p.flushes;
      continue;
    }
    if (r.op == BlockTraceOp::kRead) ++p.reads;
    if (r.op == BlockTraceOp::kWrite) ++p.writes;
    if (r.op == BlockTraceOp::kDiscard) ++p.discards;
    if (r.latency_ns >= 0 && r.op == BlockTraceOp::kRead) {
      s.read_latency.Record(static_cast<uint64_t>(r.latency_ns));
    }
    if (r.latency_ns >= 0 && r.op == BlockTraceOp::kWrite) {
      s.write_latency.Record(static_cast<uint64_t>(r.latency_ns));
    }
    ++d->ops;
    d->bytes += bytes;
    const auto key = std::make_tuple(r.pid, r.op);
    const auto it = next_sector.find(key);
    if (it != next_sector.end() && it->second == r.sector) ++d->sequential_ops;
    next_sector[key] = r.sector + r.sectors;
    ++s.sizes[RoundUpToPowerOfTwo(bytes)];
    s.first_sector = std::min(s.first_sector, r.sector);
    s.end_sector = std::max(s.end_sector, r.sector + r.sectors);
  }
  if (s.first_sector == UINT64_MAX) s.first_sector = 0;
  for (auto& [pid, p] : processes) s.processes.push_back(p);
  std::stable_sort(
      s.processes.begin(), s.processes.end(),
      [](const TraceProcessSummary& a, const TraceProcessSummary& b) { return a.ops > b.ops; });
  FindBusiestSecond(trace, &s);
  for (const BlockTraceDirtier& d : trace.header.dirtiers) {
    TraceBufferedWriter w{d, 0, 0};
    for (const BlockTraceRecord& r : trace.records) {
      if (r.owner != d.pid) continue;
      ++w.writes;
      w.bytes += static_cast<uint64_t>(r.sectors) * 512;
    }
    s.buffered_writers.push_back(std::move(w));
  }
  return s;
}

}  // namespace elevbench
