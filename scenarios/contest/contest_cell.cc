#include "scenarios/contest/contest_cell.h"

#include <algorithm>

namespace elevbench {
namespace {

void RecordCompile(const ProbeOutcome& outcome, ContestRecord* record) {
  const ProcessResult& p = outcome.process;
  record->compile = p.usage;
  record->exit_code = p.exit_code;
  record->warmup_seconds = outcome.warmup_seconds;
  record->status = outcome.dnf ? "dnf" : (p.exit_code == 0 ? "ok" : "failed");
}

}  // namespace

bool RunContestCell(const ContestCellSpec& spec, FioRunner* fio, const std::string& work_dir,
                    const std::string& label, ContestRecord* record, std::string* err) {
  const ContestLoadInfo* info = FindContestLoad(spec.load);
  if (info == nullptr) {
    *err = "unknown contest load '" + spec.load + "'";
    return false;
  }
  ContestRecord r;
  r.load = spec.load;
  r.timeout_seconds = spec.compile.timeout_seconds;
  r.caches_kept = spec.caches_kept;
  r.load_absent = spec.plan.absent;
  r.load_work_unit = info->work_unit;
  ProbeOutcome outcome;
  switch (spec.plan.kind) {
    case ContestLoadKind::kNone: {
      r.load_kind = "none";
      ProbeSpec alone = spec.compile;
      alone.warmup_seconds = 0;
      if (!RunForegroundProbe(alone, &outcome, err)) return false;
      break;
    }
    case ContestLoadKind::kFio: {
      r.load_kind = "fio";
      LoadProbeResult result;
      if (!RunLoadWithProbe(fio, spec.plan.fio, spec.compile, work_dir, label, &result, err)) {
        return false;
      }
      outcome = result.probe;
      uint64_t bytes = 0;
      for (const StreamResult& s : result.load) {
        bytes += s.bytes();
        // fio reports a job's CPU as one figure (its thread's user + system): kept as user.
        r.load_usage.user_seconds += s.cpu_seconds;
        r.load_usage.elapsed_seconds = std::max(r.load_usage.elapsed_seconds, s.runtime_seconds);
      }
      r.load_work = static_cast<double>(bytes) / (1 << 20);
      r.streams = std::move(result.load);
      break;
    }
    case ContestLoadKind::kCommand: {
      r.load_kind = "command";
      RepeatedCommandResult load;
      if (!RunCommandLoadWithProbe(spec.plan.command, spec.compile, &load, &outcome, err)) {
        return false;
      }
      r.load_usage = load.usage;
      r.load_iterations_started = load.started;
      r.load_iterations_completed = load.completed;
      r.load_iterations_failed = load.failed;
      if (load.failed > 0) {
        r.load_last_failure =
            (load.last_failure_signal != 0
                 ? "killed by signal " + std::to_string(load.last_failure_signal)
                 : "exit " + std::to_string(load.last_failure_exit_code)) +
            (load.last_failure_output.empty() ? "" : ": " + load.last_failure_output);
      }
      r.load_work = static_cast<double>(load.completed) * spec.plan.work_per_iteration;
      break;
    }
  }
  if (outcome.process.interrupted) {  // a compile cut by an interrupt measured nothing
    *err = "interrupted during the compile";
    return false;
  }
  RecordCompile(outcome, &r);
  r.loads = r.load_work / info->divisor;
  *record = std::move(r);
  return true;
}

}  // namespace elevbench
