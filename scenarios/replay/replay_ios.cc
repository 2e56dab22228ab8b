#include "scenarios/replay/replay_ios.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace elevbench {
namespace {

constexpr uint64_t kIoSectorBytes = 512;

// The trace's completion of `r`, -1 without a recorded latency.
int64_t DoneNs(const BlockTraceRecord& r) {
  return r.latency_ns < 0 ? -1 : static_cast<int64_t>(r.time_ns) + r.latency_ns;
}

// Whether `r` continues `io` as the submitter's plug merged it (PlugMergedIos).
bool ContinuesIo(const ReplayIo& io, const BlockTraceRecord& r, uint64_t previous_ns) {
  return r.op == io.op && r.op != BlockTraceOp::kFlush && r.sector == io.sector + io.sectors &&
         r.time_ns - previous_ns < kReplayBurstGapNs && !(r.flags & (kTracePreflush | kTraceFua)) &&
         !(io.flags & kTraceFua) &&
         (io.sectors + r.sectors) * kIoSectorBytes <= kReplayPlugMergeBytes;
}

// A data-less flush without a recorded completion (the trace records none for flushes).
bool UnrecordedFlush(const ReplayIo& io) { return io.op == BlockTraceOp::kFlush && io.done_ns < 0; }

// The own-pipeline rule (InferDependencies): an I/O its process queued while earlier ones of
// its own were in flight, with no completion in the window before it (a reader's readahead two
// windows ahead, a flusher's next batch), waits for the latest completion of its own process
// before it, think = the gap; `own` is the process's completions in time order. Without one it
// keeps `dep` (its recorded time).
ReplayDependency OwnPipelineDependency(const std::vector<std::pair<uint64_t, uint32_t>>& own,
                                       size_t i, uint64_t queued, ReplayDependency dep) {
  auto it = std::upper_bound(own.begin(), own.end(), std::make_pair(queued, UINT32_MAX));
  if (it == own.begin()) return dep;
  const auto& [at, j] = *std::prev(it);
  if (j >= i) return dep;  // queued at the same instant it completed: not before it
  if (j + 1 == i) return {true, queued - at, false, {}};
  return {false, queued - at, true, {0, j}};
}

}  // namespace

std::vector<ReplayIo> PlugMergedIos(const std::vector<const BlockTraceRecord*>& records) {
  std::vector<ReplayIo> ios;
  uint64_t previous_ns = 0;
  for (const BlockTraceRecord* r : records) {
    if (!ios.empty() && ContinuesIo(ios.back(), *r, previous_ns)) {
      ReplayIo& io = ios.back();
      io.sectors += r->sectors;
      ++io.records;
      const int64_t done = DoneNs(*r);
      io.done_ns = io.done_ns < 0 || done < 0 ? -1 : std::max(io.done_ns, done);
    } else {
      ios.push_back({r->time_ns, DoneNs(*r), r->op, r->flags, r->sector, r->sectors, 1});
    }
    previous_ns = r->time_ns;
  }
  return ios;
}

ReplayDependency DependencyOf(const std::vector<ReplayIo>& ios, size_t i) {
  if (i == 0) return {};
  if (UnrecordedFlush(ios[i - 1])) return {true, 0, false, {}};
  if (ios[i - 1].done_ns < 0) return {};
  const auto done = static_cast<uint64_t>(ios[i - 1].done_ns);
  if (ios[i].time_ns < done) return {};
  return {true, ios[i].time_ns - done, false, {}};
}

std::vector<std::vector<ReplayDependency>> InferDependencies(
    const std::vector<std::vector<ReplayIo>>& processes, uint64_t window_ns) {
  // Every completion an I/O can wait for, in time order (ties: the later-queued I/O last).
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> done;  // done_ns, process, io
  for (size_t p = 0; p < processes.size(); ++p) {
    for (size_t i = 0; i < processes[p].size(); ++i) {
      const ReplayIo& io = processes[p][i];
      if (io.done_ns > 0 && static_cast<uint64_t>(io.done_ns) > io.time_ns) {
        done.emplace_back(io.done_ns, static_cast<uint32_t>(p), static_cast<uint32_t>(i));
      }
    }
  }
  std::sort(done.begin(), done.end());
  // Each process's own completions, in time order (for the own-pipeline rule below).
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>> own(processes.size());
  for (const auto& [at, q, j] : done) own[q].emplace_back(at, j);
  std::vector<std::vector<ReplayDependency>> deps(processes.size());
  for (size_t p = 0; p < processes.size(); ++p) {
    for (size_t i = 0; i < processes[p].size(); ++i) {
      const uint64_t queued = processes[p][i].time_ns;
      ReplayDependency dep = DependencyOf(processes[p], i);
      // Its process waited for its flush: nothing may go before that completes.
      if (i > 0 && UnrecordedFlush(processes[p][i - 1])) {
        deps[p].push_back(dep);
        continue;
      }
      // The latest completion at or before `queued`.
      auto it = std::upper_bound(done.begin(), done.end(),
                                 std::make_tuple(queued, UINT32_MAX, UINT32_MAX));
      if (it != done.begin()) {
        const auto& [at, q, j] = *std::prev(it);
        const bool predecessor = q == p && j + 1 == i;
        if (queued - at <= window_ns && !predecessor && !(q == p && j >= i)) {
          dep = {false, queued - at, true, {q, j}};
        } else if (queued - at <= window_ns && predecessor) {
          dep = {true, queued - at, false, {}};
        }
      }
      if (!dep.after_previous && !dep.after_completion) {
        dep = OwnPipelineDependency(own[p], i, queued, dep);
        if (dep.after_completion) dep.of.process = static_cast<uint32_t>(p);
      }
      deps[p].push_back(dep);
    }
  }
  return deps;
}

}  // namespace elevbench
