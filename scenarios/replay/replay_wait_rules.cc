#include "scenarios/replay/replay_wait_rules.h"

#include "scenarios/replay/replay_rule_journal_log.h"
#include "scenarios/replay/replay_rule_metadata.h"

namespace elevbench {

void MarkWaitRules(const BlockTrace& trace, const std::vector<std::vector<ReplayIo>>& ios,
                   const std::vector<std::vector<uint32_t>>& last_steps, const ReplayMapping& m,
                   bool buffered_writers, std::vector<ReplayJob>* jobs) {
  if (buffered_writers) MarkJournalLogSteps(ios, last_steps, jobs);
  MarkJournalWaitSteps(trace, ios, last_steps, m, jobs);
}

ReplayWaitRules::ReplayWaitRules(const ReplayEngineInput& input) {
  rules_.push_back(MakeJournalLogRule(input));
  rules_.push_back(MakeMetadataAfterHandleRule(input));
}

void ReplayWaitRules::Issued(uint32_t job, uint32_t step) {
  for (const auto& rule : rules_) rule->Issued(job, step);
}

void ReplayWaitRules::Completed(uint32_t job, uint32_t step) {
  for (const auto& rule : rules_) rule->Completed(job, step);
}

std::vector<ReplayWaitCount> ReplayWaitRules::Counts() const {
  std::vector<ReplayWaitCount> counts;
  for (const auto& rule : rules_) counts.push_back(rule->Count());
  return counts;
}

ReplayRuleWaiter::ReplayRuleWaiter(const ReplayWaitRules* rules)
    : rules_(rules), held_since_ns_(rules->rules().size(), -1) {}

bool ReplayRuleWaiter::Note(size_t r, bool may_go, int64_t now_ns) {
  int64_t& since = held_since_ns_[r];
  if (!may_go && since < 0) since = now_ns;
  if (may_go && since >= 0) {
    rules_->rules()[r]->CountHeld(now_ns - since);
    since = -1;
  }
  return may_go;
}

bool ReplayRuleWaiter::StepMayGo(uint32_t job, uint32_t step, int64_t now_ns) {
  bool all = true;
  for (size_t r = 0; r < rules_->rules().size(); ++r) {
    all = Note(r, rules_->rules()[r]->StepMayGo(job, step), now_ns) && all;
  }
  return all;
}

bool ReplayRuleWaiter::WriterMayGo(int64_t now_ns) {
  bool all = true;
  for (size_t r = 0; r < rules_->rules().size(); ++r) {
    all = Note(r, rules_->rules()[r]->WriterMayGo(), now_ns) && all;
  }
  return all;
}

}  // namespace elevbench
