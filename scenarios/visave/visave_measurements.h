#pragma once
// The vi-save probe as measurements (harness/stats/measurement.h), section "vi-save": per
// repetition the mean save time (headline), the slowest save, the median from the saves'
// histogram, and the writer's MB/s beside them.

#include <string>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// The measurements of a visave results document; err names a malformed record.
[[nodiscard]] bool VisaveMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                      std::string* err);

}  // namespace elevbench
