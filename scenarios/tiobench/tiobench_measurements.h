#pragma once
// tiobench's records as measurements (harness/stats/measurement.h): one per phase × threads ×
// table column, the section being the phase ("seq_read") and the row "threads=N".

#include <string>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// The measurements of a tiobench results document; err names a malformed record.
[[nodiscard]] bool TiobenchMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                        std::string* err);

}  // namespace elevbench
