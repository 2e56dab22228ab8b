#pragma once
// Wait rule "metadata_after_handle" (replay_wait_rule.h; docs/replay.md §3, "After a journal
// handle"): a reader's I/O after it started a journal handle (its access-time update: a change
// of metadata) waits for the metadata writes that were in flight when it became ready, as the
// kernel's handle waits for a buffer while the buffer is written, to the journal's log or to its
// home location; not for writes issued while it waits (MetadataWritesInFlight). A reader's
// access-time update under mq-deadline waited 29.4 s in all behind the flusher's writes of the
// inode table queued behind a writer's data, 0.07 s under none
// (docs/replay-measurements.md §4).

#include <map>
#include <memory>
#include <vector>

#include "harness/trace/block_trace_file.h"
#include "scenarios/replay/replay_engine_input.h"
#include "scenarios/replay/replay_ios.h"
#include "scenarios/replay/replay_plan.h"
#include "scenarios/replay/replay_wait_rule.h"

namespace elevbench {

/// The plan's marks from the trace's journal handle starts (BlockTraceHeader::journal_handles):
/// for each reader's job (with reads, not a writer's writeback), ReplayJob::journal_wait_steps,
/// the first step of each I/O before which it started a handle (since its previous I/O was
/// queued), with the buffers those handles changed mapped by `m` (journal_wait_buffers); and,
/// when any reader has one, every job's metadata_write_steps (its writes with flag M) and
/// whether it is a journal's. `ios` and `last_steps` (LastSteps) in the jobs' order.
void MarkJournalWaitSteps(const BlockTrace& trace, const std::vector<std::vector<ReplayIo>>& ios,
                          const std::vector<std::vector<uint32_t>>& last_steps,
                          const ReplayMapping& m, std::vector<ReplayJob>* jobs);

/// The rule in an engine replaying `input`: it holds the marked steps, never a writer.
std::unique_ptr<ReplayWaitRule> MakeMetadataAfterHandleRule(const ReplayEngineInput& input);

}  // namespace elevbench
