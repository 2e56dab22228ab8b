#pragma once
// How a command that changes the machine ended, or a step of it failed, as one kind the CLI
// turns into its exit code: `run` (run_job_steps.h, run_command.h) and `capture`
// (capture_job.h).

namespace elevbench {

/// How a run ended, or a step of it failed.
enum class RunFailure {
  kNone,         ///< done, every cell in and everything restored
  kUsage,        ///< the command line or its input refused (nothing was changed)
  kFailure,      ///< a step could not be done, a cell failed, or the restore is incomplete
  kInterrupted,  ///< stopped by a signal (after cleanup)
};

}  // namespace elevbench
