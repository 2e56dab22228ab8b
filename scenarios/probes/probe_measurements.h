#pragma once
// The cat / ls -lR probes' records as measurements (harness/stats/measurement.h): per probe
// ("cat-during-write"), the probe's times and the load's throughput beside it. A probe that did
// not finish or failed is a measurement without a number (status "dnf" or "failed").

#include <string>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// The measurements of a probes results document; err names a malformed record.
[[nodiscard]] bool ProbeMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                     std::string* err);

}  // namespace elevbench
