#pragma once
// `run fio`'s records as tidy measurements (harness/stats/measurement.h).

#include <string>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// Section: the job file; row "JOB read" / "JOB write" / "JOB trim" for each direction that
/// moved bytes: mb_s (headline, harmonic), iops (harmonic), p50_ms, p99_ms (headline),
/// p99_9_ms.
[[nodiscard]] bool FioJobsMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                       std::string* err);

}  // namespace elevbench
