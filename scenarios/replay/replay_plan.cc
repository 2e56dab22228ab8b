#include "scenarios/replay/replay_plan.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "scenarios/replay/replay_ios.h"
#include "scenarios/replay/replay_wait_rules.h"

namespace elevbench {
namespace {

constexpr uint32_t kAsyncDepth = 64;

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

// The most I/Os the process had in one burst.
uint32_t LargestBurst(const std::vector<ReplayIo>& ios) {
  uint32_t largest = 1, burst = 1;
  for (size_t i = 1; i < ios.size(); ++i) {
    burst = ios[i].time_ns - ios[i - 1].time_ns < kReplayBurstGapNs ? burst + 1 : 1;
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

ReplayClock ClockOf(const ReplayOptions& o) { return {o.speed, o.no_stall}; }

// Process `index`'s job: its records, their I/Os (PlugMergedIos) as fio's iolog and as the
// dependent replayer's steps, timed by the I/Os' dependencies.
ReplayJob BuildJob(const std::vector<const BlockTraceRecord*>& records,
                   const std::vector<ReplayIo>& ios, const std::vector<ReplayDependency>& deps,
                   const std::vector<std::vector<uint32_t>>& last_steps, const std::string& device,
                   const ReplayMapping& m, const ReplayOptions& o, uint32_t index,
                   std::vector<ReplayScheduled>* scheduled) {
  ReplayJob job;
  job.pid = records.front()->pid;
  job.comm = records.front()->comm;
  job.name = JobName(job.pid, job.comm);
  job.iodepth = std::min(std::max(LargestBurst(ios), LargestInFlight(records)), kAsyncDepth);
  job.ioengine = job.iodepth > 1 ? "libaio" : "psync";
  IologWriter log(device);
  job.flush_only = std::all_of(ios.begin(), ios.end(),
                               [](const ReplayIo& io) { return io.op == BlockTraceOp::kFlush; });
  if (o.no_stall && job.flush_only) log.KeepOneWait();
  ReplayJobSteps steps;
  const ReplayClock clock = ClockOf(o);
  for (size_t i = 0; i < ios.size(); ++i) {
    const ReplayIo& io = ios[i];
    const uint64_t at_us = o.no_stall ? 0 : clock.Us(io.time_ns);
    if (!o.no_stall) log.WaitUntil(at_us);
    const uint64_t len = io.sectors * kReplaySectorBytes;
    const uint64_t offset = io.op == BlockTraceOp::kFlush
                                ? 0
                                : MappedOffset(m, io.sector, static_cast<uint32_t>(io.sectors));
    AppendSteps(io, deps[i], last_steps, offset, clock, &steps);
    if (io.flags & kTracePreflush) {
      log.Io(BlockTraceOp::kFlush, 0, 0);
      ++job.added_syncs;
      scheduled->push_back({at_us, BlockTraceOp::kFlush, 0, 0, index, 0});
    }
    if (io.op == BlockTraceOp::kWrite && (io.flags & kTraceFua)) ++job.fua_writes;
    log.Io(io.op, offset, len);
    job.ops += io.records;
    ++job.ios;
    job.bytes += len;
    job.writes = job.writes || io.op == BlockTraceOp::kWrite || io.op == BlockTraceOp::kDiscard;
    scheduled->push_back({at_us, io.op, offset, len, index, io.records});
  }
  job.iolog = log.Close();
  job.steps = std::move(steps.steps);
  job.dependent_ios = steps.dependent_ios;
  job.woken_ios = steps.woken_ios;
  return job;
}

// The median of a process's timed reads, ms (-1 for none).
double ReadMedianMs(const std::vector<const BlockTraceRecord*>& records) {
  std::vector<int64_t> ns;
  for (const BlockTraceRecord* r : records) {
    if (r->op == BlockTraceOp::kRead && r->latency_ns >= 0) ns.push_back(r->latency_ns);
  }
  if (ns.empty()) return -1;
  std::sort(ns.begin(), ns.end());
  const size_t n = ns.size();
  const double median =
      n % 2 == 1 ? static_cast<double>(ns[n / 2])
                 : (static_cast<double>(ns[n / 2 - 1]) + static_cast<double>(ns[n / 2])) / 2.0;
  return median / 1e6;
}

// The job of buffered writer `d` from the trace's writes of its pages (`owned`, in time order).
ReplayJob BuildWriterJob(const BlockTraceDirtier& d,
                         const std::vector<const BlockTraceRecord*>& owned, const ReplayMapping& m,
                         const ReplayOptions& o, int64_t last_read_ns) {
  ReplayJob job;
  job.pid = d.pid;
  job.comm = d.comm;
  job.name = JobName(d.pid, d.comm);
  job.ioengine = "buffered";
  job.writes = true;
  KernelSpan span;
  ReplayBufferedWriter w = BufferedWriterOf(d, owned, m, ClockOf(o), last_read_ns, &span);
  job.ops = owned.size();
  job.bytes = w.bytes;
  job.trace_span_seconds = span.Seconds() / o.speed;
  job.buffered = std::move(w);
  return job;
}

// The trace's records split: by the process that queued them (pids in `order`, by first
// record), and the writes of a buffered writer's pages by their owner (`owned`), with the
// processes that wrote those (`writeback`); the plan's counts of both.
struct RecordsByRole {
  std::map<int32_t, std::vector<const BlockTraceRecord*>> by_pid, owned;
  std::set<int32_t> writeback;
  std::vector<int32_t> order;
};

RecordsByRole SplitRecords(const BlockTrace& trace,
                           const std::map<int32_t, const BlockTraceDirtier*>& writers,
                           ReplayPlan* p) {
  RecordsByRole split;
  for (const BlockTraceRecord& r : trace.records) {
    const uint64_t bytes = static_cast<uint64_t>(r.sectors) * kReplaySectorBytes;
    ++p->trace_ops;
    p->trace_bytes += bytes;
    if (r.op == BlockTraceOp::kWrite && writers.count(r.owner) > 0) {
      split.owned[r.owner].push_back(&r);
      split.writeback.insert(r.pid);
      ++p->buffered_ops;
      p->buffered_bytes += bytes;
      continue;
    }
    auto& list = split.by_pid[r.pid];
    if (list.empty()) split.order.push_back(r.pid);
    list.push_back(&r);
  }
  return split;
}

}  // namespace

bool PlanReplay(const BlockTrace& trace, const std::string& device, uint64_t target_bytes,
                const ReplayOptions& o, ReplayPlan* plan, std::string* err) {
  if (!(o.speed > 0) || !std::isfinite(o.speed)) {
    *err = "--speed must be a positive number";
    return false;
  }
  ReplayPlan p;
  if (!MapReplayOffsets(trace, target_bytes, o.fit, &p.mapping, err)) return false;
  const auto writers =
      o.buffered_writers ? HeldBackWriters(trace) : std::map<int32_t, const BlockTraceDirtier*>{};
  RecordsByRole split = SplitRecords(trace, writers, &p);
  std::vector<std::vector<ReplayIo>> ios;  // per process, in split.order
  std::vector<std::vector<uint32_t>> last_steps;
  for (int32_t pid : split.order) {
    ios.push_back(PlugMergedIos(split.by_pid[pid]));
    last_steps.push_back(LastSteps(ios.back()));
  }
  const auto deps = InferDependencies(ios, kReplayWakeWindowNs);
  for (size_t j = 0; j < split.order.size(); ++j) {
    const auto& records = split.by_pid[split.order[j]];
    p.jobs.push_back(BuildJob(records, ios[j], deps[j], last_steps, device, p.mapping, o,
                              static_cast<uint32_t>(j), &p.scheduled));
    ReplayJob& job = p.jobs.back();
    const double p50 = ReadMedianMs(records);
    job.trace_read_p50_ms = p50 < 0 ? -1 : p50 / o.speed;
    KernelSpan span;
    for (const BlockTraceRecord* r : records) span.Add(*r);
    job.trace_span_seconds = span.Seconds() / o.speed;
    job.writer_writeback = split.writeback.count(job.pid) > 0;
  }
  MarkWaitRules(trace, ios, last_steps, p.mapping, !writers.empty(), &p.jobs);
  // Buffered writers last, so that the jobs' indexes the steps wait for stay as they are.
  const int64_t last_read_ns = LastReadNs(trace, split.writeback);
  for (const auto& [pid, dirtier] : writers) {
    p.jobs.push_back(BuildWriterJob(*dirtier, split.owned[pid], p.mapping, o, last_read_ns));
    // A writer with bios of its own as well (a reader too) keeps both jobs, apart by name.
    if (split.by_pid.count(pid) > 0) p.jobs.back().name += "_pagecache";
  }
  std::stable_sort(
      p.scheduled.begin(), p.scheduled.end(),
      [](const ReplayScheduled& a, const ReplayScheduled& b) { return a.time_us < b.time_us; });
  p.duration_seconds = static_cast<double>(trace.header.duration_ns) / 1e9 / o.speed;
  p.trace_span_seconds = KernelSpanSeconds(trace.records) / o.speed;
  *plan = std::move(p);
  return true;
}

}  // namespace elevbench
