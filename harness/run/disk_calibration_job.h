#pragma once
// `elevbench disk calibrate PROFILE[:SIZE]` as a library object: the emulated drive built raw
// (no filesystem) under the journal, scheduler none, fio's checks run on its loop device
// (disk_calibration.h), the rows against the real drive's figures, everything undone at the end.

#include <functional>
#include <string>
#include <vector>

#include "harness/core/progress.h"
#include "harness/device/restore_journal.h"
#include "harness/run/disk_calibration.h"
#include "harness/run/run_journal.h"
#include "harness/run/target.h"

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

/// One calibration. Call the steps in the order they are declared; after one returns false,
/// call no more (destroying the job undoes what was made). Not copyable.
class CalibrationJob {
 public:
  /// Journal entries that cannot be undone are said through `report_error`, one line each.
  CalibrationJob(CalibrationJobConfig config,
                 std::function<void(const std::string& line)> report_error);
  CalibrationJob(const CalibrationJob&) = delete;
  CalibrationJob& operator=(const CalibrationJob&) = delete;

  /// Every usage error before anything is made: the profile and its overrides, the size, the
  /// runtime, fio present, root. False: a usage error (err is one line).
  [[nodiscard]] bool Check(std::string* err);
  /// The interrupt handlers, an earlier run's leftovers undone, the journal's lock.
  [[nodiscard]] bool OpenJournal(std::string* err);
  /// The emulated drive without a filesystem, its scheduler none (journaled).
  [[nodiscard]] bool MakeDisk(std::string* err);
  /// fio's checks on the drive and the rows against the profile's published figures.
  [[nodiscard]] bool Calibrate(CalibrationResult* result, std::string* err);
  /// Undoes the journal now; false when some entry could not be undone.
  bool Restore();
  /// Removes the folder of fio's job files and outputs.
  ~CalibrationJob();

 private:
  CalibrationJobConfig config_;
  std::function<void(const std::string& line)> report_error_;
  TargetOptions target_options_;
  Progress progress_;
  RestoreJournal journal_;
  JournalGuard guard_{&journal_, report_error_};
  RunTarget target_;
  std::string fio_dir_;  // fio's files, under /var/tmp, removed by the destructor
};

}  // namespace elevbench
