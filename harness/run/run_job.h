#pragma once
// `elevbench run SUITE` as a library object: the steps of docs/architecture.md ("Data flow"),
// one function each, over a plain RunConfig (run_config.h), as ninja's Builder and
// google/benchmark's BenchmarkRunner own their loops. The job checks the config, prepares the
// target (directory, scratch device, emulated disk; with --lanes one emulated disk per lane),
// journals and applies the device settings, the machine's cgroups and the request tracer, runs
// the session (serial, or dealt to the lanes), and restores everything on every exit path.
//
// The CLI (app/cli/cmd_run.cc) maps its flags to a RunConfig and hands it to RunSuiteCommand
// (run_command.h), which runs the steps (PrepareRunJob of run_job_steps.h, then Describe,
// RunCells, Restore, RunEndFailure) and has the CLI's hooks print: the errors, the suite's
// tables, the history's note; the CLI turns the failure's kind into its exit code. A step that
// fails returns false with one line in err; the job's destructor then undoes what was made (the
// journal's guard is the job's last member to go).

#include <cstddef>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/progress.h"
#include "harness/core/system_info.h"
#include "harness/core/trace_mode.h"
#include "harness/device/device_control.h"
#include "harness/device/restore_journal.h"
#include "harness/device/sysfs.h"
#include "harness/machine/io_cost.h"
#include "harness/machine/machine_cgroups.h"
#include "harness/machine/role_cgroups.h"
#include "harness/results/results_document.h"
#include "harness/run/run_checks.h"
#include "harness/run/run_config.h"
#include "harness/run/run_journal.h"
#include "harness/run/run_lanes.h"
#include "harness/run/run_session.h"
#include "harness/run/target.h"
#include "harness/trace/request_tracer.h"

namespace elevbench {

/// How the session step ended.
struct RunOutcome {
  bool finished = false;    ///< every cell of the plan ran (failed cells included)
  size_t failed_cells = 0;  ///< cells recorded as failed
  std::string error;        ///< why it did not finish (one line); empty when it did
};

/// One run. Call the steps in the order they are declared; after a step returns false, call no
/// more of them (destroying the job undoes what was made). Not copyable.
class RunJob {
 public:
  /// Errors that do not stop a step go to `report_error`, one line each, when they happen:
  /// the target lost under the session ("stopping the run: …", from the target watch's
  /// thread), a cgroup or the tracer not given back after it, an incomplete restore (also from
  /// the destructor). The CLI prints them as its errors ("elevbench: …" on stderr).
  RunJob(RunConfig config, std::function<void(const std::string& line)> report_error);
  ~RunJob();
  RunJob(const RunJob&) = delete;
  RunJob& operator=(const RunJob&) = delete;

  /// 1. Every check of CheckRunConfig, on this host's facts. False: a usage error.
  [[nodiscard]] bool Check(std::string* err);
  /// 1. `fio --version`. False: fio is missing.
  [[nodiscard]] bool FindFio(std::string* err);
  /// 1. --trace-requests full as root: the global blk tracer must be free (nop), found before
  /// anything is made: it is someone else's. False: a usage error.
  [[nodiscard]] bool CheckGlobalTracer(std::string* err);
  /// 1. `<out>.fio/`, where fio's job files and raw outputs are kept beside the results for
  /// audit. False: a usage error (the results cannot be written there).
  [[nodiscard]] bool MakeWorkDir(std::string* err);
  /// After a refusal in a later step: the job's end (after the journal's restore, which removes
  /// the files it made there) removes the directories MakeWorkDir made, `<out>.fio/` and the
  /// parents it had to create, each only while it is empty, so a refused run leaves nothing.
  void TakeBackWorkDir() { made_dirs_.take_back = true; }
  /// The cells' work directory MakeWorkDir made: always an absolute path, for the journal
  /// refuses a relative one (a cell's tracefs capture would not start).
  const std::string& work_dir() const { return work_dir_; }
  /// 2. Without root: no switching, no device of our own, no cache drop; says so on progress.
  void DecideRoot();
  /// 3. The interrupt handlers; as root, what an earlier run left undone, then the journal's
  /// lock: before any change. False: the journal cannot be had.
  [[nodiscard]] bool OpenJournal(std::string* err);
  /// 4. The target (--emulated, --scratch, --dir, a raw --device, or a temporary directory),
  /// and with --lanes the other lanes' disks. False: it could not be made (or was interrupted:
  /// InterruptRequested() tells).
  [[nodiscard]] bool MakeTarget(std::string* err);
  /// 5a. The target's device control, and whether the run may switch it: only devices elevbench
  /// made, or the disk the user named with --device. False: a refusal (a usage error).
  [[nodiscard]] bool AuthorizeSwitching(std::string* err);
  /// 5. The configurations (--schedulers all or none: every one offered), the pinned queue
  /// attributes, the writeback settings (a lane's own limit for the disk; each lane's with
  /// --lanes). False: a device operation failed.
  [[nodiscard]] bool SetUpDevices(std::string* err);
  /// 5b. --machine's cgroups (with --lanes, each lane's instead), after the target so that the
  /// emulated disk's daemon stays outside them: it is the disk, not the machine. False: they
  /// could not be made.
  [[nodiscard]] bool MakeMachineCgroups(std::string* err);
  /// 5b'. --controls (docs/controls.md): each control's placements, and for a throttle the
  /// roles' cgroups with its limit on the target's disk, journaled. False: they could not be
  /// made.
  [[nodiscard]] bool MakeControlCgroups(std::string* err);
  /// 5c. The request tracer (--trace-requests summary|full) on the disk elevbench made or the
  /// one named with --device (with --lanes, one per lane). False: it could not be opened.
  [[nodiscard]] bool OpenTracer(std::string* err);
  /// 6. Identifiers and labels per configuration, the session's settings, the results context.
  void Describe();
  /// 7. The session: serial, with every child inside --machine's cgroups and the target
  /// watched (lost: it stops the run), or dealt to the lanes. False only when it could not
  /// start (the cgroups could not be entered); how it ended is in *outcome.
  [[nodiscard]] bool RunCells(RunOutcome* outcome, std::string* err);
  /// 8. Undoes the journal now (the destructor would too); false when some entry could not be
  /// undone (said through report_error).
  bool Restore();

