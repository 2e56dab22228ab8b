#include "scenarios/replay/replay_rule_metadata.h"

#include <algorithm>

#include "scenarios/replay/replay_metadata_writes.h"

namespace elevbench {
namespace {

// A step's part in the rule.
constexpr uint8_t kMetadataWrite = 1, kAfterHandle = 2;

class MetadataAfterHandleRule : public ReplayWaitRule {
 public:
  explicit MetadataAfterHandleRule(const ReplayEngineInput& input) {
    for (const ReplayEngineJob& job : input.jobs) {
      Job& j = jobs_.emplace_back();
      j.part.assign(job.steps.size(), 0);
      j.ticket.assign(job.steps.size(), 0);
      for (const uint32_t i : job.metadata_write_steps) Mark(&j, i, kMetadataWrite);
      for (const uint32_t i : job.journal_wait_steps) Mark(&j, i, kAfterHandle);
    }
  }
  const char* Name() const override { return "metadata_after_handle"; }
  void Issued(uint32_t job, uint32_t step) override {
    if (Is(job, step, kMetadataWrite)) jobs_[job].ticket[step] = writes_.Issued();
  }
  void Completed(uint32_t job, uint32_t step) override {
    if (Is(job, step, kMetadataWrite)) writes_.Completed(jobs_[job].ticket[step]);
  }
  // The writes it waits for are those issued before it first asked (it became ready).
  bool StepMayGo(uint32_t job, uint32_t step) override {
    if (!Is(job, step, kAfterHandle)) return true;
    Job& j = jobs_[job];
    if (j.waiting_step != static_cast<int64_t>(step)) {
      j.waiting_step = step;
      j.bound = writes_.Next();
    }
    return writes_.DrainedBefore(j.bound);
  }
  bool WriterMayGo() const override { return true; }

 private:
  struct Job {
    std::vector<uint8_t> part;     // per step: kMetadataWrite, kAfterHandle bits
    std::vector<uint64_t> ticket;  // per metadata write step: its ticket
    int64_t waiting_step = -1;     // the step after a handle being held (this job's thread)
    uint64_t bound = 0;            // it waits for tickets below this
  };
  static void Mark(Job* j, uint32_t step, uint8_t part) {
    if (step < j->part.size()) j->part[step] |= part;
  }
  bool Is(uint32_t job, uint32_t step, uint8_t part) const {
    return job < jobs_.size() && step < jobs_[job].part.size() &&
           (jobs_[job].part[step] & part) != 0;
  }
  std::vector<Job> jobs_;
  MetadataWritesInFlight writes_;
};

bool HasReads(const std::vector<ReplayIo>& ios) {
  return std::any_of(ios.begin(), ios.end(),
                     [](const ReplayIo& io) { return io.op == BlockTraceOp::kRead; });
}

}  // namespace

void MarkJournalWaitSteps(const BlockTrace& trace, const std::vector<std::vector<ReplayIo>>& ios,
                          const std::vector<std::vector<uint32_t>>& last_steps,
                          std::vector<ReplayJob>* jobs) {
  std::map<int32_t, const std::vector<uint64_t>*> handles;
  for (const BlockTraceJournalHandles& h : trace.header.journal_handles) {
    handles[h.pid] = &h.times_ns;
  }
  bool any = false;
  for (size_t j = 0; j < ios.size(); ++j) {
    ReplayJob& job = (*jobs)[j];
    const auto it = handles.find(job.pid);
    // A reader's: what was measured (its access-time updates); a writer's changes of metadata
    // are the writer's pause (journal_log_steps) or the flusher's own.
    if (it == handles.end() || !HasReads(ios[j]) || job.writer_writeback) continue;
    const std::vector<uint64_t>& times = *it->second;
    uint64_t previous = 0;
    for (size_t i = 0; i < ios[j].size(); ++i) {
      const uint64_t queued = ios[j][i].time_ns;
      const auto h = std::upper_bound(times.begin(), times.end(), previous);
      if (h != times.end() && *h <= queued) {
        job.journal_wait_steps.push_back(i == 0 ? 0 : last_steps[j][i - 1] + 1);
        any = true;
      }
      previous = queued;
    }
  }
  if (!any) return;
  for (size_t j = 0; j < ios.size(); ++j) {
    for (size_t i = 0; i < ios[j].size(); ++i) {
      if (ios[j][i].op == BlockTraceOp::kWrite && (ios[j][i].flags & kTraceMeta) != 0) {
        (*jobs)[j].metadata_write_steps.push_back(last_steps[j][i]);
      }
    }
  }
}

std::unique_ptr<ReplayWaitRule> MakeMetadataAfterHandleRule(const ReplayEngineInput& input) {
  return std::make_unique<MetadataAfterHandleRule>(input);
}

}  // namespace elevbench
