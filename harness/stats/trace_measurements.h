#pragma once
// The request tracer's numbers as tidy measurements, for every suite: one section "request
// trace", one row per variant of the suite ("bench=3", "threads=4"), the means of the latency
// histograms and the dispatch and seek figures of each direction. They are not headline
// metrics: they explain a verdict, they are not one. The table of suites adds them to every
// suite's own measurements (scenarios/suites.cc), so md, csv, html, compare and the history see
// them without a line in any suite's measurer. Also here: which cells a table row was measured
// in, for the verdict's evidence and the plots.

#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/stats/measurement.h"
#include "harness/stats/trace_reader.h"

namespace elevbench {

/// The section of every trace measurement.
inline constexpr const char* kRequestTraceSection = "request trace";

/// A cell's variant key as a row key: its members as "name=value" in the key's order, joined
/// by a space ("bench=3", "threads=4", "part=tiobench threads=1"); "" for an empty key.
std::string VariantText(const nlohmann::json& variant);

/// Whether a table row of `suite` (section, row key) was measured in the cells of `variant`.
/// The suites name their rows after their variants, each member of the key being named in one
/// of three ways: "threads=4" as a row key (tiobench, orasim), "bench3" as a section (nickbench,
/// morton), or the value alone as a section ("cat-during-write", contest's "io_load") or as the
/// suite (a part of post-2003). Every member must be named; an empty key names every row.
bool VariantNamesRow(const nlohmann::json& variant, const std::string& suite,
                     const std::string& section, const std::string& row);

/// A cell that was traced, with its trace read.
struct TracedCell {
  const CellRecord* cell = nullptr;  ///< in the document the list was made from
  RequestTrace trace;
};

/// The cells of `doc` whose status is "ok" and whose request_trace is not null, in the
/// document's order, their traces read. err ("cells[3]: request_trace.read.q2c: …") for a trace
/// that cannot be read.
[[nodiscard]] bool TracedCellsOf(const ResultsDocument& doc, std::vector<TracedCell>* out,
                                 std::string* err);

/// Appends the trace measurements of every traced cell of `doc` to *out: per direction with
/// requests `<dir>_q2c_mean_ms`, `<dir>_i2d_mean_ms`, `<dir>_d2c_mean_ms` (lower is better),
/// `<dir>_mean_dispatch_run`, `<dir>_seek_share` (neither way is better: they describe), and
/// `queued_mean` and `dropped_events` of the cell. A cell that failed gives none (its rows
/// then have fewer numbers than repetitions, and say so). Nothing for a document without
/// traces. err as TracedCellsOf.
[[nodiscard]] bool AppendRequestTraceMeasurements(const ResultsDocument& doc,
                                                  std::vector<Measurement>* out, std::string* err);

}  // namespace elevbench
