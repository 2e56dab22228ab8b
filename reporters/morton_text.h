#pragma once
// Andrew Morton's nine tests in the style of his posts (lkml, 20-21 Feb 2003;
// docs/legacy-suites.md §4): one block per test (its subject line and what ran at this run's
// sizes), and in it one part per configuration label:
//
//   iosched: parallel streaming reads
//   ten 100 MB files read at once
//
//   AS:
//   cat 100-meg-file-4 > /dev/null  0.01s user 0.17s system 0% cpu 27.995 total
//   ...
//
// #1's lines are zsh `time` lines (the post's TIMEFMT, fastest first, as the shell printed them
// when each reader ended), #5's are bash `time` real lines ("real\t0m44.573s"), every other
// test is "AS: 12.34 seconds" with the load's throughput beside it. Times are means over the
// finished repetitions; DNF and failures are said in words.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "scenarios/morton/morton_records.h"

namespace elevbench {

/// Seconds as prose prints them: two decimals, more below 0.1 s so that two significant digits
/// remain ("12.34", "0.050", "0.0041"); "0.00" for zero.
std::string MortonSecondsText(double seconds);

/// The lines of one row (one label's part of a test block), each without newline: "AS:" and
/// the time lines for #1 and #5, "AS: 12.34 seconds (streaming writer 40.1 MB/s into the page
/// cache)" otherwise. A load's rate is its read()/write() calls' (buffered: the page cache
/// serves them), never the disk's: the records hold no device counters of the load's window.
std::vector<std::string> RenderMortonRow(const std::string& label, const MortonRow& row);

/// The whole report from aggregated rows (AggregateMortonRows order): the environment header of
/// `context`, "(means of N repetitions)" when rows cover more than one, then per test its block.
std::string RenderMortonText(const nlohmann::json& context, const std::vector<MortonRow>& rows);

/// The suite's renderer (SuiteRenderer): format "akpm" only. Rows without a label take
/// doc.labels' entry of their identifier, else print the identifier. err when the records are
/// not the morton suite's.
[[nodiscard]] bool RenderMortonReport(const ResultsDocument& doc, const std::string& format,
                                      std::string* text, std::string* err);

}  // namespace elevbench
