#pragma once
// What the HTML report plots beyond the tidy measurements: latency histograms merged over
// repetitions (and streams) per configuration, and the per-second throughput of each stream of
// a multi-stream run. These live in the suites' own records, so this is the one place of the
// generic reports that knows suites: tiobench (a phase's per-call histogram), nickbench (its
// streams) and the probes (their loads' streams). A suite not named here still gets tables and
// the throughput and time plots made from its measurements.

#include <cstdint>
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

/// The latency groups of a document: sections in order of first appearance, and inside each its
/// subjects in order of first appearance; empty
/// for a suite without histograms. err when the suite's records are malformed.
[[nodiscard]] bool LatencyGroupsOf(const ResultsDocument& doc, std::vector<LatencyGroup>* groups,
                                   std::string* err);

/// The runs with more than one stream that logged throughput over time, sections in order of
/// first appearance and, inside each, configurations in the document's order; of each
/// configuration only its lowest repetition (time series are shown, not averaged). Empty for a
/// suite without streams.
[[nodiscard]] bool MultiStreamRunsOf(const ResultsDocument& doc, std::vector<StreamRun>* runs,
                                     std::string* err);

}  // namespace elevbench
