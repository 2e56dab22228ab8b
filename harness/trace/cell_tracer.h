#pragma once
// The seam between the session loop (harness/run/run_session.h) and a tracer of each cell's
// requests (request_tracer.h implements it; tests fake it). Here, below the run, so that the
// run includes the tracers and no tracer includes the run.

#include <optional>
#include <string>

#include "harness/results/request_trace_record.h"

namespace elevbench {

/// Traces the requests of each cell. The session calls BeginCell just before the suite runs a
/// cell, Phase at each phase the suite announces, and EndCell right after the cell, on every
/// path.
class CellTracer {
 public:
  virtual ~CellTracer() = default;
  /// Starts tracing; `label_prefix` ("cell003-") names the cell's files. A false return leaves
  /// the cell untraced (its record says why) but the cell still runs.
  virtual bool BeginCell(const std::string& label_prefix, std::string* err) = 0;
  /// Marks the start of a phase of the cell in the trace.
  virtual void Phase(const std::string& name) = 0;
  /// Stops tracing and returns the cell's request trace (none when no cell began).
  virtual std::optional<RequestTraceRecord> EndCell() = 0;
};

}  // namespace elevbench
