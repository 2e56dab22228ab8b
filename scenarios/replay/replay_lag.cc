#include "scenarios/replay/replay_lag.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <map>
#include <set>
#include <string_view>
#include <utility>

namespace elevbench {

namespace {

using OpOffset = std::pair<BlockTraceOp, uint64_t>;

uint64_t OffsetOf(const BlockTraceRecord& r) {
  return r.op == BlockTraceOp::kFlush ? 0 : r.sector * 512;
}

// The task a bio's submitter works for: io_uring's workers are named "iou-wrk-<pid>" after the
// thread whose ring they serve, and one ring (one job of the dependent replayer) issues through
// more than one of them: its flushes went through another worker than its writes (sqlite's
// sample, 4 December 2026: 43 flushes from workers that issued nothing else, all unmatched).
int32_t OwnerOf(const BlockTraceRecord& r) {
  static constexpr std::string_view kWorker = "iou-wrk-";
  if (r.comm.rfind(kWorker, 0) != 0) return r.pid;
  int32_t owner = 0;
  const char* begin = r.comm.data() + kWorker.size();
  const char* end = r.comm.data() + r.comm.size();
  const auto [ptr, ec] = std::from_chars(begin, end, owner);
  return ec == std::errc() && ptr == end && owner > 0 ? owner : r.pid;
}

// Which job each replaying pid is: the job with most scheduled I/Os at the (op, offset) of the
// bios of the task the pid works for (OwnerOf). fio forks one process per job, so a pid is one
// job; the dependent replayer's ring is one job whatever worker issued a bio. Matching inside
// that job only keeps one job's rewrite of a block from being paired with another job's.
// Between jobs with as many votes, the one whose own I/Os the votes cover most: a task that
// issued one flush is the job that is one flush (the capture's own `syncfs`), not the journal
// thread that also flushed among its writes (every cell of docs/replay-measurements.md's captures
// missed that one flush before).
std::map<int32_t, uint32_t> JobsOfPids(const std::vector<ReplayScheduled>& scheduled,
                                       const std::vector<BlockTraceRecord>& replayed) {
  std::map<OpOffset, std::set<uint32_t>> jobs_at;
  std::map<uint32_t, uint64_t> ios_of_job;
  for (const ReplayScheduled& s : scheduled) {
    jobs_at[{s.op, s.offset}].insert(s.job);
    ++ios_of_job[s.job];
  }
  std::map<int32_t, std::map<uint32_t, uint64_t>> votes;  // by owner
  std::map<int32_t, int32_t> owner_of_pid;
  for (const BlockTraceRecord& r : replayed) {
    owner_of_pid[r.pid] = OwnerOf(r);
    const auto it = jobs_at.find({r.op, OffsetOf(r)});
    if (it == jobs_at.end()) continue;
    for (uint32_t job : it->second) ++votes[OwnerOf(r)][job];
  }
  std::map<int32_t, uint32_t> out;
  for (const auto& [pid, owner] : owner_of_pid) {
    const auto by_job = votes.find(owner);
    if (by_job == votes.end()) continue;
    // a before b when a has fewer votes, or as many over more I/Os of its own (a smaller share)
    const auto fewer = [&](const auto& a, const auto& b) {
      if (a.second != b.second) return a.second < b.second;
      return ios_of_job[a.first] > ios_of_job[b.first];
    };
    out[pid] = std::max_element(by_job->second.begin(), by_job->second.end(), fewer)->first;
  }
  return out;
}

// The bytes of each matched I/O that the kernel saw bios for: the bio that matched it and the
// bios of its job that start inside its planned extent after it (the pieces the kernel cut it
// into; a bio split after it was traced is traced again as its remainder), their union clipped
// to the planned extent, so that no byte counts twice and a short I/O counts what it was.
class SeenBytes {
 public:
  void Matched(uint32_t job, const BlockTraceRecord& r, uint64_t planned_bytes) {
    const uint64_t start = OffsetOf(r);
    pieces_.push_back({start + planned_bytes, {}});
    latest_[{job, r.op}][start] = pieces_.size() - 1;
    Add(&pieces_.back(), start, r);
  }

  void Unmatched(uint32_t job, const BlockTraceRecord& r) {
    const auto by_start = latest_.find({job, r.op});
    if (by_start == latest_.end()) return;
    const uint64_t start = OffsetOf(r);
    auto it = by_start->second.upper_bound(start);
    if (it == by_start->second.begin()) return;
    --it;
    Add(&pieces_[it->second], start, r);
  }

  uint64_t Total() {
    uint64_t total = 0;
    for (Piece& p : pieces_) {
      std::sort(p.seen.begin(), p.seen.end());
      uint64_t reached = 0;
      for (const auto& [from, to] : p.seen) {
        const uint64_t begin = std::max(from, reached);
        if (to > begin) total += to - begin;
        reached = std::max(reached, to);
      }
    }
    return total;
  }

