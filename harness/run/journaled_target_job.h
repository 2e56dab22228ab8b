#pragma once
// What `elevbench capture` and `elevbench disk calibrate` share as library objects
// (capture_job.h, disk_calibration_job.h): a target elevbench makes under the restore journal,
// the journal taken before anything is changed and undone on every exit path, and the progress
// they say meanwhile. Each job derives from it and adds its own steps.

#include <functional>
#include <string>

#include "harness/core/progress.h"
#include "harness/device/restore_journal.h"
#include "harness/run/run_journal.h"
#include "harness/run/target.h"

namespace elevbench {

/// The journal and the target of a job that makes its own disk (a base class: the job's steps
/// are its own, OpenJournal and Restore these). Members are destroyed in reverse: the target
/// goes before the guard restores the journal. Not copyable.
class JournaledTargetJob {
 public:
  JournaledTargetJob(const JournaledTargetJob&) = delete;
  JournaledTargetJob& operator=(const JournaledTargetJob&) = delete;

  /// The interrupt handlers, what an earlier run left undone, then the journal's lock, taken as
  /// "elevbench <command> (pid N)". False: the journal cannot be had.
  [[nodiscard]] bool OpenJournal(std::string* err);
  /// Undoes the journal now (the destructor would too); false when some entry could not be
  /// undone (said through report_error).
  bool Restore();

 protected:
  /// `command` is the job's command line verb, as the journal's lock names its owner
  /// ("capture"). Entries of the journal that cannot be undone are said through
  /// `report_error`, one line each (also from the destructor).
  JournaledTargetJob(std::string command,
                     std::function<void(const std::string& line)> report_error);
  /// Not virtual: a job is never deleted through its base.
  ~JournaledTargetJob() = default;

  /// The target to make, as the job's Check fills it in.
  TargetOptions& target_options() { return target_options_; }
  /// The target, once made (RunTarget::Create under journal()).
  RunTarget& target() { return target_; }
  /// The journal every change is entered in before it is made.
  RestoreJournal* journal() { return &journal_; }
  /// Where the job's steps say what they do (stderr).
  Progress* progress() { return &progress_; }

 private:
  std::string command_;
  std::function<void(const std::string& line)> report_error_;
  TargetOptions target_options_;
  Progress progress_;
  RestoreJournal journal_;
  JournalGuard guard_{&journal_, report_error_};
  RunTarget target_;
};

}  // namespace elevbench
