#pragma once
// `run replay`'s report: what was replayed, one line per configuration (wall time, rate, the
// read and write latency's p50/p99/p99.9 over every I/O of every repetition, the lag's p99 and
// whether the replay kept time), then the per-process job table (reporters/job_table.h), then
// whether every cell replayed exactly the trace's I/Os.

#include <string>

#include "harness/results/results_document.h"

namespace elevbench {

/// The suite's renderer (SuiteRenderer): format "table" only.
[[nodiscard]] bool RenderReplayReport(const ResultsDocument& doc, const std::string& format,
                                      std::string* text, std::string* err);

}  // namespace elevbench
