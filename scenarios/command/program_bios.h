#pragma once
// The bios of `run command`'s program, as the kernel timed them: a private tracefs instance on
// the target disk (harness/trace/block_capture.h, as `run replay` keeps its per-process account)
// records block_bio_queue and block_rq_complete, and sched_process_fork, from which the
// program's processes and threads are known: the children of the thread that forked it and all
// their descendants. The load's fio and the kernel's flusher are not the program's.

#include <cstdint>
#include <set>
#include <string_view>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "harness/trace/block_trace_file.h"

namespace elevbench {

/// The tracefs events a command cell records.
std::vector<std::string> ProgramTraceEvents();

/// The pids (thread ids) of every task forked, directly or not, by `forking_tid` in the
/// sched_process_fork lines of a raw trace text ("comm=sh pid=12 child_comm=sh child_pid=13").
std::set<int32_t> DescendantsInTrace(std::string_view text, int32_t forking_tid);

/// The kernel's latency of the program's bios.
struct ProgramBios {
  uint64_t bios = 0;      ///< bios of the program's tasks (flushes included)
  uint64_t untimed = 0;   ///< of those, without a completion in the trace
  LatencyHistogram read;  ///< queue to the completion of the last sector, ns
  LatencyHistogram write;
};

/// The bios of `records` whose pid is in `pids`, timed.
ProgramBios ProgramBiosOf(const std::vector<BlockTraceRecord>& records,
                          const std::set<int32_t>& pids);

}  // namespace elevbench
