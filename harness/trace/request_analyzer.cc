// RequestAnalyzer: the matching of queue, insert, issue and completion events into requests and
// the accounting of each (request_analysis.h has the rules).

#include <algorithm>

#include "harness/trace/request_analysis.h"

namespace elevbench {
namespace {

constexpr uint64_t kQueuedBucketNs = 100'000'000;  // the series' resolution before thinning
constexpr size_t kQueuedSeriesPoints = 300;

int DirIndex(TraceOp op) { return op == TraceOp::kWrite ? 1 : 0; }

bool IsData(const TraceEvent& e) {
  return (e.op == TraceOp::kRead || e.op == TraceOp::kWrite) && e.sectors > 0;
}

}  // namespace

RequestAnalyzer::RequestAnalyzer(uint32_t dev_major, uint32_t dev_minor)
    : major_(dev_major), minor_(dev_minor) {}

void RequestAnalyzer::AddLine(std::string_view line) {
  TraceEvent e;
  std::string err;
  if (!ParseTraceLine(line, &e, &err)) {
    if (s_.record.parse_errors++ == 0) s_.record.first_parse_error = err;
    return;
  }
  Add(e);
}

void RequestAnalyzer::Add(const TraceEvent& e) {
  if (e.kind == TraceEventKind::kIgnored || e.kind == TraceEventKind::kWritebackDirty ||
      e.kind == TraceEventKind::kWritebackInodeStart ||
      e.kind == TraceEventKind::kWritebackInodeDone) {
    return;  // the page cache's events: the capture's (writeback_owners.h), not the elevator's
  }
  const bool device_event = e.kind != TraceEventKind::kMarker;
  if (device_event && (e.dev_major != major_ || e.dev_minor != minor_)) return;
  ++s_.record.events;
  if (!any_) first_ns_ = queued_since_ns_ = e.time_ns;
  any_ = true;
  last_ns_ = std::max(last_ns_, e.time_ns);
  switch (e.kind) {
    case TraceEventKind::kBioQueue:
      return OnBio(e);
    case TraceEventKind::kBioBackmerge:
    case TraceEventKind::kBioFrontmerge:
    case TraceEventKind::kRqMerge:
      if (IsData(e)) {
        for (DirectionTrace* d : Accounts(e.op, e.pid, phase_)) ++d->record.merges;
      }
      if (e.kind != TraceEventKind::kRqMerge) OnBio(e);
      return;
    case TraceEventKind::kRqInsert:
      return OnInsert(e);
    case TraceEventKind::kRqIssue:
      return OnIssue(e);
    case TraceEventKind::kRqRequeue:
      return OnRequeue(e);
    case TraceEventKind::kRqComplete:
      return OnComplete(e);
    case TraceEventKind::kMarker:
      return OnMarker(e);
    case TraceEventKind::kSchedulerEvent:
      ++s_.record.scheduler_events[e.name];
      return;
    case TraceEventKind::kSchedulerMessage:
      return OnMessage(e);
    default:
      return;
  }
}

void RequestAnalyzer::RememberComm(int32_t pid, const std::string& comm) {
  auto& named = s_.processes[pid];
  if (named.first.empty()) named.first = comm;
}

void RequestAnalyzer::OnBio(const TraceEvent& e) {
  if (!IsData(e)) return;
  Pending& bio = bios_[{DirIndex(e.op), e.sector}];
  bio = Pending{e.time_ns, e.pid, e.sectors};
  RememberComm(e.pid, e.comm.empty() ? e.task : e.comm);
}

bool RequestAnalyzer::TakeBios(int dir, uint64_t start, uint32_t sectors, Request* rq) {
  bool found = false;
  auto it = bios_.lower_bound({dir, start});
  while (it != bios_.end() && it->first.first == dir && it->first.second < start + sectors) {
    if (!found || it->second.q_ns < rq->q_ns) {
      rq->q_ns = it->second.q_ns;
      rq->pid = it->second.pid;
    }
    found = true;
    it = bios_.erase(it);
  }
  return found;
}

bool RequestAnalyzer::TakeInserted(int dir, uint64_t start, uint32_t sectors, Request* rq) {
  bool found = false;
  auto it = inserted_.lower_bound({dir, start});
  while (it != inserted_.end() && it->first.first == dir && it->first.second < start + sectors) {
    const Request& in = it->second;
    if (!found || in.q_ns < rq->q_ns) {
      rq->q_ns = in.q_ns;
      rq->pid = in.pid;
      rq->phase = in.phase;
    }
    rq->i_ns = found ? std::min(rq->i_ns, in.i_ns) : in.i_ns;
    found = true;
    it = inserted_.erase(it);
    Queued(-1, rq->d_ns);
  }
  return found;
}

void RequestAnalyzer::OnInsert(const TraceEvent& e) {
  if (!IsData(e)) return;
  Request rq;
  rq.i_ns = e.time_ns;
  rq.inserted = true;
  rq.phase = phase_;
  if (!TakeBios(DirIndex(e.op), e.sector, e.sectors, &rq)) {
    rq.q_ns = e.time_ns;  // its bios came before the trace (or a requeue): no queue time known
    rq.pid = e.pid;
    RememberComm(e.pid, e.comm.empty() ? e.task : e.comm);
  }
  rq.sectors = e.sectors;
  inserted_[{DirIndex(e.op), e.sector}] = rq;
  Queued(+1, e.time_ns);
}

void RequestAnalyzer::OnIssue(const TraceEvent& e) {
  if (e.flush && e.sectors == 0) {
    ++s_.record.flushes;
    return;
  }
  if (!IsData(e)) return;
  const int dir = DirIndex(e.op);
  Request rq;
  rq.d_ns = e.time_ns;
  rq.phase = phase_;
  if (TakeInserted(dir, e.sector, e.sectors, &rq)) {
    rq.inserted = true;
    Request bios;  // bios merged into it after the insert do not change its times
    TakeBios(dir, e.sector, e.sectors, &bios);
  } else if (TakeBios(dir, e.sector, e.sectors, &rq)) {
    rq.i_ns = e.time_ns;  // issued directly: no time in a scheduler
    for (DirectionTrace* d : Accounts(e.op, rq.pid, phase_)) ++d->record.direct_issues;
  } else {
    rq.q_ns = rq.i_ns = e.time_ns;
    rq.pid = e.pid;
    RememberComm(e.pid, e.comm.empty() ? e.task : e.comm);
    for (DirectionTrace* d : Accounts(e.op, rq.pid, phase_)) ++d->record.unmatched;
  }
  rq.sectors = e.sectors;
  Dispatch(e.op, rq, e.sector, e.sectors);
  issued_[{dir, e.sector}] = rq;
}

std::vector<DirectionTrace*> RequestAnalyzer::Accounts(TraceOp op, int32_t pid, size_t phase) {
  std::vector<DirectionTrace*> out = {&s_.all.Of(op), &s_.processes[pid].second.Of(op)};
  if (phase > 0 && phase <= s_.phases.size()) out.push_back(&s_.phases[phase - 1].second.Of(op));
  return out;
}

void RequestAnalyzer::CloseRun(TraceOp op) {
  Run& run = runs_[DirIndex(op)];
  if (run.length == 0) return;
  for (DirectionTrace* d : Accounts(op, run.pid, run.phase)) {
    ++d->record.dispatch_run_lengths[run.length];
  }
  run = Run();
}

void RequestAnalyzer::Dispatch(TraceOp op, const Request& rq, uint64_t sector, uint32_t sectors) {
  Run& run = runs_[DirIndex(op)];
  if (run.length > 0 && (run.pid != rq.pid || run.phase != phase_)) CloseRun(op);
  if (run.length == 0) run = Run{rq.pid, 0, phase_};
  ++run.length;
  const std::vector<DirectionTrace*> accounts = Accounts(op, rq.pid, phase_);
  for (DirectionTrace* d : accounts) ++d->record.dispatches;
  if (have_last_end_) {
    const uint64_t distance = sector > last_end_ ? sector - last_end_ : last_end_ - sector;
    for (DirectionTrace* d : accounts) {
      d->seek_distance.Record(distance);
      if (distance != 0) {
        ++d->seeks;
        d->seek_sectors_sum += static_cast<double>(distance);
      }
    }
  }
  have_last_end_ = true;
  last_end_ = sector + sectors;
}

void RequestAnalyzer::Complete(TraceOp op, const Request& rq, uint64_t c_ns) {
  for (DirectionTrace* d : Accounts(op, rq.pid, rq.phase)) {
    ++d->record.requests;
    d->record.bytes += (uint64_t{rq.sectors} + rq.done_sectors) * 512;
    d->q2c.Record(c_ns - std::min(c_ns, rq.q_ns));
    d->i2d.Record(rq.d_ns - std::min(rq.d_ns, rq.i_ns));
    d->d2c.Record(c_ns - std::min(c_ns, rq.d_ns));
  }
}

void RequestAnalyzer::OnComplete(const TraceEvent& e) {
  if (!IsData(e)) return;
  const int dir = DirIndex(e.op);
  // The issued request holding the completed sector: the last one starting at or before it.
  auto it = issued_.upper_bound({dir, e.sector});
  if (it == issued_.begin() || std::prev(it)->first.first != dir) return;
  --it;
  const uint64_t start = it->first.second;
  Request rq = it->second;
  if (e.sector >= start + rq.sectors) return;  // a request the trace never saw issued
  issued_.erase(it);
  const uint64_t done_end = e.sector + e.sectors;
  if (done_end < start + rq.sectors) {  // partial: the rest stays outstanding, one request
    Request rest = rq;
    rest.sectors = static_cast<uint32_t>(start + rq.sectors - done_end);
    rest.done_sectors += static_cast<uint32_t>(done_end - start);
    issued_[{dir, done_end}] = rest;
    return;
  }
  Complete(e.op, rq, e.time_ns);
}

void RequestAnalyzer::OnRequeue(const TraceEvent& e) {
  if (!IsData(e)) return;
  const int dir = DirIndex(e.op);
  auto it = issued_.find({dir, e.sector});
  if (it == issued_.end()) return;
  Request rq = it->second;
  issued_.erase(it);
  for (DirectionTrace* d : Accounts(e.op, rq.pid, rq.phase)) ++d->record.requeues;
  rq.inserted = true;
  inserted_[{dir, e.sector}] = rq;  // keeps its first insert time: I2D includes the requeue
  Queued(+1, e.time_ns);
}

void RequestAnalyzer::OnMarker(const TraceEvent& e) {
  if (e.text.rfind(kPhaseMarkerPrefix, 0) != 0) return;
  const std::string name = e.text.substr(kPhaseMarkerPrefix.size());
  for (TraceOp op : {TraceOp::kRead, TraceOp::kWrite}) CloseRun(op);
  auto found = std::find_if(s_.phases.begin(), s_.phases.end(),
                            [&](const auto& p) { return p.first == name; });
  if (found == s_.phases.end()) {
    s_.phases.emplace_back(name, DirectionPair());
    found = s_.phases.end() - 1;
  }
  phase_ = static_cast<size_t>(found - s_.phases.begin()) + 1;
}

void RequestAnalyzer::OnMessage(const TraceEvent& e) {
  std::string queue;
  const std::string kind = SchedulerMessageKind(e.text, &queue);
  if (kind == "set_in_service_queue" && !queue.empty()) in_service_ = queue;
  if (queue.empty() && kind == "idle_armed") queue = in_service_;
  ++s_.record.scheduler_messages[kind];
  if (!any_message_) first_message_ns_ = e.time_ns;
  any_message_ = true;
  const bool decisive = kind == "queue_merge" || kind == "merge_scheduled" ||
                        kind == "queue_split" || kind == "idle_armed";
  if (decisive && s_.record.scheduler_first_s.count(kind) == 0) {
    s_.record.scheduler_first_s[kind] =
        static_cast<double>(e.time_ns - std::min(e.time_ns, first_message_ns_)) / 1e9;
  }
  if (!queue.empty()) ++s_.record.scheduler_queues[queue][kind];
}

void RequestAnalyzer::Queued(int64_t delta, uint64_t t_ns) {
  t_ns = std::max(t_ns, queued_since_ns_);
  queued_area_ += static_cast<double>(queued_) * static_cast<double>(t_ns - queued_since_ns_);
  queued_since_ns_ = t_ns;
  if (delta < 0 && queued_ == 0) return;
  queued_ = delta < 0 ? queued_ - 1 : queued_ + 1;
  queued_max_ = std::max(queued_max_, queued_);
  uint64_t& bucket = queued_buckets_[(t_ns - first_ns_) / kQueuedBucketNs];
  bucket = std::max(bucket, queued_);
}

RequestTraceSummary RequestAnalyzer::Finish() {
  for (TraceOp op : {TraceOp::kRead, TraceOp::kWrite}) CloseRun(op);
  Queued(0, last_ns_);
  s_.record.duration_s = any_ ? static_cast<double>(last_ns_ - first_ns_) / 1e9 : 0;
  TraceQueued& queued = s_.record.queued.emplace();
  queued.mean = last_ns_ > first_ns_ ? queued_area_ / static_cast<double>(last_ns_ - first_ns_) : 0;
  queued.max = queued_max_;
  // Thin the 100 ms maxima to at most kQueuedSeriesPoints points, keeping each group's maximum.
  const uint64_t buckets = any_ ? (last_ns_ - first_ns_) / kQueuedBucketNs + 1 : 0;
  const uint64_t group =
      std::max<uint64_t>(1, (buckets + kQueuedSeriesPoints - 1) / kQueuedSeriesPoints);
  std::map<uint64_t, uint64_t> thinned;
  for (const auto& [b, n] : queued_buckets_) {
    uint64_t& v = thinned[b / group];
    v = std::max(v, n);
  }
  for (const auto& [g, n] : thinned) {
    queued.series.emplace_back(static_cast<double>(g * group * kQueuedBucketNs) / 1e9, n);
  }
  // Processes that never had a request (a bio queued at the trace's end) are left out.
  for (auto it = s_.processes.begin(); it != s_.processes.end();) {
    const TraceDirection& r = it->second.second.read.record;
    const TraceDirection& w = it->second.second.write.record;
    const bool idle = r.requests + w.requests + r.dispatches + w.dispatches == 0;
    it = idle ? s_.processes.erase(it) : std::next(it);
  }
  return std::move(s_);
}

}  // namespace elevbench