 private:
  struct Piece {
    uint64_t end = 0;  // the planned extent's end, bytes
    std::vector<std::pair<uint64_t, uint64_t>> seen;
  };
  static void Add(Piece* p, uint64_t start, const BlockTraceRecord& r) {
    const uint64_t end = std::min(p->end, start + uint64_t{r.sectors} * 512);
    if (end > start) p->seen.emplace_back(start, end);
  }
  std::vector<Piece> pieces_;
  std::map<std::pair<uint32_t, BlockTraceOp>, std::map<uint64_t, size_t>> latest_;
};

}  // namespace

ReplayLag MeasureReplayLag(const std::vector<ReplayScheduled>& scheduled,
                           const std::vector<BlockTraceRecord>& replayed) {
  // (job, op, offset) -> the scheduled ones there, in time order
  std::map<std::pair<uint32_t, OpOffset>, std::deque<const ReplayScheduled*>> waiting;
  for (const ReplayScheduled& s : scheduled) waiting[{s.job, {s.op, s.offset}}].push_back(&s);
  ReplayLag lag;
  lag.job_of_pid = JobsOfPids(scheduled, replayed);
  std::vector<double> late_ns;  // issued − scheduled, ns
  uint32_t jobs = 0;
  for (const ReplayScheduled& s : scheduled) jobs = std::max(jobs, s.job + 1);
  std::vector<double> first_ns(jobs, -1);
  std::vector<bool> seen(jobs, false);
  SeenBytes seen_bytes;
  for (const BlockTraceRecord& r : replayed) {
    const auto job_of = lag.job_of_pid.find(r.pid);
    const auto it = job_of == lag.job_of_pid.end()
                        ? waiting.end()
                        : waiting.find({job_of->second, {r.op, OffsetOf(r)}});
    if (it == waiting.end() || it->second.empty()) {
      ++lag.unmatched;
      if (job_of != lag.job_of_pid.end()) seen_bytes.Unmatched(job_of->second, r);
      continue;
    }
    late_ns.push_back(static_cast<double>(r.time_ns) -
                      static_cast<double>(it->second.front()->time_us) * 1000.0);
    seen_bytes.Matched(job_of->second, r, it->second.front()->bytes);
    lag.matched_records += it->second.front()->records;
    const uint32_t job = it->second.front()->job;
    if (!seen[job]) {
      seen[job] = true;
      first_ns[job] = late_ns.back();
    }
    it->second.pop_front();
  }
  lag.matched = late_ns.size();
  lag.matched_bytes = seen_bytes.Total();
  for (const auto& [key, left] : waiting) {
    for (const ReplayScheduled* s : left)
      lag.missed_records[static_cast<size_t>(s->op)] += s->records;
  }
  lag.first_ms.assign(jobs, -1);
  if (late_ns.empty()) return lag;
  const double reference = *std::min_element(late_ns.begin(), late_ns.end());
  for (uint32_t j = 0; j < jobs; ++j) {
    if (seen[j]) lag.first_ms[j] = (first_ns[j] - reference) / 1e6;
  }
  double sum = 0;
  for (double& v : late_ns) {
    v = (v - reference) / 1e6;
    sum += v;
  }
  std::sort(late_ns.begin(), late_ns.end());
  lag.mean_ms = sum / static_cast<double>(late_ns.size());
  const size_t p99 = static_cast<size_t>(std::ceil(0.99 * static_cast<double>(late_ns.size()))) - 1;
  lag.p99_ms = late_ns[std::min(p99, late_ns.size() - 1)];
  lag.max_ms = late_ns.back();
  return lag;
}

namespace {

// The writer of a writeback bio at `offset`: whose extents hold it, else the only writer; -1.
int32_t WriterOf(const ReplayPlan& plan, const std::vector<int32_t>& writers, uint64_t offset) {
  for (int32_t j : writers) {
    for (const auto& [start, bytes] : plan.jobs[static_cast<size_t>(j)].buffered->extents) {
      if (offset >= start && offset - start < bytes) return j;
    }
  }
  return writers.size() == 1 ? writers.front() : -1;
}

}  // namespace

ReplayBiosByQueuer SplitReplayBios(const ReplayPlan& plan,
                                   const std::vector<BlockTraceRecord>& replayed) {
  ReplayBiosByQueuer out;
  std::vector<int32_t> writers;
  std::vector<std::string> thread_names;
  for (size_t j = 0; j < plan.jobs.size(); ++j) {
    if (!plan.jobs[j].buffered) continue;
    writers.push_back(static_cast<int32_t>(j));
    thread_names.push_back(plan.jobs[j].name.substr(0, 15));
  }
  for (const BlockTraceRecord& r : replayed) {
    const bool writeback =
        !writers.empty() && r.op == BlockTraceOp::kWrite &&
        (r.comm.rfind("kworker/", 0) == 0 ||
         std::find(thread_names.begin(), thread_names.end(), r.comm) != thread_names.end());
    if (!writeback) {
      out.replayer.push_back(r);
      continue;
    }
    out.writeback.push_back(r);
    out.writer_job.push_back(WriterOf(plan, writers, r.sector * 512));
  }
  return out;
}

}  // namespace elevbench
