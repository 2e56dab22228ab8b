#pragma once
// nickbench's records as measurements (harness/stats/measurement.h): per bench ("bench3"), the
// IO rate, the bench's own metric and the streams' fairness.

#include <string>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// The measurements of a nickbench results document; err names a malformed record.
[[nodiscard]] bool NickbenchMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                         std::string* err);

}  // namespace elevbench
