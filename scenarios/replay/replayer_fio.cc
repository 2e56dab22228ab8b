// fio's replayer (replayer.h): one forked fio job per traced process (its own process, as bfq
// should see it), each reading its iolog (replay_iolog.h) at the recorded times.

#include <utility>

#include "harness/core/atomic_file.h"
#include "harness/fio/fio_jobs.h"
#include "harness/fio/fio_runner.h"
#include "scenarios/replay/replayer.h"

namespace elevbench {
namespace {

class FioReplayer : public Replayer {
 public:
  const char* Name() const override { return "fio"; }
  bool ReplaysBufferedWriters() const override { return false; }

  bool Prepare(const ReplayPlan& plan, const CellEnvironment& env, ReplayTargetUse use,
               std::string* err) override {
    use_ = use;
    iologs_.clear();
    for (const ReplayJob& job : plan.jobs) {
      iologs_.push_back(env.work_dir + "/replay-" + job.name + ".iolog");
      if (!WriteFileAtomically(iologs_.back(), job.iolog, err)) return false;
    }
    return true;
  }

  bool Run(const ReplayPlan& plan, const CellEnvironment& env, ReplayRun* run,
           std::string* err) override {
    FioRunResult fio;
    if (!env.fio->Run(Invocation(plan, env, env.label_prefix + "replay"), &fio, err)) {
      return false;
    }
    *run = ReplayRun{};
    run->jobs = JobResultsFromFio(fio);
    return true;
  }

  std::string IoEngineOf(const ReplayJob& job) const override { return job.ioengine; }
  std::string ReplayedAsOf(const ReplayJob&) const override { return "recorded_times"; }

 private:
  // The fio invocation of the plan: one forked job per traced process, each reading its iolog.
  FioInvocation Invocation(const ReplayPlan& plan, const CellEnvironment& env,
                           const std::string& label) const {
    FioInvocation inv;
    inv.global.thread = false;
    inv.global.fallocate_none = false;
    if (!use_.writes) inv.global.extra.emplace_back("readonly", "");
    for (size_t i = 0; i < plan.jobs.size(); ++i) {
      const ReplayJob& job = plan.jobs[i];
      StreamSpec s;
      s.name = job.name;
      s.rw = job.writes ? "rw" : "read";
      s.ioengine = job.ioengine;
      s.iodepth = job.iodepth;
      s.direct = true;
      s.extra.emplace_back("read_iolog", iologs_[i]);
      if (use_.no_stall && !job.flush_only) s.extra.emplace_back("replay_no_stall", "1");
      inv.streams.push_back(std::move(s));
    }
    inv.work_dir = env.work_dir;
    inv.label = label;
    inv.timeout_seconds = env.timeout_seconds;
    return inv;
  }

  ReplayTargetUse use_;
  std::vector<std::string> iologs_;
};

}  // namespace

std::unique_ptr<Replayer> MakeFioReplayer() { return std::make_unique<FioReplayer>(); }

std::unique_ptr<Replayer> MakeReplayer(const std::string& name) {
  return name == "fio" ? MakeFioReplayer() : MakeDependentReplayer();
}

}  // namespace elevbench
