#pragma once
// Runs fio as a child process on a generated job file and parses its json+ output. fio is the
// only I/O engine: the harness never submits bulk I/O itself.

#include <memory>
#include <string>
#include <vector>

#include "harness/fio/fio_job_file.h"
#include "harness/fio/fio_output.h"
#include "harness/process/subprocess.h"

namespace elevbench {

/// One fio run: a job file made of `streams`, executed with its output kept in `work_dir`.
struct FioInvocation {
  FioGlobalSpec global;
  std::vector<StreamSpec> streams;
  /// A complete job file to run instead of one made of `global` and `streams` (a user's job
  /// file placed on the target, scenarios/fiojobs/); bw_log_interval_ms must then be 0.
  std::string job_text;
  std::string work_dir;  ///< where the job file and the json+ output are written (kept for audit)
  std::string label;     ///< file name stem for the job and output files
  double timeout_seconds = 0;  ///< 0 = no limit
  /// Keep fio's bandwidth log per job, averaged over this many ms (<label>_bw.<job>.log in
  /// work_dir), and return it in FioJobResult::bw_kib_s; 0 = no log.
  uint32_t bw_log_interval_ms = 0;
  /// fio's cgroups and I/O priority (a load's role under `run --controls`); its jobs inherit
  /// them. Empty: the run's own.
  ProcessPlacement placement;
};

/// fio running in the background (a load beside a probe). Destroying it kills a fio that still
/// runs.
class FioBackground {
 public:
  virtual ~FioBackground() = default;
  /// Bytes fio's threads have read and written so far (their read()/write() calls), for a
  /// warm-up measured in bytes; 0 when it cannot be read.
  virtual uint64_t BytesDone() = 0;
  /// True while fio runs.
  virtual bool Running() = 0;
  /// Stops fio (SIGTERM: it ends its jobs and writes its json+ as at a normal end), waits for it
  /// and parses the output. A fio that ended by itself before is parsed as RunFio would.
  [[nodiscard]] virtual bool Stop(FioRunResult* result, std::string* err) = 0;
};

/// Writes the job file, runs `fio --output-format=json+ --output=FILE JOB`, and parses the
/// output. Fails with one line naming the cause: fio missing, fio exiting non-zero (with its last
/// stderr line), interrupted, timed out, or output that does not parse. A job with a non-zero
/// error field also fails the run.
[[nodiscard]] bool RunFio(const FioInvocation& invocation, FioRunResult* result, std::string* err);

/// The seam in front of fio: suites and the load-vs-probe engine run fio only through this, so
/// the session loop and the suites can be unit-tested with a fake.
class FioRunner {
 public:
  virtual ~FioRunner() = default;
  /// Runs one invocation to its end, with RunFio's contract.
  [[nodiscard]] virtual bool Run(const FioInvocation& invocation, FioRunResult* result,
                                 std::string* err) = 0;
  /// Starts an invocation in the background; err when fio could not be started.
  [[nodiscard]] virtual bool Start(const FioInvocation& invocation,
                                   std::unique_ptr<FioBackground>* running, std::string* err) = 0;
};

/// The real fio (RunFio).
class SystemFioRunner : public FioRunner {
 public:
  [[nodiscard]] bool Run(const FioInvocation& invocation, FioRunResult* result,
                         std::string* err) override {
    return RunFio(invocation, result, err);
  }
  [[nodiscard]] bool Start(const FioInvocation& invocation, std::unique_ptr<FioBackground>* running,
                           std::string* err) override;
};

/// `fio --version`, e.g. "fio-3.33".
[[nodiscard]] bool FioVersion(std::string* version, std::string* err);

}  // namespace elevbench
