#include "scenarios/replay/replay_plan.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "scenarios/replay/replay_ios.h"

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

// The scheduled issue time: the recorded one scaled by --speed, µs since the trace's start.
uint64_t ScheduledUs(uint64_t time_ns, const ReplayOptions& o) {
  return static_cast<uint64_t>(std::llround(static_cast<double>(time_ns) / 1000.0 / o.speed));
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

// fio releases its jobs about 100 ms after its genesis (it polls every 100 ms for them to have
// started, backend.c of 3.33), so the trace's time 0 is this long after genesis: its first I/Os
// would otherwise all be late by that much. Two polls' worth, in case one poll is not enough.
constexpr uint64_t kLeadInMs = 250;

// The iolog v2 line "DEVICE wait MS 0" that holds the job until MS milliseconds after fio's
// genesis (see the header), unless `ms` is not later than the last wait written.
void AppendWait(const std::string& device, uint64_t ms, uint64_t* last_wait_ms, std::string* log) {
  if (ms <= *last_wait_ms) return;
  *log += device + " wait " + std::to_string(ms) + " 0\n";
  *last_wait_ms = ms;
}

// The index of each I/O's last step in its job (a preflush write is two steps: the flush, then
// the write), what a step waiting for that I/O's completion names.
std::vector<uint32_t> LastSteps(const std::vector<ReplayIo>& ios) {
  std::vector<uint32_t> last;
  uint32_t steps = 0;
  for (const ReplayIo& io : ios) {
    steps += (io.flags & kTracePreflush) ? 2 : 1;
    last.push_back(steps - 1);
  }
  return last;
}

// The dependent replayer's steps for `io` timed by `dep`, at `offset` on the target: a
// preflush write is a flush, then the write once the flush completed (what REQ_PREFLUSH means).
// last_steps[p] is LastSteps of process p's I/Os.
void AppendSteps(const ReplayIo& io, const ReplayDependency& dep,
                 const std::vector<std::vector<uint32_t>>& last_steps, uint64_t offset,
                 const ReplayOptions& o, ReplayJob* job) {
  ReplayStep step;
  step.after_previous = dep.after_previous;
  if (dep.after_completion) {
    step.after_job = static_cast<int32_t>(dep.of.process);
    step.after_step = last_steps[dep.of.process][dep.of.io];
  }
  const bool waits = dep.after_previous || dep.after_completion;
  if (!o.no_stall) step.us = waits ? ScheduledUs(dep.think_ns, o) : ScheduledUs(io.time_ns, o);
  if (waits) ++job->dependent_ios;
  if (dep.after_completion) ++job->woken_ios;
  if (io.flags & kTracePreflush) {
    step.op = BlockTraceOp::kFlush;
    job->steps.push_back(step);
    step = ReplayStep{};
    step.after_previous = true;
  }
  step.op = io.op;
  step.offset = offset;
  step.bytes = io.sectors * kSectorBytes;
  job->steps.push_back(step);
}

// Process `index`'s job: its records, their I/Os (PlugMergedIos) and the I/Os' dependencies.
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
  std::string& log = job.iolog;
  log = "fio version 2 iolog\n" + device + " add\n" + device + " open\n";
  uint64_t last_wait_ms = 0;
  job.flush_only = std::all_of(ios.begin(), ios.end(),
                               [](const ReplayIo& io) { return io.op == BlockTraceOp::kFlush; });
  // fio 3.33 refuses a log with neither data nor waits (error 22, "failed initializing
  // iolog"), and --no-stall drops the waits as it reads them: a process that only flushed
  // keeps one wait and runs without replay_no_stall (ReplayJob::flush_only).
  if (o.no_stall && job.flush_only) AppendWait(device, kLeadInMs, &last_wait_ms, &log);
  for (size_t i = 0; i < ios.size(); ++i) {
    const ReplayIo& io = ios[i];
    const uint64_t at_us = o.no_stall ? 0 : ScheduledUs(io.time_ns, o);
    // Issued in the millisecond it was recorded in: fio's waits are whole milliseconds.
    if (!o.no_stall) AppendWait(device, kLeadInMs + at_us / 1000, &last_wait_ms, &log);
    const uint64_t len = io.sectors * kSectorBytes;
    const uint64_t offset = io.op == BlockTraceOp::kFlush
                                ? 0
                                : MappedOffset(m, io.sector, static_cast<uint32_t>(io.sectors));
    AppendSteps(io, deps[i], last_steps, offset, o, &job);
    if (io.flags & kTracePreflush) {
      log += device + " sync 0 0\n";
      ++job.added_syncs;
      scheduled->push_back({at_us, BlockTraceOp::kFlush, 0, 0, index, 0});
    }
    if (io.op == BlockTraceOp::kWrite && (io.flags & kTraceFua)) ++job.fua_writes;
    log += device + " " + IologAction(io.op) + " " + std::to_string(offset) + " " +
           std::to_string(len) + "\n";
    job.ops += io.records;
    ++job.ios;
    job.bytes += len;
    job.writes = job.writes || io.op == BlockTraceOp::kWrite || io.op == BlockTraceOp::kDiscard;
    scheduled->push_back({at_us, io.op, offset, len, index, io.records});
  }
  log += device + " close\n";
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

// ReplayJob::journal_log_steps of each job (ios and last_steps in the jobs' order): a journal
// is a process with a write carrying a preflush or FUA (its commits), not one that wrote a
// buffered writer's pages.
void MarkJournalLogSteps(const std::vector<std::vector<ReplayIo>>& ios,
                         const std::vector<std::vector<uint32_t>>& last_steps,
                         std::vector<ReplayJob>* jobs) {
  const auto is_commit = [](const ReplayIo& io) { return IsJournalCommit(io.op, io.flags); };
  for (size_t j = 0; j < ios.size(); ++j) {
    ReplayJob& job = (*jobs)[j];
    if (job.writer_writeback || std::none_of(ios[j].begin(), ios[j].end(), is_commit)) continue;
    for (size_t i = 0; i < ios[j].size(); ++i) {
      if (ios[j][i].op == BlockTraceOp::kWrite && !is_commit(ios[j][i])) {
        job.journal_log_steps.push_back(last_steps[j][i]);
      }
    }
  }
}

// ReplayJob::journal_wait_steps of each reader (ios and last_steps in the jobs' order) from the
// trace's journal handle starts, and with them every job's metadata_write_steps.
void MarkJournalWaits(const BlockTrace& trace,
                      const std::map<int32_t, std::vector<const BlockTraceRecord*>>& by_pid,
                      const std::vector<std::vector<ReplayIo>>& ios,
                      const std::vector<std::vector<uint32_t>>& last_steps,
                      std::vector<ReplayJob>* jobs) {
  std::map<int32_t, const std::vector<uint64_t>*> handles;
  for (const BlockTraceJournalHandles& h : trace.header.journal_handles) {
    handles[h.pid] = &h.times_ns;
  }
  bool any = false;
  for (size_t j = 0; j < ios.size(); ++j) {
    ReplayJob& job = (*jobs)[j];
    const auto it = handles.find(job.pid);
    const bool reads = std::any_of(ios[j].begin(), ios[j].end(),
                                   [](const ReplayIo& io) { return io.op == BlockTraceOp::kRead; });
    // A reader's: what was measured (its access-time updates); a writer's changes of metadata
    // are the writer's pause (journal_log_steps) or the flusher's own.
    if (it == handles.end() || by_pid.count(job.pid) == 0 || !reads || job.writer_writeback) {
      continue;
    }
    const std::vector<uint64_t>& times = *it->second;
    uint64_t previous = 0;
    for (size_t i = 0; i < ios[j].size(); ++i) {
      const uint64_t queued = ios[j][i].time_ns;
      const auto h = std::upper_bound(times.begin(), times.end(), previous);
      if (h != times.end() && *h <= queued) {
        job.journal_wait_steps.push_back(i == 0 ? 0 : last_steps[j][i - 1] + 1);
        any = true;
      }
      previous = queued;
    }
  }
  if (!any) return;
  for (size_t j = 0; j < ios.size(); ++j) {
    for (size_t i = 0; i < ios[j].size(); ++i) {
      if (ios[j][i].op == BlockTraceOp::kWrite && (ios[j][i].flags & kTraceMeta) != 0) {
        (*jobs)[j].metadata_write_steps.push_back(last_steps[j][i]);
      }
    }
  }
}

// When the trace's last read was queued, other than by the processes in `writeback` (the
// flushers of a buffered writer's pages: ReplayJob::writer_writeback); -1 without reads.
int64_t LastReadNs(const BlockTrace& trace, const std::set<int32_t>& writeback) {
  int64_t last = -1;
  for (const BlockTraceRecord& r : trace.records) {
    if (r.op == BlockTraceOp::kRead && writeback.count(r.pid) == 0) {
      last = static_cast<int64_t>(r.time_ns);
    }
  }
  return last;
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
  ReplayBufferedWriter w;
  w.start_us = o.no_stall ? 0 : ScheduledUs(d.first_ns, o);
  KernelSpan span;
  span.first_ns = d.first_ns;
  for (const BlockTraceRecord* r : owned) {
    const uint64_t offset = MappedOffset(m, r->sector, r->sectors);
    const uint64_t len = static_cast<uint64_t>(r->sectors) * kSectorBytes;
    if (!w.extents.empty() && w.extents.back().first + w.extents.back().second == offset) {
      w.extents.back().second += len;
    } else {
      w.extents.emplace_back(offset, len);
    }
    w.bytes += len;
    ++job.ops;
    span.Add(*r);
  }
  job.bytes = w.bytes;
  // Still dirtying when the last read was queued (or after: a writer killed beside the readers
  // goes on until its write returns from the kernel's wait): its demand outlasted the readers.
  // Done long before: it had finished its own work.
  const auto last_read = static_cast<uint64_t>(std::max<int64_t>(last_read_ns, 0));
  w.until_readers_end = last_read_ns >= 0 && d.last_ns + kReplayWriterOpenEndNs >= last_read;
  job.trace_span_seconds = span.Seconds() / o.speed;
  job.buffered = std::move(w);
  return job;
}

}  // namespace

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

