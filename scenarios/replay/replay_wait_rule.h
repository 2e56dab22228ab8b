#pragma once
// One wait the dependent replayer applies beyond a step's own timing (after its predecessor, or
// after the completion that woke it in the capture: replay_steps.h): a rule of its own, with its
// marks in the plan (which steps hold, which wait), its state in the engine, and its own counter
// (docs/replay.md §3, "Wait rules"). The rules today: a journal's log writes hold the buffered
// writers (replay_rule_journal_log.h); a reader's step after a journal handle waits for the
// metadata writes in flight (replay_rule_metadata.h). A new rule is one new part of this shape
// and its test, listed in replay_wait_rules.cc.

#include <atomic>
#include <cstdint>
#include <string>

namespace elevbench {

/// How often a step or writer a rule holds looks again: the holding writes take milliseconds on
/// the emulated disks, and a step let go a millisecond late is within the lag's bound.
inline constexpr int64_t kReplayRulePollNs = 1000000;

/// What one rule held back in a replay.
struct ReplayWaitCount {
  std::string rule;    ///< the rule's name (ReplayWaitRule::Name)
  uint64_t held = 0;   ///< steps or writes it held back (each once, however long)
  double seconds = 0;  ///< how long they waited for it, summed
  bool operator==(const ReplayWaitCount&) const = default;
};

/// One wait rule in a running engine, shared by its threads (replay_engine.h). Its marks come
/// from the engine's input; Issued and Completed come from any thread, StepMayGo only from the
/// thread of `job`, WriterMayGo from the buffered writers' threads.
class ReplayWaitRule {
 public:
  virtual ~ReplayWaitRule() = default;
  /// The rule's name in the engine's result ("journal_log", "metadata_after_handle").
  virtual const char* Name() const = 0;
  /// Step `step` of job `job` was issued.
  virtual void Issued(uint32_t job, uint32_t step) = 0;
  /// Step `step` of job `job` completed.
  virtual void Completed(uint32_t job, uint32_t step) = 0;
  /// Whether step `step` of job `job`, due now, may be issued; asked again every
  /// kReplayRulePollNs until it may (the first ask is when the step became ready).
  virtual bool StepMayGo(uint32_t job, uint32_t step) = 0;
  /// Whether a buffered writer may write now (asked before each of its writes).
  virtual bool WriterMayGo() const = 0;
  /// A step or write this rule held waited `ns` in all (the waiting thread counts it).
  void CountHeld(int64_t ns) {
    held_.fetch_add(1);
    ns_.fetch_add(ns);
  }
  /// The counter so far.
  ReplayWaitCount Count() const {
    return {Name(), held_.load(), static_cast<double>(ns_.load()) / 1e9};
  }

 private:
  std::atomic<uint64_t> held_{0};
  std::atomic<int64_t> ns_{0};
};

}  // namespace elevbench
