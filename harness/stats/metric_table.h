#pragma once
// Measurements grouped into rows: one row per suite × section × row key × configuration ×
// metric, with its sample summarised. What every statistical view (text n column, Markdown,
// CSV summary, HTML, compare, trend) starts from.

#include <cstdint>
#include <string>
#include <vector>

#include "harness/stats/measurement.h"
#include "harness/stats/statistics.h"

namespace elevbench {

/// One row of measurements over repetitions.
struct MetricRow {
  std::string suite;
  std::string section;
  std::string row;
  std::string identifier;
  std::string label;
  std::string scheduler;
  std::string control;  ///< the first non-empty Measurement::control of the row's measurements
  std::string kernel;   ///< the first non-empty Measurement::kernel of the row's measurements
  /// The first non-empty Measurement::configuration_label of the row's measurements ("AS" of a
  /// --kernels run's row); "" outside a --kernels run and in files written before the field.
  std::string configuration_label{};
  MetricInfo metric;
  std::vector<double> values;  ///< the "ok" values, in repetition order
  uint32_t not_measured = 0;   ///< repetitions without a number (DNF, failed)
  /// The distinct reasons of the repetitions without a number, when known (Measurement::reason).
  std::vector<std::string> reasons{};
  uint32_t requested = 0;  ///< repetitions the run asked for (0 when unknown)
  SampleSummary summary;   ///< of `values`
  /// Fewer numbers than repetitions asked: a failed cell, a DNF or an interrupted run. Printed
  /// with a mark, never silently.
  bool incomplete() const { return requested > 0 && values.size() < requested; }
};

/// Groups `measurements` into rows, in order of first appearance of each (section, row,
/// metric) and, inside that, configurations in `identifier_order` then others as they appear.
/// `requested` is the run's repetitions (the document's context "repetitions").
std::vector<MetricRow> TabulateMeasurements(const std::vector<Measurement>& measurements,
                                            const std::vector<std::string>& identifier_order,
                                            uint32_t requested);

/// Adds to `measurements` (a suite measurer's) a "failed" measurement, with the failed cell's
/// error as its reason, wherever a failure would otherwise leave a hole that reads as fewer
/// values: each repetition of a measured configuration in which one of its cells failed (every
/// row of that configuration), and each repetition of a configuration that has cells but not
/// one measurement (every row the others have). So every view — text, csv, the
/// verdict, compare's gate — lists a failure as a failure (second newcomer pass of #45:
/// `compare` passed its gate over 2 of 3 failed repetitions).
void AddFailedMeasurements(const ResultsDocument& doc, std::vector<Measurement>* measurements);

/// The rows of a results document from its `measurements` (its suite's measurer made them):
/// TabulateMeasurements with the document's identifier order and repetitions, after
/// AddFailedMeasurements.
std::vector<MetricRow> MetricRowsFrom(const ResultsDocument& doc,
                                      std::vector<Measurement> measurements);

}  // namespace elevbench