  /// The results as the session left them (also saved at out_path()).
  const ResultsDocument& doc() const { return doc_; }
  /// The results file.
  const std::string& out_path() const { return checked_.out_path; }
  /// What step 1 found (the target's size, --machine's spec): `--kernels` sizes its guests by it.
  const CheckedRun& checked() const { return checked_; }

 private:
  // Step 5's part for a serial emulated run: its disk gets a lane's strict writeback limit of
  // its own (SetUpEmulatedWriteback), so that serial and lanes throttle the writer alike
  // (docs/lanes.md); on a kernel without per-device limits the global 2003 ones alone, and the
  // context says so. False: a value could not be set.
  [[nodiscard]] bool SetUpWriteback(std::string* err);
  SessionTarget SerialSessionTarget();
  bool ShareMachineCpusWithDisk(std::string* err);
  bool OpenSerialTracer(std::string* err);
  void DescribeSession();
  nlohmann::json ControlsContext() const;
  bool MeasureIoCostModelOnTarget(std::string* err);
  // The step before each cell of `control` under `scheduler`: io.cost on or off on the disk;
  // empty when no configuration of the run uses io.cost.
  std::function<bool(std::string*)> IoCostStep(const IoControl& control,
                                               const std::string& scheduler);

  // Members are destroyed in reverse: the machine's cgroups, the device control and the target
  // go before the guard restores the journal.
  RunConfig config_;
  std::function<void(const std::string& line)> report_error_;
  MachineInfo machine_;
  CheckedRun checked_;
  std::string work_dir_;
  // MakeWorkDir's directories, deepest first; declared before the journal, so removed after
  // its restore.
  struct MadeWorkDirs {
    std::vector<std::string> dirs;
    bool take_back = false;
    ~MadeWorkDirs();
  } made_dirs_;
  bool root_ = false;
  bool want_switching_ = false;
  TargetOptions target_options_;
  Progress progress_;
  RestoreJournal journal_;
  JournalGuard guard_{&journal_, report_error_};
  RunTarget target_;
  Sysfs sysfs_;
  std::unique_ptr<DeviceControl> control_;
  std::vector<SchedulerConfig> configs_;
  std::vector<std::pair<std::string, std::string>> pinned_;
  bool switching_ = false;
  MachineCgroups cgroups_;
  MachineCgroups disk_cgroups_;  // --machine disk-cpus=shared: the daemon on the machine's CPUs
  RoleCgroups role_cgroups_;     // --controls: the roles' cgroups
  std::string controlled_disk_;  // --controls: the disk a throttle limits ("7:3")
  std::vector<RolePlacements> control_placements_;  // per control of checked_.controls
  IoCostSwitch io_cost_;       // --controls iocost or weight: io.cost on the disk per cell
  bool io_cost_used_ = false;  // some configuration's cells run with io.cost on
  IoCostModel io_cost_model_;  // iocost:model=measure's, measured before the first cell
  TraceMode trace_mode_ = TraceMode::kOff;
  std::string traced_disk_;
  RequestTracer tracer_;  // destroyed before the journal is restored: it forgets its entries
  RunLanes lanes_;        // --lanes: after the target and control it points into
  nlohmann::json emulated_machine_;
  nlohmann::json disk_writeback_;  // a serial emulated run: its disk's writeback limits
  std::vector<std::pair<std::string, std::string>> vm_written_;  // with them, the global vm
  SessionConfig session_;
  ResultsDocument doc_;
};

}  // namespace elevbench
