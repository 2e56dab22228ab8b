#pragma once
// The tidy form of a results document: one measured number of one repetition per Measurement.
// Every suite maps its own records to this form (its `measure` function in the table of suites);
// statistics, `compare`, history, CSV, Markdown and HTML work on it and know no suite.

#include <cstdint>
#include <string>
#include <vector>

#include "harness/results/record_header.h"
#include "harness/results/results_document.h"

namespace elevbench {

/// Which way a change of the metric is an improvement; `compare` calls a change a regression
/// only in the other direction. kNeither is for numbers that describe rather than rank (an
/// ordered ratio such as nickbench's "reads per read", where 1 is fair and either side is not).
enum class Direction { kHigherIsBetter, kLowerIsBetter, kNeither };

/// How repetitions of a metric are averaged. Rates (MB/s, reads per write, IO rate) use the
/// harmonic mean as mmtests does, because the mean of a rate over equal amounts of work is the
/// harmonic one; times, latencies and CPU shares use the arithmetic mean.
enum class MeanKind { kArithmetic, kHarmonic };

/// What a metric is: its name in the results file, its unit, and how to read it.
struct MetricInfo {
  std::string name;  ///< the key in the suite's records: "rate_mb_s", "elapsed_seconds"
  std::string unit;  ///< "MB/s", "s", "ms", "%", "ratio"
  Direction direction = Direction::kHigherIsBetter;
  MeanKind mean = MeanKind::kArithmetic;
  /// A headline metric is what a verdict is about (tiobench's Rate, a probe's elapsed time,
  /// nickbench's metric and IO rate): `--repetitions auto` waits for these, compare shows them
  /// first and the HTML report plots them.
  bool headline = false;
  /// What a reader calls the metric: "Rate", "Reads per write", "Elapsed time". Every headline
  /// metric has one (issue #29: a verdict said "bench2 metric"); the verdict block and the
  /// Markdown and HTML tables use it, while CSV, JSON, compare's --metrics and the history keep
  /// `name`, the stable key. Empty for most other metrics: MetricDisplayName falls back to name.
  std::string display{};
  /// The rate of a buffered load: the page cache's, not the disk's (visave's writer, morton's
  /// streams: 12806 MB/s on a 49 MB/s disk). The text layouts say "into the page cache"; the
  /// Markdown and HTML tables mark the number "(page cache)" and the CSV formats have a
  /// page_cache column (issue 45), so that no view shows it as the disk's.
  bool page_cache = false;
  /// The load's throughput at the device beside a protected program (probes' `load_mb_s`,
  /// `command --load`'s `load_device_mb_s`): what the protection report (protection.h) weighs
  /// as the cost of a control. At most one such metric a section.
  bool load_throughput = false;
  /// The protected role's own measure where it is not a headline time (nickbench's readers'
  /// MB/s beside its writers): the protection report's protected metric in its section, beside
  /// the headline times it takes by default. At most one such metric a section.
  bool protected_measure = false;
};

/// The metric's name for a reader: `display`, or `name` when it has none.
inline const std::string& MetricDisplayName(const MetricInfo& metric) {
  return metric.display.empty() ? metric.name : metric.display;
}

/// The unit as an output without a units line must spell it: every MB elevbench measures is
/// 2^20 bytes, which the text, Markdown and HTML reports say once under their headers ("Units:
/// MB = 2^20 bytes (MiB)", the 2003 layouts' own spelling), but a CSV column, a JSON field or
/// a trend's title stands alone: there "MB/s" is "MiB/s" (#45: one unit convention).
std::string SpelledUnit(const std::string& unit);

/// One number measured in one repetition of one configuration, or the fact that it was not
/// measured (a DNF probe, a failed cell).
struct Measurement {
  std::string suite;       ///< "tiobench"
  std::string section;     ///< the table it belongs to: "seq_read", "bench3", "cat-during-write"
  std::string row;         ///< the row's key inside the section: "threads=4"; "" when one row
  std::string identifier;  ///< the configuration's table label, "6.18.44-bfq-ll0"
  std::string label;       ///< its short label, "BFQ-LL0" or the user's "AS"; may be empty
  std::string scheduler;   ///< the configuration, "bfq:low_latency=0"; "" when not switched
  uint32_t repetition = 0;
  MetricInfo metric;
  double value = 0;           ///< the number; meaningful only when status is "ok"
  std::string status = "ok";  ///< "ok", or why there is no number: "dnf", "failed"
  /// Why there is no number when it is known: a failed cell's error ("fio failed (exit 1):
  /// …", MetricRowsFrom's failed rows carry it) or a DNF's reason as the suite's text layout
  /// words it ("DNF after 10 minutes (read 22.9 MB of 45.8 MB, …)", set by the suite's
  /// measurer through RecordMeasurements::SetReason); "" otherwise.
  std::string reason{};
  /// The I/O control beside the scheduler (`run --controls`: "ionice:load=idle", "none"); ""
  /// in a run without --controls (RecordHeader::control).
  std::string control{};
  /// The row label of the kernel the record ran under (`run --kernels`: RecordHeader::kernel,
  /// "6.1.0-50-cloud"); "" on the host and in files written before the field.
  std::string kernel{};
  /// The configuration's own label, without its kernel's (`run --kernels`: "AS", "BFQ-LL0";
  /// RecordHeader::configuration_label); "" elsewhere and in files written before the field.
  std::string configuration_label{};
};

/// A suite's mapping of a results document to measurements (scenarios/<suite>/). err (one
/// line) when the document's records are not the suite's.
using SuiteMeasurer = bool (*)(const ResultsDocument& doc, std::vector<Measurement>* out,
                               std::string* err);

/// The measurements of one suite record, as a callable: `add(info, value)` appends a
/// Measurement carrying the record's suite, section, row, configuration, repetition and status,
/// so a suite's measurer names only its metrics. `add(info, value, status)` gives one number a
/// status of its own (a probe's start-up time is known although the probe did not finish).
class RecordMeasurements {
 public:
  RecordMeasurements(std::string suite, std::string section, const RecordHeader& header,
                     std::vector<Measurement>* out, std::string status = "ok");
  /// The row key of every later number ("run=2"); "" (the default) when the section has one.
  void SetRow(std::string row) { base_.row = std::move(row); }
  /// The reason of every later number without status "ok" (a DNF's "DNF after 20 minutes"),
  /// so that CSV and the Markdown and HTML reports give it as the text layout does (issue 45).
  void SetReason(std::string reason) { reason_ = std::move(reason); }
  void operator()(MetricInfo info, double value) const;
  void operator()(MetricInfo info, double value, const std::string& status) const;

 private:
  Measurement base_;
  std::string reason_;
  std::vector<Measurement>* out_;
};

/// "higher" / "lower" / "neither", for JSON, CSV and the docs.
const char* DirectionName(Direction direction);
/// "hmean" / "mean".
const char* MeanKindName(MeanKind kind);

}  // namespace elevbench
