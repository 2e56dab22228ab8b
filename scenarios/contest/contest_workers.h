#pragma once
// The two contest loads that are neither fio streams nor stock commands
// (docs/legacy-suites.md §2.2): mem_load (references 110 % of RAM in a cache-miss pattern) and
// process_load (processes in a pipe ring passing chunks round). Each function is one iteration
// of its load; the CLI runs it as the hidden `elevbench internal mem-load` / `process-ring`, and
// the suite runs that command again and again as a repeated-command load
// (harness/engine/process_load.h), which counts the iterations and keeps their rusage.

#include <cstdint>
#include <string>

namespace elevbench {

/// What one mem_load iteration references: the command-line flags of `internal mem-load` bind to
/// these fields, so the flags and the function's parameters are one record.
struct MemLoad {
  /// Bytes of private anonymous memory to map (contest: 110 % of RAM).
  uint64_t bytes = 0;
  /// Passes over every page.
  uint32_t passes = 1;
};

/// mem_load's iteration: maps `load.bytes` of private anonymous memory and writes one byte of
/// every page `load.passes` times, visiting the pages in a stride order (a prime stride of 1031
/// or 1033 pages, coprime with the page count) so consecutive touches miss every cache and TLB,
/// as contest's "cache-miss pattern". With more than the free memory this swaps, or draws the
/// OOM killer when there is no swap (the suite counts such an iteration as failed).
/// *pages_touched counts the writes. False with err when the memory cannot be mapped, or on an
/// interrupt.
[[nodiscard]] bool RunMemLoadIteration(const MemLoad& load, uint64_t* pages_touched,
                                       std::string* err);

/// Bytes of one chunk passed round the process ring: one page.
inline constexpr uint32_t kProcessRingChunkBytes = 4096;

/// One process_load ring; the flags of `internal process-ring` bind to these fields.
struct ProcessRing {
  /// Processes in the ring, at least 2.
  uint32_t processes = 0;
  /// Chunks of kProcessRingChunkBytes circulating, at least 1.
  uint32_t chunks = 0;
  /// Chunk transfers between processes in total, at least `chunks`.
  uint64_t hops = 0;
};

/// True when `ring` can run (processes >= 2 and 1 <= chunks <= hops); otherwise false with err
/// saying so. The command checks it before running, to tell bad flags (exit 2) from a failure.
[[nodiscard]] bool CheckProcessRing(const ProcessRing& ring, std::string* err);

/// process_load's iteration: forks `ring.processes` children connected in a ring of pipes
/// (child i reads from pipe i and writes to pipe i+1 mod n), puts `ring.chunks` chunks of
/// kProcessRingChunkBytes into it, and lets them circulate until `ring.hops` chunk transfers
/// between processes have been made in total; then the children are stopped and reaped.
/// False with err when CheckProcessRing refuses the ring, a pipe or fork fails, a child dies
/// early, or on an interrupt; no child is left behind on any path.
[[nodiscard]] bool RunProcessRingIteration(const ProcessRing& ring, std::string* err);

}  // namespace elevbench
