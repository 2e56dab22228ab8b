#include "scenarios/replay/replay_rule_journal_log.h"

#include <algorithm>
#include <atomic>

namespace elevbench {
namespace {

// Per job, which steps are log writes; how many are in flight.
class JournalLogRule : public ReplayWaitRule {
 public:
  explicit JournalLogRule(const ReplayEngineInput& input) {
    for (const ReplayEngineJob& job : input.jobs) {
      std::vector<char>& marks = log_step_.emplace_back(job.steps.size(), 0);
      for (const uint32_t i : job.journal_log_steps) {
        if (i < marks.size()) marks[i] = 1;
      }
    }
  }
  const char* Name() const override { return "journal_log"; }
  void Issued(uint32_t job, uint32_t step) override {
    if (IsLogWrite(job, step)) in_flight_.fetch_add(1);
  }
  void Completed(uint32_t job, uint32_t step) override {
    if (IsLogWrite(job, step)) in_flight_.fetch_sub(1);
  }
  bool StepMayGo(uint32_t, uint32_t) override { return true; }
  bool WriterMayGo() const override { return in_flight_.load() == 0; }

 private:
  bool IsLogWrite(uint32_t job, uint32_t step) const {
    return job < log_step_.size() && step < log_step_[job].size() && log_step_[job][step] != 0;
  }
  std::vector<std::vector<char>> log_step_;
  std::atomic<int> in_flight_{0};
};

}  // namespace

void MarkJournalLogSteps(const std::vector<std::vector<ReplayIo>>& ios,
                         const std::vector<std::vector<uint32_t>>& last_steps,
                         std::vector<ReplayJob>* jobs) {
  const auto is_commit = [](const ReplayIo& io) { return IsJournalCommit(io.op, io.flags); };
  for (size_t j = 0; j < ios.size(); ++j) {
    ReplayJob& job = (*jobs)[j];
    if (job.writer_writeback || std::none_of(ios[j].begin(), ios[j].end(), is_commit)) continue;
    for (size_t i = 0; i < ios[j].size(); ++i) {
      if (ios[j][i].op == BlockTraceOp::kWrite && !is_commit(ios[j][i])) {
        job.journal_log_steps.push_back(last_steps[j][i]);
      }
    }
  }
}

std::unique_ptr<ReplayWaitRule> MakeJournalLogRule(const ReplayEngineInput& input) {
  return std::make_unique<JournalLogRule>(input);
}

}  // namespace elevbench
