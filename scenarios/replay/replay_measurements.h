#pragma once
// The replay's records as tidy measurements (harness/stats/measurement.h).

#include <string>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// Section "replay" (one row): read and write completion latency p50/p99/p99.9 in ms (p99s are
/// headlines) where the trace has reads or writes, replay_seconds (headline), mb_s, and the
/// lag's p99. Section "process", one row per traced process ("p4242_tar"): its read and write
/// p99 in ms.
[[nodiscard]] bool ReplayMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                      std::string* err);

}  // namespace elevbench
