#pragma once
// `elevbench trace show FILE [--json]`: a block trace's header and summary
// (harness/trace/block_trace_summary.h) as text for people or as one JSON object for scripts.

#include <nlohmann/json.hpp>
#include <string>

#include "harness/trace/block_trace_file.h"
#include "harness/trace/block_trace_summary.h"

namespace elevbench {

/// The text of `trace show`: what was traced, then the totals, sizes, span, sequential share,
/// busiest second and a table of the processes (busiest first, at most `max_processes` rows and
/// a line for the rest).
std::string RenderBlockTraceText(const BlockTraceHeader& header, const BlockTraceSummary& summary,
                                 size_t max_processes = 20);

/// The same as JSON (every process).
nlohmann::json BlockTraceSummaryJson(const BlockTraceHeader& header,
                                     const BlockTraceSummary& summary);

}  // namespace elevbench
