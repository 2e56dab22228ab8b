#pragma once
// The dependent replayer (`run replay --replayer dependent`, docs/replay.md §3): the one place
// elevbench issues block I/O itself. It runs in a child process the replay suite forks per cell
// (`elevbench internal replay-engine`), so a cell's timeout kills it as it kills fio.
//
//   * One thread per traced process, each with its own io_uring (liburing), so the scheduler
//     sees separate submitters the way bfq and kyber key their queues (a thread made without
//     CLONE_IO has its own io_context, as a process has).
//   * Every I/O is IOSQE_ASYNC, issued by the ring's one io-wq worker (max workers 1), which
//     shares the thread's io_context (CLONE_IO): io_uring's inline attempt is non-blocking
//     (REQ_NOWAIT), and a bio that must be split (an I/O over max_sectors_kb, 128 on ide-2003)
//     or finds no free tag (the emulated disk has 4, and `none` no scheduler tags) fails with
//     EAGAIN and is retried by io-wq workers, in parallel and out of order. Measured on the
//     untar sample under none before this: twice the bios traced (the failed attempts) and the
//     span 1.80× the capture's (requests reached the disk in another order). One worker
//     blocking in order is what libaio's io_submit does in fio's job.
//   * O_DIRECT on the input's device, which must be a block device; every step must lie inside
//     it. Nothing else is opened for writing. A buffered writer's job (ReplayEngineJob::buffered)
//     is a thread of its own that writes through the same device's page cache
//     (replay_buffered_writer.h); one that writes until the readers end stops when every job
//     with a read step has ended.
//   * A step after_previous is submitted its think time after the step before it completed in
//     this replay; a step with after_job its think time after that job's step completed (the
//     completion that woke it in the capture, another thread's: replay_completions.h); any
//     other step at its due time after the replay's start (late ones at once); in order, at
//     most `depth` in flight. The plan's waits point to steps queued earlier in the capture,
//     so they form no cycle; any input's waits end at the deadline all the same. Flushes are
//     IORING_OP_FSYNC on the device over its first byte (a FLUSH, not a writeback of its page
//     cache), discards BLKDISCARD (synchronous, as fio's trim).
//   * Before a step goes, and before each of a buffered writer's writes, every wait rule must
//     let it (replay_wait_rules.h: a journal's log write holds the writers, a reader's step
//     after a journal handle waits for the metadata writes then in flight); each counts its
//     holds in the result's "waits".
//   * Every wait is bounded: ppoll on the thread's eventfd (its ring's completions and the
//     completions it waits for signal it) up to the next due time or the deadline;
//     past the deadline the engine stops issuing and fails (the parent also kills it at the cell's
//     timeout).
//   * Latency per I/O is submission to reaping in its thread (fio's clat in kind); the cell's
//     record of latency is the kernel's, from the tracefs account, whichever replayer ran.

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "scenarios/replay/replay_engine_input.h"

namespace elevbench {

/// Replays `input` and fills `result`. False with one line (the job, its step and the errno) on
/// an I/O error, a device that is not a block device or too small for a step, io_uring that
/// cannot be set up, or when `timeout_seconds` (> 0) passed before the last completion.
[[nodiscard]] bool RunReplayEngine(const ReplayEngineInput& input, double timeout_seconds,
                                   ReplayEngineResult* result, std::string* err);

/// Adds `internal replay-engine`'s options (--input FILE, --result FILE, --timeout S) to `cmd`;
/// the returned function reads the input, runs it and writes the result atomically: 0 done,
/// 1 failed, with err saying why.
std::function<int(std::string* err)> AddReplayEngineCommand(CLI::App* cmd);

}  // namespace elevbench