double KernelSpanSeconds(const std::vector<BlockTraceRecord>& records) {
  KernelSpan span;
  for (const BlockTraceRecord& r : records) span.Add(r);
  return span.Seconds();
}

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
  const auto writers =
      o.buffered_writers ? HeldBackWriters(trace) : std::map<int32_t, const BlockTraceDirtier*>{};
  std::map<int32_t, std::vector<const BlockTraceRecord*>> by_pid, owned;
  std::set<int32_t> writeback;  // the processes that wrote a buffered writer's pages
  std::vector<int32_t> order;   // pids by first record
  for (const BlockTraceRecord& r : trace.records) {
    if (r.op == BlockTraceOp::kWrite && writers.count(r.owner) > 0) {
      owned[r.owner].push_back(&r);
      writeback.insert(r.pid);
      ++p.trace_ops;
      p.trace_bytes += static_cast<uint64_t>(r.sectors) * kSectorBytes;
      ++p.buffered_ops;
      p.buffered_bytes += static_cast<uint64_t>(r.sectors) * kSectorBytes;
      continue;
    }
    auto& list = by_pid[r.pid];
    if (list.empty()) order.push_back(r.pid);
    list.push_back(&r);
    ++p.trace_ops;
    p.trace_bytes += static_cast<uint64_t>(r.sectors) * kSectorBytes;
  }
  std::vector<std::vector<ReplayIo>> ios;  // per process, in `order`
  std::vector<std::vector<uint32_t>> last_steps;
  for (int32_t pid : order) {
    ios.push_back(PlugMergedIos(by_pid[pid]));
    last_steps.push_back(LastSteps(ios.back()));
  }
  const auto deps = InferDependencies(ios, kReplayWakeWindowNs);
  for (size_t j = 0; j < order.size(); ++j) {
    const int32_t pid = order[j];
    p.jobs.push_back(BuildJob(by_pid[pid], ios[j], deps[j], last_steps, device, p.mapping, o,
                              static_cast<uint32_t>(j), &p.scheduled));
    const double p50 = ReadMedianMs(by_pid[pid]);
    p.jobs.back().trace_read_p50_ms = p50 < 0 ? -1 : p50 / o.speed;
    KernelSpan span;
    for (const BlockTraceRecord* r : by_pid[pid]) span.Add(*r);
    p.jobs.back().trace_span_seconds = span.Seconds() / o.speed;
    p.jobs.back().writer_writeback = writeback.count(pid) > 0;
  }
  if (!writers.empty()) MarkJournalLogSteps(ios, last_steps, &p.jobs);
  MarkJournalWaits(trace, by_pid, ios, last_steps, &p.jobs);
  // Buffered writers last, so that the jobs' indexes the steps wait for stay as they are.
  const int64_t last_read_ns = LastReadNs(trace, writeback);
  for (const auto& [pid, dirtier] : writers) {
    p.jobs.push_back(BuildWriterJob(*dirtier, owned[pid], p.mapping, o, last_read_ns));
    // A writer with bios of its own as well (a reader too) keeps both jobs, apart by name.
    if (by_pid.count(pid) > 0) p.jobs.back().name += "_pagecache";
  }
  std::stable_sort(
      p.scheduled.begin(), p.scheduled.end(),
      [](const ReplayScheduled& a, const ReplayScheduled& b) { return a.time_us < b.time_us; });
  p.duration_seconds = static_cast<double>(trace.header.duration_ns) / 1e9 / o.speed;
  p.trace_span_seconds = KernelSpanSeconds(trace.records) / o.speed;
  *plan = std::move(p);
  return true;
}

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

}  // namespace elevbench
