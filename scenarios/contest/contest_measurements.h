#pragma once
// contest's records as measurements (harness/stats/measurement.h): per load (the section), the
// compile's Time (the headline, lower is better), CPU%, Ratio against no_load (lower is
// better), and for loads that run something their Loads (higher is better) and LCPU%. A
// compile that did not finish or failed is a measurement without a number ("dnf", "failed").

#include <string>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// The measurements of a contest results document; err names a malformed record. A
/// repetition's ratio is its Time over the same configuration's no_load Time of the same
/// repetition, or over the mean of its finished no_load runs when that one did not finish; no
/// ratio without a finished no_load. (The table's Ratio is the ratio of the means instead.)
[[nodiscard]] bool ContestMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                       std::string* err);

}  // namespace elevbench
