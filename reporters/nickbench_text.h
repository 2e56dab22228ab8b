#pragma once
// nickbench's report in the layout of Nick Piggin's posts (docs/legacy-suites.md §3,
// seed 000, 27 Mar 2003):
//
//   nickbench (IO rate is total combined throughput)
//   Bench 2 - 2 threads, streaming reader and streaming writer
//   DL - IO Rate: 33.36 MB/s, Reads per write: 0.08
//
// one title line per bench, one row per label; no blank lines. Bench 5's row alone departs from
// the seed: "CPU time per MiB: 4732.421875 us/MiB" where the seed mislabelled the same number
// "CPU time per byte: … us/B". Fairness and the streams stay in
// the JSON.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "scenarios/nickbench/nickbench_records.h"

namespace elevbench {

/// The first line of the report.
inline constexpr char kNickbenchHeading[] = "nickbench (IO rate is total combined throughput)";

/// A bench's metric value as the seed printed it: Benches 2–4 "%.2f" ("0.08", "1.00"), Bench 6
/// "%.2g" ("0.95", "0.5", and "1" for 1.0, "0.12" for 0.123). Bench 5 keeps the seed's "%f" but
/// with the true unit, "4732.421875 us/MiB": the seed printed "us/B" for what is CPU µs per MiB
/// (docs/legacy-suites.md §3), and a reader must not take it for µs per byte (issue #29).
std::string NickbenchMetricText(int bench, double metric);

/// One row without newline: "<label> - IO Rate: %.2f MB/s, <metric name>: <value>"; a rate
/// above what the disk can do (`disk_mb_s`, 0 = unknown) reads "MB/s (page cache)".
std::string RenderNickbenchRow(const std::string& label, int bench, double io_rate_mb_s,
                               double metric, double disk_mb_s = 0);

/// The whole report from aggregated rows (in AggregateNickbenchRows order): the environment
/// header of `context`, the heading, "(means of N repetitions)" when rows average more than one
/// repetition, then per bench its title and its rows. A row without a label prints its
/// identifier; a row of no repetitions (every cell of the bench failed) "LABEL - failed".
std::string RenderNickbenchText(const nlohmann::json& context,
                                const std::vector<NickbenchRow>& rows);

/// The suite's renderer (SuiteRenderer): format "nick" only. Rows without a label in their
/// records take doc.labels' entry of their identifier. err when the records are not nickbench's.
[[nodiscard]] bool RenderNickbenchReport(const ResultsDocument& doc, const std::string& format,
                                         std::string* text, std::string* err);

}  // namespace elevbench
