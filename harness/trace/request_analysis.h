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

/// The account of one direction (reads or writes) of a cell, a process or a phase.
struct DirectionTrace {
  uint64_t requests = 0;       ///< completed requests
  uint64_t bytes = 0;          ///< their bytes
  uint64_t direct_issues = 0;  ///< issued without an insert (none's direct issue): I2D = 0
  uint64_t unmatched = 0;      ///< completions whose queue or issue the trace did not see
  LatencyHistogram q2c;        ///< queue to completion, ns
  LatencyHistogram i2d;        ///< insert to dispatch: time in the scheduler, ns
  LatencyHistogram d2c;        ///< dispatch to completion: driver and device, ns
  uint64_t dispatches = 0;
  std::map<uint64_t, uint64_t> run_lengths;  ///< dispatch-run length -> how many runs
  uint64_t seeks = 0;                        ///< dispatches not starting where the last ended
  double seek_sectors_sum = 0;               ///< over the seeks
  LatencyHistogram seek_distance;  ///< every dispatch after the first, in SECTORS (0 = none)
  uint64_t merges = 0;             ///< bio back/front merges and request merges
  uint64_t requeues = 0;

  double MeanDispatchRun() const;
  /// The record's account: the counts and histograms, and the means and shares derived from
  /// them (mean_dispatch_run, seek_share, mean_seek_sectors, mean_request_kib; 0 without data).
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
  uint64_t events = 0;          ///< block events of the device, markers and messages read
  uint64_t dropped_events = 0;  ///< lost by the kernel (set by the tracer from its counters)
  uint64_t parse_errors = 0;    ///< lines that did not parse
  std::string first_parse_error;
  uint64_t flushes = 0;  ///< flush requests (no data), not in the directions
  DirectionPair all;
  std::map<int32_t, std::pair<std::string, DirectionPair>> processes;  ///< pid -> comm, account
  std::vector<std::pair<std::string, DirectionPair>> phases;           ///< in marker order
  double queued_mean = 0;  ///< requests waiting in the scheduler, time-weighted over the trace
  uint64_t queued_max = 0;
  std::vector<std::pair<double, uint64_t>> queued_series;  ///< (s from the first event, max)
  double duration_s = 0;                                   ///< first to last event
  std::map<std::string, uint64_t> scheduler_messages;      ///< kind -> count (`full`)
  /// bfq queue ("6601S", the pid and its sync/async letter) -> kind -> count (`full`).
  std::map<std::string, std::map<std::string, uint64_t>> scheduler_queues;
  std::map<std::string, uint64_t> scheduler_events;  ///< kyber_* event -> count
  /// When the decisions that change a cell's course first happened (queue_merge,
  /// merge_scheduled, queue_split, idle_armed), in seconds from the cell's first scheduler
  /// message (the global tracer's clock is not the instance's, so not from its first event).
  std::map<std::string, double> scheduler_first_s;

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
  uint64_t queued_ = 0, queued_since_ns_ = 0;
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
