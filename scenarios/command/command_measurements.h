#pragma once
// `run command` as measurements (harness/stats/measurement.h), one section named by the
// program ("tar -xf linux.tar"), so the verdict reads "tar -xf linux.tar elapsed_seconds: BFQ
// best, …": per repetition its wall time (the headline), user and system time, faults, the
// bytes its processes had the storage read and write, and the load's rate as the device saw it.

#include <string>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// The measurements of a command results document; err names a malformed record.
[[nodiscard]] bool CommandMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                                       std::string* err);

}  // namespace elevbench
