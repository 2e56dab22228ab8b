#include "harness/run/disk_calibration_command.h"

#include "harness/core/interrupt.h"

namespace elevbench {

bool CalibrateEmulatedDrive(const CalibrationJobConfig& config,
                            const std::function<void(const std::string&)>& report_error,
                            CalibrationResult* result, RunFailure* failure) {
  CalibrationJob job(config, report_error);
  std::string err;
  if (!job.Check(&err)) {
    report_error(err);
    *failure = RunFailure::kUsage;
    return false;
  }
  if (!job.OpenJournal(&err) || !job.MakeDisk(&err) || !job.Calibrate(result, &err)) {
    report_error(err);
    job.Restore();
    *failure = InterruptRequested() ? RunFailure::kInterrupted : RunFailure::kFailure;
    return false;
  }
  const bool restored = job.Restore();
  *failure = restored && result->AllClaimedWithin() ? RunFailure::kNone : RunFailure::kFailure;
  return true;
}

}  // namespace elevbench
