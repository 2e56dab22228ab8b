#pragma once
// The table of suites: the composition root where each suite meets its renderer and its
// measurer. Everything that picks a suite by name goes through here: the CLI, the composite
// suites (post-2003), and the dispatch of `run`'s and `report`'s formats. The library below
// (harness/) never includes this header: the run loop, compare and the history are handed the
// suite, its measurer or its measurements instead (scripts/check-layers keeps it so).

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/run/suite.h"
#include "harness/stats/measurement.h"
#include "harness/stats/metric_table.h"
#include "harness/stats/plot_series.h"
#include "reporters/gnuplot.h"
#include "reporters/render.h"
#include "reporters/report_tables.h"
#include "scenarios/composite/composite_suite.h"

namespace elevbench {

/// Renders a results document of a suite in one of its text formats into *text.
using SuiteRenderer = bool (*)(const ResultsDocument& doc, const std::string& format,
                               std::string* text, std::string* err);

/// How `run SUITE` runs when the command line does not say: a suite defined by its setting
/// (post-2003 is "the 2003 disk, the 2003 box, DL/AS/CF/none") names it here, so that its one
/// command reproduces the post. Empty fields leave the run's own defaults.
struct SuiteRunDefaults {
  /// `--emulated` when no --dir, --scratch or --emulated is given; with it come `fs` and
  /// `machine` (a user who names a target chooses the machine too).
  std::string emulated;
  std::string fs;          ///< `--fs` of that default target, unless --fs is given
  std::string machine;     ///< `--machine` of that default target, unless --machine is given
  std::string schedulers;  ///< `--schedulers` unless given, whatever the target
};

/// One row of the table of suites.
struct SuiteEntry {
  const char* name;         ///< "tiobench": `elevbench run tiobench`, the results' "suite"
  const char* description;  ///< one line for --help
  std::unique_ptr<Suite> (*make)();
  std::vector<std::string> formats;  ///< text formats of its renderer, the default first
  SuiteRenderer render;
  /// Its records as tidy measurements, for statistics, compare, history and the generic
  /// formats (csv, md, html).
  SuiteMeasurer measure;
  /// What its HTML plots draw from its records beyond the measurements (latency histograms,
  /// throughput over time), aggregated by the suite; null for a suite with neither.
  SuitePlotSeries plot_series = nullptr;
  SuiteRunDefaults defaults = {};  ///< the suite's own setting; empty for most suites
  /// A small run of every phase in seconds (the words after `run NAME`, target left out): what
  /// scripts/killsweep stops at its kill points, and smoke tests run.
  const char* smoke_args = "";
  /// The size of the scratch or emulated device that smoke run needs.
  const char* smoke_size = "256M";
  /// The suite runs a program of the user's that may never end (run command): `--timeout`
  /// must then be a positive number of seconds, and `--timeout 0` (no limit) is refused.
  bool needs_timeout = false;
  /// `--lanes` (docs/lanes.md): the CPUs one lane of this suite needs (its cpuset; with
  /// `--machine cpus=N` a lane needs at least N), or 0 when the suite refuses lanes...
  int lane_cpus = 0;
  /// ...and then why, in the refusal's words ("its probes drop the machine's caches …").
  const char* lanes_refused = "it is not shown to measure in a lane what it measures alone";
  /// Its text tables name configurations by identifier ("6.18.44-ky"), not by label: the
  /// verdict under them does too (VerdictSettings::name_by_identifier).
  bool tables_show_identifiers = false;
};

/// A hidden `elevbench internal NAME` command: one iteration of a suite's repeated-command
/// load (contest's mem_load and process_load), which the suite starts as a child of its own.
struct InternalCommand {
  const char* name;
  const char* description;
  /// Adds the command's options to `cmd`; the returned function runs it once parsed: 0 done,
  /// 1 failed, 2 bad arguments, err saying why.
  std::function<int(std::string* err)> (*add)(CLI::App* cmd);
};

/// The table of internal commands.
const std::vector<InternalCommand>& AllInternalCommands();

/// The table of suites, in the order `--help` and `elevbench list suites` show them.
const std::vector<SuiteEntry>& AllSuites();

/// The entry named `name`, or null.
const SuiteEntry* FindSuite(const std::string& name);

/// The composite suites' view of the table (scenarios/composite/composite_suite.h): the part's
/// maker, measurer and lane CPUs; false for a suite this build does not know.
bool PartSuiteOfTable(const std::string& suite, PartSuite* out);

/// The measurer of the suite named `suite` as every view of the tidy layer uses it: the suite's
/// own measurements, then the request tracer's (harness/stats/trace_measurements.h) of the
/// document's traced cells. Null for a suite this build does not know. Hand it documents of
/// that suite only (it finds the suite's measurer by the document's suite).
SuiteMeasurer MeasurerOf(const std::string& suite);

/// The measurements of any results document, through MeasurerOf its suite. err for an unknown
/// suite, records the suite rejects, or a request trace that cannot be read.
[[nodiscard]] bool MeasurementsOf(const ResultsDocument& doc, std::vector<Measurement>* out,
                                  std::string* err);

/// What the HTML plots of any results document draw beyond its measurements: its suite's series
/// (SuiteEntry::plot_series), then the request tracer's groups of its traced cells. err for an
/// unknown suite or records the suite rejects.
[[nodiscard]] bool PlotSeriesOf(const ResultsDocument& doc, PlotSeries* out, std::string* err);
/// The metric rows of a results document: MeasurementsOf, then MetricRowsFrom.
[[nodiscard]] bool MetricRowsOf(const ResultsDocument& doc, std::vector<MetricRow>* rows,
                                std::string* err);

/// Renders `doc` as `format` into *text: the suite's text formats or "json" (what `run`
/// prints). An empty format is the suite's default. A text format ends with the verdict block
/// (a blank line, then reporters/verdict_text.h) unless `options.verdict` is false; json is the
/// document alone. err (one line) for an unknown suite, a format the suite does not print, or
/// records its renderer or measurer rejects.
[[nodiscard]] bool RenderResults(const ResultsDocument& doc, const std::string& format,
                                 const ReportOptions& options, std::string* text, std::string* err);

/// post-2003's renderer: reporters/post2003_text.h with each part printed by its own suite's
/// renderer (nick where the part has it).
[[nodiscard]] bool RenderPost2003Parts(const ResultsDocument& doc, const std::string& format,
                                       std::string* text, std::string* err);

/// The formats `run` can print for `suite`: its text formats, "json" last; empty for an unknown
/// suite.
std::string FormatChoices(const std::string& suite);

/// The formats `report` takes for `suite`: its text formats, then the generic ones
/// (reporters/render.h); empty for an unknown suite.
std::string ReportFormatChoices(const std::string& suite);

/// Renders several results files as `format` (`elevbench report FILE…`). The suite's text
/// formats and json print each file in turn, in the given order; for text formats with more
/// than one file each file's text is preceded by a line "==> NAME <==" and followed by a blank
/// line; json prints the documents one after another (a stream of JSON values, as jq reads).
/// md, csv, csv-summary and html combine all files into one document, from the measurements
/// this function makes with each file's suite. An empty format is each file's suite default.
/// err (one line, starting with the file's name when it has one) for a format a file's suite
/// does not print or a file whose records are malformed. `options` say whether the verdict
/// block is printed and how html draws its plots.
[[nodiscard]] bool RenderReport(std::vector<NamedResults> files, const std::string& format,
                                const ReportOptions& options, std::string* text, std::string* err);

}  // namespace elevbench
