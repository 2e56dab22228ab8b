#pragma once
// The OraSim stand-in's records as tidy measurements (harness/stats/measurement.h).

#include <string>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// Per run: score_ops_s (headline, higher is better, harmonic mean), read_ops_s, write_ops_s,
/// log_ops_s and cpu_seconds; section "oltp", row "run=N".
[[nodiscard]] bool OrasimMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                      std::string* err);

}  // namespace elevbench
