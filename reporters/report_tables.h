#pragma once
// The tables of the generic report formats (Markdown, HTML), made from the tidy layer
// (harness/stats/metric_table.h) so that they work for every suite: one table per suite
// section, one row per row key × configuration, one column per metric (headline metrics
// first), each cell "mean ± half-width of the 95 % CI" or a single value, with the count n and
// marks for what was not measured. Only the text of the cells is decided here; the markup is
// the renderer's.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/stats/measurement.h"
#include "harness/stats/plot_series.h"
#include "harness/stats/statistics.h"

namespace elevbench {

/// One results file of a report: the name it is shown under (the path given on the command
/// line; may be empty), its document, and its tidy measurements (its suite's measurer made them:
/// RenderReport in app/suites.h fills them for the generic formats).
struct NamedResults {
  std::string name;
  ResultsDocument doc;
  std::vector<Measurement> measurements;
  /// What its HTML plots draw beyond the measurements, aggregated by its suite and the tracer
  /// (app/suites.h PlotSeriesOf), filled by RenderReport for a format that draws plots (html);
  /// empty leaves those plots out.
  PlotSeries plots;
};

/// A column of a report table: one metric.
struct ReportColumn {
  MetricInfo metric;  ///< name, unit, direction, mean kind, headline
};

/// One cell: the number in words, or why there is none.
struct ReportCell {
  std::string text;      ///< "47.75 ± 0.31", "47.75", "DNF", "failed"
  size_t n = 0;          ///< numbers the cell is made of
  bool missing = false;  ///< no number at all (DNF, failed, not measured)
  bool differs = false;  ///< n differs from the row's n (the renderer shows the cell's own n)
};

/// One row: a configuration at one row key.
struct ReportRow {
  std::string row;                ///< the row key, "threads=4"; "" when the section has one row
  std::string identifier;         ///< "6.18.44-bfq-ll0"
  std::string label;              ///< "BFQ-LL0"; may be empty
  std::string scheduler;          ///< "bfq:low_latency=0"; "" when not switched
  size_t n = 0;                   ///< numbers of the first column (the row's headline)
  uint32_t requested = 0;         ///< repetitions the run asked for; 0 when unknown
  bool incomplete = false;        ///< some cell has fewer numbers than repetitions asked
  bool failed = false;            ///< no cell has a number: the configuration failed here
  std::vector<ReportCell> cells;  ///< one per column
};

/// One table: a section of a suite.
struct ReportTable {
  std::string suite;
  std::string section;          ///< "seq_read", "bench3", "cat-during-write"
  bool has_row_keys = false;    ///< some row has a non-empty row key (show the column)
  bool has_schedulers = false;  ///< some row has a scheduler (show the column)
  std::vector<ReportColumn> columns;
  std::vector<ReportRow> rows;
};

/// The tables of a file, sections in order of first appearance; inside a table, row keys in
/// order of first appearance and, per row key, configurations in IdentifierOrder.
std::vector<ReportTable> BuildReportTables(const NamedResults& file);

/// The header of a report from the document's context, as (field, value) pairs in reading
/// order: suite, file (when `name` is not empty), machine, host, kernel, target, devices, fio,
/// elevbench, started, repetitions, caches, complete, command. Fields the context lacks are
/// left out.
std::vector<std::pair<std::string, std::string>> ReportHeaderFields(const ResultsDocument& doc,
                                                                    const std::string& name);

/// A number for a table: four significant digits, no exponent below 10^7 ("336.8", "0.08100",
/// "1620", "47.75"); "inf" and "nan" for those.
std::string ReportNumber(double value);

/// A cell's number: "mean ± h" when the summary has a spread (h the half-width of its 95 %
/// interval, with as many decimals as the mean); "mean (low – high)" when "± h" would reach
/// below 0 for values none of which is negative (IntervalNeedsEnds); "mean (n=2: no interval)"
/// when the interval is unbounded; the mean alone otherwise. Never "± inf" (issue #29).
/// Precondition: summary.n > 0.
std::string ReportMeanText(const SampleSummary& summary);

/// The row's count in words: "2", or "1 of 2" when the row is incomplete or has fewer numbers
/// than the repetitions asked.
std::string ReportCountText(const ReportRow& row);

/// A column's unit and direction: "MB/s, ↑" (higher is better), "ms, ↓", "ratio".
std::string ReportColumnUnit(const MetricInfo& metric);

/// The legend lines under the tables: what ± means, which metrics use the harmonic mean, what
/// the marks mean. Plain text (the renderer escapes it).
std::vector<std::string> ReportLegend(const std::vector<ReportTable>& tables);

}  // namespace elevbench
