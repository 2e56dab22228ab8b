#pragma once
// The request tracer's numbers as tidy measurements, for every suite: one section "request
// trace", one row per variant of the suite ("bench=3", "threads=4"), the means of the latency
// histograms and the dispatch and seek figures of each direction. They are not headline
// metrics: they explain a verdict, they are not one. The table of suites adds them to every
// suite's own measurements (app/suites.cc), so md, csv, html, compare and the history see
// them without a line in any suite's measurer. Also here: which cells a table row was measured
// in, for the verdict's evidence and the plots.

#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/stats/measurement.h"

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

/// A cell that was traced.
struct TracedCell {
  const CellRecord* cell = nullptr;           ///< in the document the list was made from
  const RequestTraceRecord* trace = nullptr;  ///< its request_trace
};

/// The cells of `doc` whose status is "ok" and that have a request_trace, in the document's
/// order. The pointers are into `doc`.
std::vector<TracedCell> TracedCellsOf(const ResultsDocument& doc);

/// The account of a table row: the phase named by its section or its row key when the trace has
/// one of that name (tiobench's sections are its phases), else the whole cell's. `*phase` (may
/// be null) gets the phase's name, or "" for the whole cell.
const TraceDirections& TraceAccountOf(const RequestTraceRecord& trace, const std::string& section,
                                      const std::string& row, std::string* phase);

/// Appends the trace measurements of every traced cell of `doc` to *out: per direction with
/// requests `<dir>_q2c_mean_ms`, `<dir>_i2d_mean_ms`, `<dir>_d2c_mean_ms` (lower is better),
/// `<dir>_mean_dispatch_run`, `<dir>_seek_share` (neither way is better: they describe), and
/// `queued_mean` and `dropped_events` of the cell. A cell that failed gives none (its rows
/// then have fewer numbers than repetitions, and say so). Nothing for a document without
/// traces. Cannot fail: the traces were read with the document.
void AppendRequestTraceMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out);

}  // namespace elevbench
