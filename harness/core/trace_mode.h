#pragma once
// How much of a run's requests `--trace-requests` traces: the one enum the CLI parses the flag
// into (CLI11, once), the tracer is opened with and a cell's request_trace record names. In
// core/ because the record (harness/results/) may include nothing else of the project.

#include <string>

namespace elevbench {

/// How much to trace. kOff: nothing; kSummary: block events in a private instance; kFull: also
/// the scheduler's own log (global `blk` tracer) and its events.
enum class TraceMode { kOff, kSummary, kFull };

/// "off", "summary", "full": the flag's words, and what a results file records.
const char* TraceModeName(TraceMode mode);
/// The mode named by TraceModeName's word; false (and *mode untouched) for any other text.
[[nodiscard]] bool ParseTraceMode(const std::string& text, TraceMode* mode);

}  // namespace elevbench
