#pragma once
// The request tracer of a run (`--trace-requests summary|full`): one private tracefs instance
// for the target device for the whole run, switched on for each cell; the cell's events are
// streamed into the work directory, analysed (request_analysis.h) into the cell's
// RequestTraceRecord, and kept compressed beside the fio job files. With `full`, the global `blk`
// tracer adds the scheduler's own log (bfq) and the instance kyber's events.
// docs/request-tracing.md.

#include <cstdint>
#include <optional>
#include <string>

#include "harness/core/trace_mode.h"
#include "harness/device/restore_journal.h"
#include "harness/results/request_trace_record.h"
#include "harness/trace/cell_tracer.h"
#include "harness/trace/tracefs.h"

namespace elevbench {

/// What to trace and where its files go.
struct RequestTracerOptions {
  TraceMode mode = TraceMode::kSummary;
  std::string disk;  ///< kernel name of the whole disk ("loop8"): /sys/block/<disk>
  uint32_t major = 0;
  uint32_t minor = 0;
  std::string work_dir;       ///< where each cell's raw events are kept (compressed)
  uint32_t buffer_kb = 8192;  ///< per-CPU ring of the instance
  int lane = -1;              ///< --lanes: the lane whose disk this traces (names the instance)
};

/// The run's tracer, handed to the session as SessionTarget::tracer.
class RequestTracer : public CellTracer {
 public:
  RequestTracer() = default;
  ~RequestTracer() override;  ///< Close() (never throws)

  /// Locates or mounts tracefs, makes the instance and (full) takes the global tracer, all
  /// journaled. err is one line; on failure nothing of it is left (the journal undoes the rest).
  [[nodiscard]] bool Open(RestoreJournal* journal, const RequestTracerOptions& options,
                          std::string* err);
  /// Gives the global tracer back and removes the instance. Idempotent.
  [[nodiscard]] bool Close(std::string* err);

  bool BeginCell(const std::string& label_prefix, std::string* err) override;
  void Phase(const std::string& name) override;
  std::optional<RequestTraceRecord> EndCell() override;

 private:
  RequestTraceRecord Analyse(const std::string& requests_file, const std::string& messages_file,
                             uint64_t lost, const std::string& problem) const;

  RestoreJournal* journal_ = nullptr;
  RequestTracerOptions options_;
  std::string tracefs_;
  TracefsInstance instance_;
  BlkTracer blk_;
  TracePipeReader requests_reader_;
  TracePipeReader messages_reader_;
  std::string requests_file_, messages_file_;
  uint64_t lost_before_ = 0;
  std::string problem_;  // why this cell's trace is incomplete, if it is
  bool in_cell_ = false;
};

/// The phase name a marker carries: a suite's progress description without a " run k/n" tail,
/// so the repeated runs of one phase land in one account.
std::string TracePhaseName(const std::string& description);

}  // namespace elevbench
