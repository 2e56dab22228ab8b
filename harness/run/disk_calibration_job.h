#pragma once
// `elevbench disk calibrate PROFILE[:SIZE]` as a library object: the emulated drive built raw
// (no filesystem) under the journal, scheduler none, fio's checks run on its loop device
// (disk_calibration.h), the rows against the real drive's figures, everything undone at the end.

#include <functional>
#include <string>
#include <vector>

#include "harness/run/disk_calibration.h"
#include "harness/run/journaled_target_job.h"

namespace elevbench {

/// The command's flags.
struct CalibrationJobConfig {
  /// PROFILE[:SIZE]; without a size the disk is 4 GiB. Unless --disk-set gives capacity_bytes,
  /// the image is the model's whole stroke, as the published random-I/O figures are over the
  /// whole drive.
  std::string emulated;
  std::vector<std::string> disk_set;  ///< key=value model overrides
  double runtime_seconds = 10;        ///< each check's fio runtime
};

/// One calibration. Call the steps in order: Check, OpenJournal, MakeDisk, Calibrate, Restore
/// (OpenJournal and Restore are JournaledTargetJob's); after one returns false, call no more
/// (destroying the job undoes what was made). Not copyable.
class CalibrationJob : public JournaledTargetJob {
 public:
  /// Journal entries that cannot be undone are said through `report_error`, one line each.
  CalibrationJob(CalibrationJobConfig config,
                 std::function<void(const std::string& line)> report_error);

  /// Every usage error before anything is made: the profile and its overrides, the size, the
  /// runtime, fio present, root. False: a usage error (err is one line).
  [[nodiscard]] bool Check(std::string* err);
  /// The emulated drive without a filesystem, its scheduler none (journaled).
  [[nodiscard]] bool MakeDisk(std::string* err);
  /// fio's checks on the drive and the rows against the profile's published figures.
  [[nodiscard]] bool Calibrate(CalibrationResult* result, std::string* err);
  /// Removes the folder of fio's job files and outputs.
  ~CalibrationJob();

 private:
  CalibrationJobConfig config_;
  std::string fio_dir_;  // fio's files, under /var/tmp, removed by the destructor
};

}  // namespace elevbench
