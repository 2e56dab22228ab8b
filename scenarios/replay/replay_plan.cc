#include "scenarios/replay/replay_plan.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace elevbench {
namespace {

constexpr uint64_t kSectorBytes = 512;
constexpr uint32_t kAsyncDepth = 64;
// Scaled offsets are aligned to this, which every logical block size divides.
constexpr uint64_t kScaledAlignment = 4096;

std::string MiB(uint64_t bytes) {
  return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB (" + std::to_string(bytes) +
         " bytes)";
}

// A fio job name from the process: [A-Za-z0-9_.-] only.
std::string JobName(int32_t pid, const std::string& comm) {
  std::string name = "p" + std::to_string(pid) + "_";
  for (char c : comm) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '-' || c == '_';
    name += ok ? c : '_';
  }
  return name;
}

uint64_t MappedOffset(const ReplayMapping& m, uint64_t sector, uint32_t sectors) {
  const uint64_t offset = sector * kSectorBytes;
  if (m.mode == "as recorded") return offset;
  const uint64_t shifted = offset - static_cast<uint64_t>(m.shift_bytes);
  if (m.mode == "shifted") return shifted;
  const uint64_t len = static_cast<uint64_t>(sectors) * kSectorBytes;
  uint64_t scaled = static_cast<uint64_t>(std::floor(static_cast<double>(shifted) * m.scale));
  scaled -= scaled % kScaledAlignment;
  const uint64_t last = m.target_bytes > len ? m.target_bytes - len : 0;
  return std::min(scaled, last - last % kScaledAlignment);
}

const char* IologAction(BlockTraceOp op) {
  switch (op) {
    case BlockTraceOp::kRead:
      return "read";
    case BlockTraceOp::kWrite:
      return "write";
    case BlockTraceOp::kDiscard:
      return "trim";
    case BlockTraceOp::kFlush:
      return "sync";
  }
  return "sync";
}

// Bios of one process closer than this were in flight together: no process waits for a
// completion that fast on a disk.
constexpr uint64_t kBurstGapNs = 200000;
// The largest I/O made of plug-merged bios: 1 MiB, what one bio holds (256 pages); fio
// allocates iodepth buffers of the largest I/O.
constexpr uint64_t kPlugMergeBytes = 1ULL << 20;

// Times in the iolog: the recorded time scaled, in µs, plus 1 (see the header).
uint64_t IologTime(uint64_t time_ns, const ReplayOptions& o) {
  return static_cast<uint64_t>(std::llround(static_cast<double>(time_ns) / 1000.0 / o.speed)) + 1;
}

// One I/O fio issues: a bio of the trace, or contiguous ones the submitter's plug merged.
struct PlannedIo {
  uint64_t time_ns = 0;
  BlockTraceOp op = BlockTraceOp::kRead;
  uint8_t flags = 0;
  uint64_t sector = 0;
  uint64_t sectors = 0;
  uint64_t records = 1;  // bios of the trace it stands for
};

// Whether `r` continues `io` as the submitter's plug merged it: same operation, starting where
// `io` ends, within the burst gap, no flush or FUA of its own, and the I/O stays within
// kPlugMergeBytes (unless one bio is larger already).
bool ContinuesIo(const PlannedIo& io, const BlockTraceRecord& r, uint64_t previous_ns) {
  return r.op == io.op && r.op != BlockTraceOp::kFlush && r.sector == io.sector + io.sectors &&
         r.time_ns - previous_ns < kBurstGapNs && !(r.flags & (kTracePreflush | kTraceFua)) &&
         !(io.flags & kTraceFua) && (io.sectors + r.sectors) * kSectorBytes <= kPlugMergeBytes;
}

std::vector<PlannedIo> PlugMerged(const std::vector<const BlockTraceRecord*>& records) {
  std::vector<PlannedIo> ios;
  uint64_t previous_ns = 0;
  for (const BlockTraceRecord* r : records) {
    if (!ios.empty() && ContinuesIo(ios.back(), *r, previous_ns)) {
      ios.back().sectors += r->sectors;
      ++ios.back().records;
    } else {
      ios.push_back({r->time_ns, r->op, r->flags, r->sector, r->sectors, 1});
    }
    previous_ns = r->time_ns;
  }
  return ios;
}

// The most I/Os the process had in one burst.
uint32_t LargestBurst(const std::vector<PlannedIo>& ios) {
  uint32_t largest = 1, burst = 1;
  for (size_t i = 1; i < ios.size(); ++i) {
    burst = ios[i].time_ns - ios[i - 1].time_ns < kBurstGapNs ? burst + 1 : 1;
    largest = std::max(largest, burst);
  }
  return largest;
}

// The most bios of the process in flight at once, from the latencies the capture recorded
// (0 when it recorded none): a sweep over the [queued, done) intervals.
uint32_t LargestInFlight(const std::vector<const BlockTraceRecord*>& records) {
  std::vector<std::pair<uint64_t, int>> edges;  // time, +1 start / -1 end (ends sort first)
  for (const BlockTraceRecord* r : records) {
    if (r->latency_ns < 0) continue;
    edges.emplace_back(r->time_ns, +1);
    edges.emplace_back(r->time_ns + static_cast<uint64_t>(r->latency_ns), -1);
  }
  std::sort(edges.begin(), edges.end());
  int open = 0, most = 0;
  for (const auto& [time, delta] : edges) {
    open += delta;
    most = std::max(most, open);
  }
  return static_cast<uint32_t>(most);
}

ReplayJob BuildJob(const std::vector<const BlockTraceRecord*>& records, const std::string& device,
                   const ReplayMapping& m, const ReplayOptions& o, uint32_t index,
                   std::vector<ReplayScheduled>* scheduled) {
  ReplayJob job;
  job.pid = records.front()->pid;
  job.comm = records.front()->comm;
  job.name = JobName(job.pid, job.comm);
  const std::vector<PlannedIo> ios = PlugMerged(records);
  job.iodepth = std::min(std::max(LargestBurst(ios), LargestInFlight(records)), kAsyncDepth);
  job.ioengine = job.iodepth > 1 ? "libaio" : "psync";
  const uint64_t first = IologTime(ios.front().time_ns, o);
  // Every job starts with fio (no startdelay: fio polls for delayed jobs, ~0.1 s late) and
  // issues a `sync` at 1 µs: fio times each I/O from the previous issue and would issue the
  // first one at once, so the sync gives the first record its wait (see the header).
  job.start_delay_us = 0;
  std::string& log = job.iolog;
  log = "fio version 3 iolog\n";
  log += "1 " + device + " add\n";
  log += "1 " + device + " open\n";
  if (!o.no_stall) {
    log += "1 " + device + " sync 0 0\n";
    ++job.added_syncs;
    // Scheduled too (standing for no record), so that the lag pairs its FLUSH with it and not
    // with a flush of the trace.
    scheduled->push_back({0, BlockTraceOp::kFlush, 0, 0, index, 0});
  }
  uint64_t last = first;
  for (const PlannedIo& io : ios) {
    last = IologTime(io.time_ns, o);
    const uint64_t len = io.sectors * kSectorBytes;
    const uint64_t offset = io.op == BlockTraceOp::kFlush
                                ? 0
                                : MappedOffset(m, io.sector, static_cast<uint32_t>(io.sectors));
    if (io.flags & kTracePreflush) {
      log += std::to_string(last) + " " + device + " sync 0 0\n";
      ++job.added_syncs;
      scheduled->push_back({o.no_stall ? 0 : last - 1, BlockTraceOp::kFlush, 0, 0, index, 0});
    }
    if (io.op == BlockTraceOp::kWrite && (io.flags & kTraceFua)) ++job.fua_writes;
    log += std::to_string(last) + " " + device + " " + IologAction(io.op) + " " +
           std::to_string(offset) + " " + std::to_string(len) + "\n";
    job.ops += io.records;
    ++job.ios;
    job.bytes += len;
    job.writes = job.writes || io.op == BlockTraceOp::kWrite || io.op == BlockTraceOp::kDiscard;
    scheduled->push_back({o.no_stall ? 0 : last - 1, io.op, offset, len, index, io.records});
  }
  log += std::to_string(last) + " " + device + " close\n";
  return job;
}

}  // namespace

