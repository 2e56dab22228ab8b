#include "scenarios/replay/replay_lag.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <utility>

namespace elevbench {

ReplayLag MeasureReplayLag(const std::vector<ReplayScheduled>& scheduled,
                           const std::vector<BlockTraceRecord>& replayed) {
  // (op, offset) -> the scheduled ones there, in time order
  std::map<std::pair<BlockTraceOp, uint64_t>, std::deque<const ReplayScheduled*>> waiting;
  for (const ReplayScheduled& s : scheduled) waiting[{s.op, s.offset}].push_back(&s);
  ReplayLag lag;
  std::vector<double> late_ns;  // issued − scheduled, ns
  uint32_t jobs = 0;
  for (const ReplayScheduled& s : scheduled) jobs = std::max(jobs, s.job + 1);
  std::vector<double> first_ns(jobs, -1);
  std::vector<bool> seen(jobs, false);
  for (const BlockTraceRecord& r : replayed) {
    const uint64_t offset = r.op == BlockTraceOp::kFlush ? 0 : r.sector * 512;
    const auto it = waiting.find({r.op, offset});
    if (it == waiting.end() || it->second.empty()) {
      ++lag.unmatched;
      continue;
    }
    late_ns.push_back(static_cast<double>(r.time_ns) -
                      static_cast<double>(it->second.front()->time_us) * 1000.0);
    lag.matched_bytes += it->second.front()->bytes;
    lag.matched_records += it->second.front()->records;
    const uint32_t job = it->second.front()->job;
    lag.job_of_pid[r.pid] = job;
    if (!seen[job]) {
      seen[job] = true;
      first_ns[job] = late_ns.back();
    }
    it->second.pop_front();
  }
  lag.matched = late_ns.size();
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

}  // namespace elevbench
