#pragma once
// The dependent replayer's wait rules together (replay_wait_rule.h): the plan marks each rule's
// steps (MarkWaitRules), the engine makes each rule from its input and asks them all before a
// step or a buffered writer's write (ReplayWaitRules, ReplayRuleWaiter), and each rule's counter
// goes to the engine's result. Adding a rule: its part (marks + engine state, beside
// replay_rule_journal_log.h), a line in each of MarkWaitRules and ReplayWaitRules' maker list
// (replay_wait_rules.cc), and its test.

#include <memory>
#include <vector>

#include "harness/trace/block_trace_file.h"
#include "scenarios/replay/replay_engine_input.h"
#include "scenarios/replay/replay_ios.h"
#include "scenarios/replay/replay_plan.h"
#include "scenarios/replay/replay_wait_rule.h"

namespace elevbench {

/// Marks every rule's steps in `jobs` (the jobs of `ios`, in order; last_steps their LastSteps),
/// for a plan of `trace` whose offsets `m` maps; `buffered_writers`: the plan replays buffered
/// writers.
void MarkWaitRules(const BlockTrace& trace, const std::vector<std::vector<ReplayIo>>& ios,
                   const std::vector<std::vector<uint32_t>>& last_steps, const ReplayMapping& m,
                   bool buffered_writers, std::vector<ReplayJob>* jobs);

/// Every rule of one engine run, made from its input; shared by its threads.
class ReplayWaitRules {
 public:
  explicit ReplayWaitRules(const ReplayEngineInput& input);
  /// Step `step` of job `job` was issued / completed: told to every rule.
  void Issued(uint32_t job, uint32_t step);
  void Completed(uint32_t job, uint32_t step);
  /// Each rule's counter, in the rules' order.
  std::vector<ReplayWaitCount> Counts() const;
  /// The rules, in order.
  const std::vector<std::unique_ptr<ReplayWaitRule>>& rules() const { return rules_; }

 private:
  std::vector<std::unique_ptr<ReplayWaitRule>> rules_;
};

/// One thread's waits on the rules: since when each rule has held it, so that each rule counts
/// its own waits (ReplayWaitRule::CountHeld) as they end. Used by one thread only.
class ReplayRuleWaiter {
 public:
  explicit ReplayRuleWaiter(const ReplayWaitRules* rules);
  /// Whether step `step` of job `job`, due at `now_ns`, may be issued: every rule lets it.
  bool StepMayGo(uint32_t job, uint32_t step, int64_t now_ns);
  /// Whether a buffered writer may write at `now_ns`: every rule lets it.
  bool WriterMayGo(int64_t now_ns);

 private:
  // Notes rule r's answer at now_ns: a hold starts, or one that ended is counted.
  bool Note(size_t r, bool may_go, int64_t now_ns);
  const ReplayWaitRules* rules_;
  std::vector<int64_t> held_since_ns_;  // per rule; -1 while it does not hold
};

}  // namespace elevbench
