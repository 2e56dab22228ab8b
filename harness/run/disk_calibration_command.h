#pragma once
// `elevbench disk calibrate` from its flags to its end (app/cli/cmd_disk.cc parses the flags
// and prints the result): a CalibrationJob's steps in their order (disk_calibration_job.h), the
// journal undone at the end whatever happened, and how the command ended as a RunFailure, the
// kind the CLI turns into its exit code.

#include <functional>
#include <string>

#include "harness/run/disk_calibration.h"
#include "harness/run/disk_calibration_job.h"
#include "harness/run/run_failure.h"

namespace elevbench {

/// Calibrates the emulated drive `config` names. True when it was measured: *result holds the
/// rows (the CLI prints them), and the return kind is kNone only when the journal was undone
/// and every figure the profile claims is within (else kFailure). False when it was not: the
/// step's one-line error said through `report_error`, before what undoing the journal says
/// there, and the kind kUsage (Check refused; nothing was made), kInterrupted or kFailure.
[[nodiscard]] bool CalibrateEmulatedDrive(
    const CalibrationJobConfig& config, const std::function<void(const std::string&)>& report_error,
    CalibrationResult* result, RunFailure* failure);

}  // namespace elevbench
