#pragma once
// Follows every request through the elevator from the block events of one cell (block_events.h)
// and derives what a kernel engineer would read off blktrace + btt: Q2C (the whole life), I2D
// (time in the scheduler) and D2C (driver and device) per direction, process and phase;
// dispatches and *dispatch runs* (consecutive dispatches of one process: the signature of
// anticipation); the share of dispatches that seek and how far; merges, requeues; the number of
// requests waiting in the scheduler over time; the scheduler's own messages by kind.
//
// Matching, since no field names a request: a request is the extent [sector, sector + n) of one
// direction. At insert (or at issue, for a request that never went through the scheduler) it
// takes the queued bios inside its extent, and its queue time and process are the earliest of
// them; at issue it takes the inserted requests inside its extent (a request merged into
// another is issued as part of it); completion finds the issued request holding its sector,
// and a partial completion leaves the rest outstanding. docs/request-tracing.md has the rules
// and the JSON this produces.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "harness/results/request_trace_record.h"
#include "harness/trace/block_events.h"

namespace elevbench {

/// The account of one direction (reads or writes) of a cell, a process or a phase while the
/// events are read: the record's own members where they add up as they are, and full-resolution
/// histograms and raw sums where the record keeps a compact or a derived form.
struct DirectionTrace {
  /// requests, bytes, direct_issues, unmatched, dispatches, dispatch_run_lengths, merges and
  /// requeues, counted in place; its histograms and means are left to ToRecord.
  TraceDirection record;
  LatencyHistogram q2c;            ///< queue to completion, ns
  LatencyHistogram i2d;            ///< insert to dispatch: time in the scheduler, ns
  LatencyHistogram d2c;            ///< dispatch to completion: driver and device, ns
  uint64_t seeks = 0;              ///< dispatches not starting where the last ended
  double seek_sectors_sum = 0;     ///< over the seeks
  LatencyHistogram seek_distance;  ///< every dispatch after the first, in SECTORS (0 = none)

  double MeanDispatchRun() const;
  /// The record's account: `record` with the histograms compacted and the means and shares
  /// derived (mean_dispatch_run, seek_share, mean_seek_sectors, mean_request_kib; 0 without
  /// data).
  TraceDirection ToRecord() const;
};

/// Reads and writes of one process or phase.
struct DirectionPair {
  DirectionTrace read;
  DirectionTrace write;
  DirectionTrace& Of(TraceOp op) { return op == TraceOp::kWrite ? write : read; }
};

/// Everything derived from one cell's events.
struct RequestTraceSummary {
  /// The record's members that the events fill in as they are: events, dropped_events (set by
  /// the tracer from its counters), parse_errors, first_parse_error, flushes, duration_s, queued
  /// and the scheduler maps. Its directions, processes and phases are left to ToRecord.
  RequestTraceRecord record;
  DirectionPair all;
  std::map<int32_t, std::pair<std::string, DirectionPair>> processes;  ///< pid -> comm, account
  std::vector<std::pair<std::string, DirectionPair>> phases;           ///< in marker order

  /// The analysis part of the cell's request_trace record (summarised; no mode, complete or
  /// files: the tracer adds them); `processes` keeps the `max_processes` busiest and counts the
  /// rest in other_processes.
  RequestTraceRecord ToRecord(size_t max_processes = 16) const;
  /// RequestTraceRecordToJson(ToRecord(max_processes)): the golden summaries and the fuzzer.
  nlohmann::json ToJson(size_t max_processes = 16) const;
};

/// The kind of a bfq log message, for counting: "expire:preempted", "idle_armed",
/// "queue_merge", "merge_scheduled", "queue_split", "allocated", ... or its first words with the
/// numbers left out. `queue` receives the bfq queue it names ("6601S"), or nothing.
std::string SchedulerMessageKind(const std::string& text, std::string* queue);

/// Feeds events of one device in time order and summarises them. One per cell.
class RequestAnalyzer {
 public:
  RequestAnalyzer(uint32_t dev_major, uint32_t dev_minor);

  /// Takes one line of trace_pipe text; counts a parse error rather than failing.
  void AddLine(std::string_view line);
  /// Takes one parsed event; events of other devices and ignored kinds are skipped.
  void Add(const TraceEvent& e);
  /// The summary of everything added (requests still outstanding are not counted).
  RequestTraceSummary Finish();

 private:
  struct Pending {  // a bio queued but not yet part of a request
    uint64_t q_ns = 0;
    int32_t pid = 0;
    uint32_t sectors = 0;
  };
  struct Request {
    uint64_t q_ns = 0, i_ns = 0, d_ns = 0;
    int32_t pid = 0;
    uint32_t sectors = 0;       // outstanding extent
    uint32_t done_sectors = 0;  // completed by partial completions so far
    bool inserted = false;
    size_t phase = 0;
  };
  using Key = std::pair<int, uint64_t>;  // direction, start sector

  void OnBio(const TraceEvent& e);
  void OnInsert(const TraceEvent& e);
  void OnIssue(const TraceEvent& e);
  void OnComplete(const TraceEvent& e);
  void OnRequeue(const TraceEvent& e);
  void OnMarker(const TraceEvent& e);
  void OnMessage(const TraceEvent& e);
  bool TakeBios(int dir, uint64_t start, uint32_t sectors, Request* rq);
  bool TakeInserted(int dir, uint64_t start, uint32_t sectors, Request* rq);
  void Dispatch(TraceOp op, const Request& rq, uint64_t sector, uint32_t sectors);
  void CloseRun(TraceOp op);
  void Complete(TraceOp op, const Request& rq, uint64_t c_ns);
  void Queued(int64_t delta, uint64_t t_ns);
  std::vector<DirectionTrace*> Accounts(TraceOp op, int32_t pid, size_t phase);
  void RememberComm(int32_t pid, const std::string& comm);

  uint32_t major_, minor_;
  RequestTraceSummary s_;
  std::map<Key, Pending> bios_;
  std::map<Key, Request> inserted_;
  std::map<Key, Request> issued_;
  uint64_t first_ns_ = 0, last_ns_ = 0;
  bool any_ = false;
  uint64_t queued_ = 0, queued_since_ns_ = 0, queued_max_ = 0;
  double queued_area_ = 0;
  std::map<uint64_t, uint64_t> queued_buckets_;  // 100 ms bucket -> max
  bool have_last_end_ = false;
  uint64_t last_end_ = 0;
  struct Run {
    int32_t pid = -1;
    uint64_t length = 0;
    size_t phase = 0;
  } runs_[2];
  size_t phase_ = 0;  // 0 = before any marker; else index + 1 into s_.phases
  bool any_message_ = false;
  uint64_t first_message_ns_ = 0;
  std::string in_service_;  // the bfq queue last set in service, for queue-less messages
};

}  // namespace elevbench
