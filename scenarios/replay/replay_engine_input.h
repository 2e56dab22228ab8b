#pragma once
// What `run replay --replayer dependent` hands its engine (replay_engine.h), a child process
// that elevbench forks per cell, and what the engine hands back: both as JSON files in the
// cell's work directory, so the engine's input can be kept for audit and tested without root.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/job_result.h"
#include "scenarios/replay/replay_plan.h"
#include "scenarios/replay/replay_wait_rule.h"

namespace elevbench {

/// One traced process: one thread of the engine, with its own io_uring.
struct ReplayEngineJob {
  std::string name;    ///< the fio job's name ("p42_cat"), the result's JobResult::name
  uint32_t depth = 1;  ///< the most I/Os in flight at once (ReplayJob::iodepth)
  std::vector<ReplayStep> steps;
  /// Set for a buffered writer (replay_plan.h): no steps; written through the page cache.
  std::optional<ReplayBufferedWriter> buffered;
  /// ReplayJob::writer_writeback: its reads are a buffered writer's writeback's, so a writer
  /// writing until the readers end does not count it among them.
  bool writer_writeback = false;
  /// ReplayJob::journal_log_steps: its steps (writes, ascending) during which the buffered
  /// writers dirty nothing.
  std::vector<uint32_t> journal_log_steps;
  /// ReplayJob::journal_wait_steps: steps (ascending) issued only while no metadata write
  /// (metadata_write_steps, of any job) is in flight.
  std::vector<uint32_t> journal_wait_steps;
  /// ReplayJob::metadata_write_steps: its writes of metadata (ascending).
  std::vector<uint32_t> metadata_write_steps;
  /// ReplayJob::journal_wait_buffers: per journal_wait_steps entry, the buffers {offset, bytes}
  /// it waits for (empty: every metadata write); empty when none is known.
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> journal_wait_buffers;
  /// ReplayJob::journal: its metadata writes are a journal's log writes.
  bool journal = false;
  bool operator==(const ReplayEngineJob&) const = default;
};

/// The engine's whole input.
struct ReplayEngineInput {
  /// The one file the engine opens, O_DIRECT: the block device the replay suite targets. The
  /// engine refuses anything but a block device, and any step beyond its end.
  std::string device;
  bool writes = false;  ///< open it read-write; else read-only (a trace without writes)
  std::vector<ReplayEngineJob> jobs;
  bool operator==(const ReplayEngineInput&) const = default;
};

/// The input for replaying `plan` onto `device`.
ReplayEngineInput ReplayEngineInputOf(const ReplayPlan& plan, const std::string& device,
                                      bool writes);

/// {"device", "writes", "jobs": [{"name", "depth", "steps": [[OP, OFFSET, BYTES, AFTER, US]]}]}
/// with OP one of "read", "write", "trim", "flush" and AFTER 0 or 1 (ReplayStep); a step that
/// waits for another completion (ReplayStep::after_job) is [OP, OFFSET, BYTES, 0, US, JOB, STEP].
/// A buffered writer's job has no steps and "buffered": {"start_us", "bytes",
/// "until_readers_end", "extents": [[OFFSET, BYTES], ...]}; a writer_writeback job has
/// "writer_writeback": true (absent: false); a journal's job "journal_log_steps": [STEP, ...]
/// (absent: none), each a write step of its own, ascending; "journal_wait_steps" and
/// "metadata_write_steps" alike (absent: none; the first any step, the second writes);
/// "journal_wait_buffers": [[[OFFSET, BYTES], ...], ...], one list a journal_wait_steps entry
/// (absent: none known), and "journal": true for a journal's job (absent: false).
nlohmann::json ReplayEngineInputToJson(const ReplayEngineInput& input);
/// Reads ReplayEngineInputToJson's form back exactly; err names the key ("jobs[1].steps[3]: …"),
/// also for a step waiting for a step that does not exist or, in its own job, is not before it.
[[nodiscard]] bool ReplayEngineInputFromJson(const nlohmann::json& j, ReplayEngineInput* input,
                                             std::string* err);

/// What the engine did: per job, fio's shape (JobResult, clones 1), so the replay's records
/// hold the same per-process account whichever replayer ran.
struct ReplayEngineResult {
  std::vector<JobResult> jobs;  ///< in the input's order
  double seconds = 0;           ///< from the replay's start to its last completion, wall clock
  /// How long the readers' steps after a journal handle (ReplayJob::journal_wait_steps) were
  /// held while metadata writes were in flight, summed over the jobs: the waits the scheduler
  /// under test made of the capture's handles.
  double journal_wait_seconds = 0;
  /// Each wait rule's counter (replay_wait_rules.h), in the rules' order.
  std::vector<ReplayWaitCount> waits;
};

/// {"seconds", "jobs": [JobResultToJson], "journal_wait_seconds", "waits": [{"rule", "held",
/// "seconds"}]}; journal_wait_seconds and waits are optional when read (0, none).
nlohmann::json ReplayEngineResultToJson(const ReplayEngineResult& result);
[[nodiscard]] bool ReplayEngineResultFromJson(const nlohmann::json& j, ReplayEngineResult* result,
                                              std::string* err);

}  // namespace elevbench
