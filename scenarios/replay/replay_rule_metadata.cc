#include "scenarios/replay/replay_rule_metadata.h"

#include <algorithm>
#include <set>

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
      j.steps = &job.steps;
      j.log = job.journal;
      j.part.assign(job.steps.size(), 0);
      j.ticket.assign(job.steps.size(), 0);
      j.buffers.assign(job.steps.size(), -1);
      for (const uint32_t i : job.metadata_write_steps) Mark(&j, i, kMetadataWrite);
      for (size_t k = 0; k < job.journal_wait_steps.size(); ++k) {
        const uint32_t i = job.journal_wait_steps[k];
        Mark(&j, i, kAfterHandle);
        if (k < job.journal_wait_buffers.size() && i < j.buffers.size()) {
          j.buffers[i] = static_cast<int32_t>(k);
        }
      }
      j.buffer_lists = &job.journal_wait_buffers;
    }
  }
  const char* Name() const override { return "metadata_after_handle"; }
  void Issued(uint32_t job, uint32_t step) override {
    if (!Is(job, step, kMetadataWrite)) return;
    Job& j = jobs_[job];
    const ReplayStep& s = (*j.steps)[step];
    j.ticket[step] = writes_.Issued(s.offset, s.bytes, j.log);
  }
  void Completed(uint32_t job, uint32_t step) override {
    if (Is(job, step, kMetadataWrite)) writes_.Completed(jobs_[job].ticket[step]);
  }
  // The writes it waits for are those issued before it first asked (it became ready), of the
  // buffers its handles changed where those are known.
  bool StepMayGo(uint32_t job, uint32_t step) override {
    if (!Is(job, step, kAfterHandle)) return true;
    Job& j = jobs_[job];
    if (j.waiting_step != static_cast<int64_t>(step)) {
      j.waiting_step = step;
      j.bound = writes_.Next();
    }
    static const std::vector<ReplayBuffer> kAny;
    const int32_t k = j.buffers[step];
    return writes_.DrainedBefore(j.bound, k < 0 ? kAny : (*j.buffer_lists)[k]);
  }
  bool WriterMayGo() const override { return true; }

 private:
  struct Job {
    const std::vector<ReplayStep>* steps = nullptr;
    bool log = false;              // a journal's job: its metadata writes are log writes
    std::vector<uint8_t> part;     // per step: kMetadataWrite, kAfterHandle bits
    std::vector<uint64_t> ticket;  // per metadata write step: its ticket
    std::vector<int32_t> buffers;  // per step after a handle: its buffer list's index, or -1
    const std::vector<std::vector<ReplayBuffer>>* buffer_lists = nullptr;
    int64_t waiting_step = -1;  // the step after a handle being held (this job's thread)
    uint64_t bound = 0;         // it waits for tickets below this
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

namespace {

// The target's extents of the buffers changed by the handles [first, last) of `h`; empty when
// one of them is not known.
std::vector<std::pair<uint64_t, uint64_t>> ChangedBuffers(const BlockTraceJournalHandles& h,
                                                          size_t first, size_t last,
                                                          const ReplayMapping& m) {
  std::vector<std::pair<uint64_t, uint64_t>> buffers;
  if (h.buffer_sectors.size() != h.times_ns.size() || h.block_bytes == 0) return {};
  const uint32_t sectors = h.block_bytes / kReplaySectorBytes;
  for (size_t k = first; k < last; ++k) {
    if (h.buffer_sectors[k] < 0) return {};
    const std::pair<uint64_t, uint64_t> buffer = {
        MappedOffset(m, static_cast<uint64_t>(h.buffer_sectors[k]), sectors), h.block_bytes};
    if (std::find(buffers.begin(), buffers.end(), buffer) == buffers.end()) {
      buffers.push_back(buffer);
    }
  }
  return buffers;
}

// One reader's journal_wait_steps (and their buffers) from its handles `h`.
bool MarkReaderWaits(const BlockTraceJournalHandles& h, const std::vector<ReplayIo>& ios,
                     const std::vector<uint32_t>& last_steps, const ReplayMapping& m,
                     ReplayJob* job) {
  bool any = false;
  uint64_t previous = 0;
  for (size_t i = 0; i < ios.size(); ++i) {
    const uint64_t queued = ios[i].time_ns;
    // The handles started after the previous I/O was queued, up to this one's queueing.
    const auto first = std::upper_bound(h.times_ns.begin(), h.times_ns.end(), previous);
    const auto last = std::upper_bound(first, h.times_ns.end(), queued);
    if (first != last) {
      job->journal_wait_steps.push_back(i == 0 ? 0 : last_steps[i - 1] + 1);
      job->journal_wait_buffers.push_back(
          ChangedBuffers(h, static_cast<size_t>(first - h.times_ns.begin()),
                         static_cast<size_t>(last - h.times_ns.begin()), m));
      any = true;
    }
    previous = queued;
  }
  // None known: no list (the engine's input then carries none, as ReplayJob says).
  const auto& lists = job->journal_wait_buffers;
  if (std::all_of(lists.begin(), lists.end(), [](const auto& b) { return b.empty(); })) {
    job->journal_wait_buffers.clear();
  }
  return any;
}

}  // namespace

void MarkJournalWaitSteps(const BlockTrace& trace, const std::vector<std::vector<ReplayIo>>& ios,
                          const std::vector<std::vector<uint32_t>>& last_steps,
                          const ReplayMapping& m, std::vector<ReplayJob>* jobs) {
  std::map<int32_t, const BlockTraceJournalHandles*> handles;
  for (const BlockTraceJournalHandles& h : trace.header.journal_handles) handles[h.pid] = &h;
  bool any = false;
  for (size_t j = 0; j < ios.size(); ++j) {
    ReplayJob& job = (*jobs)[j];
    const auto it = handles.find(job.pid);
    // A reader's: what was measured (its access-time updates); a writer's changes of metadata
    // are the writer's pause (journal_log_steps) or the flusher's own.
    if (it == handles.end() || !HasReads(ios[j]) || job.writer_writeback) continue;
    any = MarkReaderWaits(*it->second, ios[j], last_steps[j], m, &job) || any;
  }
  if (!any) return;
  const std::set<int32_t> journals = JournalPids(trace);
  for (size_t j = 0; j < ios.size(); ++j) {
    (*jobs)[j].journal = journals.count((*jobs)[j].pid) > 0;
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
