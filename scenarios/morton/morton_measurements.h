#pragma once
// Andrew Morton's tests as measurements (harness/stats/measurement.h), one section per test
// ("test1" .. "test9"). Single-command tests: the command's elapsed (headline), user and system
// time, and the load's MB/s beside it. #1 and #5 (commands started together): the slowest and
// the fastest command's elapsed time (the slowest is the headline: when the last reader is done)
// and their ratio, the spread (1 = fair); #1 also the aggregate MB/s (all bytes / slowest).
// A time that a DNF or a failure cut short is a measurement without a number.

#include <string>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// The measurements of a morton results document; err names a malformed record.
[[nodiscard]] bool MortonMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                      std::string* err);

}  // namespace elevbench
