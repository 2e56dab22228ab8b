#pragma once
// Wait rule "journal_log" (replay_wait_rule.h; docs/replay.md §3, "Buffered writers"): while a
// journal's log write is in flight, the buffered writers dirty nothing. The real writer's every
// write updates its inode (mtime, size), and the update waits while a commit writes that inode's
// block to the log (jbd2's shadow buffer); so the real writer's writeback drains and
// mq-deadline dispatches the log write. A writer that went on dirtying would keep the write
// queue full below the journal's sectors, and the log write (and a reader the capture saw wait
// for it) would wait for the sorted sweep to reach it: 2.5 s against the real 0.6 s
// (docs/replay-measurements.md, "The writer's own journal waits").

#include <memory>
#include <vector>

#include "scenarios/replay/replay_engine_input.h"
#include "scenarios/replay/replay_ios.h"
#include "scenarios/replay/replay_plan.h"
#include "scenarios/replay/replay_wait_rule.h"

namespace elevbench {

/// The plan's marks (ReplayJob::journal_log_steps): in each journal's job (a process with a
/// write carrying a preflush or FUA, its commits; not one that wrote a buffered writer's pages),
/// its writes without one, the log writes. `ios` and `last_steps` (LastSteps) in the jobs'
/// order. The commit block itself is not one: the writer's inode block is free once its log
/// write completed.
void MarkJournalLogSteps(const std::vector<std::vector<ReplayIo>>& ios,
                         const std::vector<std::vector<uint32_t>>& last_steps,
                         std::vector<ReplayJob>* jobs);

/// The rule in an engine replaying `input`: it holds no step, only the buffered writers.
std::unique_ptr<ReplayWaitRule> MakeJournalLogRule(const ReplayEngineInput& input);

}  // namespace elevbench
