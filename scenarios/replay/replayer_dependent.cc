// The dependent replayer (replayer.h): `elevbench internal replay-engine` as a child process
// (replay_engine.h), its input and result JSON files in the cell's work directory.

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "harness/core/atomic_file.h"
#include "harness/core/system_info.h"
#include "harness/process/subprocess.h"
#include "scenarios/replay/replay_engine_input.h"
#include "scenarios/replay/replayer.h"

namespace elevbench {
namespace {

class DependentReplayer : public Replayer {
 public:
  const char* Name() const override { return "dependent"; }
  bool ReplaysBufferedWriters() const override { return true; }

  bool Prepare(const ReplayPlan& plan, const CellEnvironment& env, ReplayTargetUse use,
               std::string* err) override {
    input_ = env.work_dir + "/replay-engine-input.json";
    const ReplayEngineInput input = ReplayEngineInputOf(plan, env.device, use.writes);
    return WriteFileAtomically(input_, ReplayEngineInputToJson(input).dump() + "\n", err);
  }

  bool Run(const ReplayPlan& plan, const CellEnvironment& env, ReplayRun* run,
           std::string* err) override;

  std::string IoEngineOf(const ReplayJob& job) const override {
    return job.buffered ? "buffered" : "io_uring";
  }
  std::string ReplayedAsOf(const ReplayJob& job) const override {
    return job.buffered            ? "buffered_writer"
           : job.dependent_ios > 0 ? "dependencies"
                                   : "recorded_times";
  }

 private:
  std::string input_;  // the engine's input (replay_engine_input.h)
};

// Bounded by the cell's timeout, else by ten times the trace's duration and a minute.
bool DependentReplayer::Run(const ReplayPlan& plan, const CellEnvironment& env, ReplayRun* run,
                            std::string* err) {
  const double limit =
      std::min(env.timeout_seconds > 0 ? env.timeout_seconds
                                       : 60 + 10 * std::max(plan.duration_seconds, 1.0),
               86400.0);  // the engine's --timeout takes at most a day
  const std::string result_path = env.work_dir + "/" + env.label_prefix + "replay-engine.json";
  ProcessOptions options;
  options.timeout_seconds = limit + 30;  // the engine's own deadline comes first
  ProcessResult child;
  if (!RunProcess({SelfExecutablePath(), "internal", "replay-engine", "--input", input_, "--result",
                   result_path, "--timeout", std::to_string(limit)},
                  options, &child, err)) {
    return false;
  }
  if (child.timed_out || child.interrupted || child.exit_code != 0) {
    *err = std::string("the replay engine ") +
           (child.timed_out     ? "timed out"
            : child.interrupted ? "was interrupted"
                                : "failed (exit " + std::to_string(child.exit_code) + ")") +
           ": " + LastLine(child.error_output);
    return false;
  }
  std::string text;
  ReplayEngineResult result;
  if (!ReadWholeFile(result_path, &text, err)) return false;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !ReplayEngineResultFromJson(j, &result, err)) {
    *err = result_path + ": " + (j.is_discarded() ? std::string("not JSON") : *err);
    return false;
  }
  run->jobs = std::move(result.jobs);
  run->journal_wait_seconds = result.journal_wait_seconds;
  run->waits = std::move(result.waits);
  return true;
}

}  // namespace

std::unique_ptr<Replayer> MakeDependentReplayer() { return std::make_unique<DependentReplayer>(); }

}  // namespace elevbench
