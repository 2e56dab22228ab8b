#pragma once
// How close a replay came to the capture it replays (docs/replay.md §3 and §4): the replays under
// the capture's own scheduler, set against the capture in the kernel's view of both — the span from
// the first bio queued to the last completed, and each process's median read latency. The
// suite's aggregation; the reporter prints it and the summary carries it.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scenarios/replay/replay_records.h"

namespace elevbench {

/// One process's median read latency, replayed against traced.
struct ReplayReadFidelity {
  std::string process;  ///< "p<pid>_<comm>", the fio job's name
  double traced_ms = 0;
  double replayed_ms = 0;  ///< the median of its reads over every cell under the scheduler
  double ratio = 0;        ///< replayed / traced
};

/// The fidelity of the replays under the capture's scheduler.
struct ReplayFidelity {
  std::string scheduler;  ///< the capture's scheduler ("none")
  /// Why there is no figure (one line), empty when measured: the scheduler was not among the
  /// configurations, the replays' bios were not traced, or the capture has no timed bios.
  std::string problem;
  size_t cells = 0;                       ///< replays under that scheduler, traced
  double trace_span_seconds = 0;          ///< the capture's span (after --speed)
  double replay_span_seconds = 0;         ///< the median of those cells' spans
  double span_ratio = 0;                  ///< replay_span_seconds / trace_span_seconds
  std::vector<ReplayReadFidelity> reads;  ///< processes that read in the trace and the replay
};

/// The fidelity of `records` (one per cell) replaying a capture made under `capture_scheduler`.
ReplayFidelity FidelityOf(const std::vector<ReplayRecord>& records,
                          const std::string& capture_scheduler);

/// Its JSON for the summary: the figures, or {"scheduler", "problem"}.
nlohmann::json FidelityToJson(const ReplayFidelity& fidelity);

/// The report's line: "Fidelity under none (the capture's scheduler): the replay took 1.04×
/// the traced span (0.506 s against 0.487 s, median of 4 cells); reads p50: p12_tar 1.10×
/// (6.17 ms against 5.61 ms)", or "Fidelity under none: not measured: <problem>".
std::string FidelityLine(const ReplayFidelity& fidelity);

}  // namespace elevbench
