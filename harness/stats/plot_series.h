#pragma once
// What the HTML report plots beyond the tidy measurements, aggregated before any reporter sees
// it: latency histograms merged over repetitions (and streams) per configuration, the
// per-second throughput of each stream of a multi-stream run, and the request tracer's
// histograms merged over a configuration's traced cells. The suites that keep histograms or
// stream series in their records (tiobench, nickbench, probes) fill the first two with the
// collector and helpers here (their *_records.cc); the trace groups are the tracer's own, for
// every suite (TraceGroupsOf). The table of suites hands a file's series to the reporters
// (app/suites.h PlotSeriesOf), which only draw them (reporters/plots.h).

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "harness/results/results_document.h"
#include "harness/results/stream_result.h"

namespace elevbench {

/// The latencies of one kind of call in one section, one merged histogram per configuration.
struct LatencyGroup {
  std::string section;  ///< "seq_read", "bench2", "cat-during-write"
  std::string subject;  ///< what inside the section: "threads=2", "read streams", "load"
  /// Configurations in the document's order (IdentifierOrder), each with the histogram of
  /// every call of that kind over all its repetitions (and streams), merged by summing buckets.
  std::vector<std::pair<std::string, LatencyHistogram>> by_configuration;
};

/// The streams of one multi-stream run: one configuration's first repetition of a section.
struct StreamRun {
  std::string section;     ///< "bench6"
  std::string identifier;  ///< "6.18.44-dl"
  uint32_t repetition = 0;
  std::vector<StreamResult> streams;
};

/// One configuration's requests of one direction in one variant row, over all its traced cells.
struct TraceTotals {
  LatencyHistogram i2d;                      ///< inserted to dispatched: in the scheduler
  LatencyHistogram d2c;                      ///< dispatched to completed: in the device
  LatencyHistogram seek_distance;            ///< sectors from where the previous request ended
  std::map<uint64_t, uint64_t> run_lengths;  ///< dispatch-run length → runs of that length
};

/// A variant row × direction of the traced cells, its configurations in the document's order.
struct TraceGroup {
  std::string row;        ///< the cells' variant as a row key ("bench=3"), "" for none
  std::string direction;  ///< "read" or "write"
  std::vector<std::pair<std::string, TraceTotals>> by_configuration;
};

/// Everything a file's plots draw beyond its measurements.
struct PlotSeries {
  /// Sections in order of first appearance, subjects inside each likewise; empty for a suite
  /// without histograms.
  std::vector<LatencyGroup> latency_groups;
  /// Runs with more than one stream that logged throughput over time: sections in order of
  /// first appearance, inside each the configurations in the document's order, of each
  /// configuration only its lowest repetition (time series are shown, not averaged).
  std::vector<StreamRun> stream_runs;
  /// Rows in order of first appearance, reads before writes; empty when no cell was traced.
  std::vector<TraceGroup> trace_groups;
};

/// A suite's part of PlotSeries (latency groups, stream runs) from its records; err when the
/// records are not the suite's. A suite without histograms or stream series has none.
using SuitePlotSeries = bool (*)(const ResultsDocument& doc, PlotSeries* out, std::string* err);

/// Merges histograms by (section, subject) and configuration, in the order they are added.
class LatencyGroupCollector {
 public:
  /// Adds one histogram of configuration `identifier` to the group (section, subject).
  void Add(const std::string& section, const std::string& subject, const std::string& identifier,
           const LatencyHistogram& histogram);
  /// The groups with at least one call, configurations in `order` (IdentifierOrder); sections in
  /// order of first appearance, subjects inside each likewise. Leaves the collector empty.
  std::vector<LatencyGroup> Take(const std::vector<std::string>& order);

 private:
  using Key = std::pair<std::string, std::string>;
  std::map<Key, size_t> index_;
  std::vector<LatencyGroup> groups_;
  std::map<std::pair<Key, std::string>, LatencyHistogram> merged_;
};

/// True when `streams` are more than one and every one logged its throughput over time.
bool HasThroughputSeries(const std::vector<StreamResult>& streams);

/// Of `runs`, per (section, identifier) the run of the lowest repetition, ordered by section of
/// first appearance and then by `order` (IdentifierOrder).
std::vector<StreamRun> FirstRunOfEachConfiguration(std::vector<StreamRun> runs,
                                                   const std::vector<std::string>& order);

/// The request tracer's groups of `doc`: its traced cells (TracedCellsOf) merged per variant
/// row, direction with requests and configuration.
std::vector<TraceGroup> TraceGroupsOf(const ResultsDocument& doc);

}  // namespace elevbench