bool MapReplayOffsets(const BlockTrace& trace, uint64_t target_bytes, ReplayFit fit,
                      ReplayMapping* m, std::string* err) {
  uint64_t first = UINT64_MAX, end = 0, max_len = 0;
  for (const BlockTraceRecord& r : trace.records) {
    if (r.op == BlockTraceOp::kFlush) continue;
    first = std::min(first, r.sector * kSectorBytes);
    end = std::max(end, (r.sector + r.sectors) * kSectorBytes);
    max_len = std::max(max_len, static_cast<uint64_t>(r.sectors) * kSectorBytes);
  }
  if (trace.records.empty()) {
    *err = "the trace has no bios to replay";
    return false;
  }
  *m = ReplayMapping{};
  m->target_bytes = target_bytes;
  if (first == UINT64_MAX) first = end = 0;  // flushes only
  m->span_bytes = end - first;
  if (end <= target_bytes) {
    m->mode = "as recorded";
  } else if (m->span_bytes <= target_bytes) {
    m->mode = "shifted";
    m->shift_bytes = static_cast<int64_t>(first);
  } else if (fit == ReplayFit::kScale && target_bytes > max_len) {
    m->mode = "scaled";
    m->shift_bytes = static_cast<int64_t>(first);
    m->scale = static_cast<double>(target_bytes - max_len) / static_cast<double>(m->span_bytes);
  } else {
    *err = "the trace spans " + MiB(m->span_bytes) + ", more than the target's " +
           MiB(target_bytes) + " (a larger target, or --fit scale)";
    return false;
  }
  return true;
}

bool PlanReplay(const BlockTrace& trace, const std::string& device, uint64_t target_bytes,
                const ReplayOptions& o, ReplayPlan* plan, std::string* err) {
  if (!(o.speed > 0) || !std::isfinite(o.speed)) {
    *err = "--speed must be a positive number";
    return false;
  }
  ReplayPlan p;
  if (!MapReplayOffsets(trace, target_bytes, o.fit, &p.mapping, err)) return false;
  std::map<int32_t, std::vector<const BlockTraceRecord*>> by_pid;
  std::vector<int32_t> order;  // pids by first record
  for (const BlockTraceRecord& r : trace.records) {
    auto& list = by_pid[r.pid];
    if (list.empty()) order.push_back(r.pid);
    list.push_back(&r);
    ++p.trace_ops;
    p.trace_bytes += static_cast<uint64_t>(r.sectors) * kSectorBytes;
  }
  for (int32_t pid : order) {
    p.jobs.push_back(BuildJob(by_pid[pid], device, p.mapping, o,
                              static_cast<uint32_t>(p.jobs.size()), &p.scheduled));
  }
  std::stable_sort(
      p.scheduled.begin(), p.scheduled.end(),
      [](const ReplayScheduled& a, const ReplayScheduled& b) { return a.time_us < b.time_us; });
  p.duration_seconds = static_cast<double>(trace.header.duration_ns) / 1e9 / o.speed;
  *plan = std::move(p);
  return true;
}

}  // namespace elevbench
