#pragma once
// `elevbench capture` as a library object beside the run's (run_job.h): the command line's
// words checked before anything is made, the journal, the target elevbench makes for the
// workload (--emulated, --scratch) unless the user names a disk of theirs (--device, traced
// read-only), the capture itself (capture_run.h's RunCapture), and the restore. The CLI
// (app/cli/cmd_capture.cc) fills a CaptureJobConfig from its flags, calls the steps in
// order, turns a step's failure into its exit code and prints. docs/replay.md.

#include <functional>
#include <string>
#include <vector>

#include "harness/run/capture_run.h"
#include "harness/run/journaled_target_job.h"
#include "harness/run/run_failure.h"
#include "harness/run/target_spec.h"

namespace elevbench {

/// What `elevbench capture` is asked to do, as the command line's words (CaptureJob::Check
/// parses them, so that every error names its flag). Exactly one of the target's device,
/// emulated and scratch names the traced disk.
struct CaptureJobConfig {
  /// --device (a disk of the user's, traced read-only: nothing is switched or written),
  /// --emulated, --scratch and --fs, the target flags `run` shares (target_spec.h).
  TargetSpec target;
  double duration = 0;               ///< --duration SECONDS: with `target.device` and no command
  std::string out;                   ///< the trace file
  std::vector<std::string> command;  ///< the workload (after `--`), run in the target's root
  std::string setup;      ///< --setup: run before the trace starts (CaptureConfig::setup)
  bool fs_given = false;  ///< the command line gave --fs (`target.fs` has a default)
};

/// "device sdb", "emulated ide-2003, ext4: tar -xf src.tar": the trace header's source.
std::string CaptureSourceOf(const CaptureJobConfig& config);

/// The notes a finished capture gives, in order (the command's failure with its stderr's last
/// line; how many bios from how many processes went into which file) and whether it succeeded:
/// the command exited 0 and tracefs lost no event.
bool DescribeCaptureOutcome(const CaptureJobConfig& config, const CaptureOutcome& outcome,
                            std::vector<std::string>* notes);

/// One capture. Call the steps in order: Check, OpenJournal, MakeTarget, Capture, Restore
/// (OpenJournal and Restore are JournaledTargetJob's); after a step returns false, call no more
/// of them (destroying the job undoes what was made). Not copyable.
class CaptureJob : public JournaledTargetJob {
 public:
  /// Entries of the journal that cannot be undone are said through `report_error`, one line
  /// each (also from the destructor).
  CaptureJob(CaptureJobConfig config, std::function<void(const std::string& line)> report_error);

  /// Every usage error, before anything is made: one traced disk, a workload, a command that
  /// exists, --setup only on a target elevbench makes, a writable --out off the traced disk,
  /// the filesystem, root. False: a usage error.
  [[nodiscard]] bool Check(std::string* err);
  /// The target elevbench makes (none for --device). False: it could not be made (or was
  /// interrupted: InterruptRequested() tells).
  [[nodiscard]] bool MakeTarget(std::string* err);
  /// The capture (RunCapture): false when it could not start, was interrupted or could not be
  /// written; *outcome says what it gave (its drain_error even then).
  [[nodiscard]] bool Capture(CaptureOutcome* outcome, std::string* err);

 private:
  CaptureJobConfig config_;
};

/// `elevbench capture` of `config`: CaptureJob's steps in order (Check, OpenJournal, MakeTarget,
/// Capture, Restore), errors said through `error` as they come and the finished capture's
/// notes (DescribeCaptureOutcome) through `note`. kNone when captured and restored; kUsage for
/// a refusal; kInterrupted when a signal stopped the target or the capture; else kFailure.
RunFailure RunCaptureCommand(const CaptureJobConfig& config,
                             const std::function<void(const std::string& line)>& error,
                             const std::function<void(const std::string& line)>& note);

}  // namespace elevbench
