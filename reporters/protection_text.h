#pragma once
// The protection report in words (harness/stats/protection.h): in every text format `run` and
// `report` print for a run with --controls, after the tables and before the verdict; in
// Markdown and HTML after the verdict. One table a section (and kernel):
//
//   Protection, cat-during-write (Elapsed time in s; the load in MB/s; each control against its
//   scheduler without one: U test two-sided, p < 0.05 with 4 or more values a side, threshold 5 %):
//   row        control            n    p50 s    p99 s  load MB/s  time vs none         load vs none
//   DL         none               4   231.00   238.10      38.20  baseline             baseline
//   DL+thr10M  throttle:load=10M  4    12.67    13.02       9.98  -94.5 % (p=0.029)    -73.9 %
//   (p=0.029) Best protection at the least cost: DL+thr10M (p50 12.67 s, load 9.98 MB/s).

#include <string>
#include <vector>

#include "harness/stats/protection.h"

namespace elevbench {

/// "Protection, cat-during-write (Elapsed time in s; …)": what the table is and how it judges.
std::string ProtectionHeading(const ProtectionTable& table, const VerdictSettings& settings);

/// The table's cells, the column names first: row, control, n, p50, p99, load, time vs none,
/// load vs none. Markdown and HTML escape and wrap them.
std::vector<std::vector<std::string>> ProtectionCells(const ProtectionTable& table,
                                                      const VerdictSettings& settings);

/// Which of ProtectionCells' columns hold numbers (right-aligned).
const std::vector<bool>& ProtectionNumericColumns();

/// One table's heading, rows and best line, each line ending in "\n".
std::string ProtectionTableText(const ProtectionTable& table, const VerdictSettings& settings);

/// A cell of the comparison columns: "baseline", "-94.5 % (p=0.029)", "no difference (p=0.343)",
/// "within 5 % (p=0.030)", "-12.0 % (n=2: not tested)", "not measured".
std::string ProtectionChangeText(const ProtectionRow& row, const ProtectionChange& change,
                                 const VerdictSettings& settings);

/// The best line: "Best protection at the least cost: X (p50 …, load …)." or "Best protection:
/// X (…); at the least cost: Y (…, no difference in time, p=…)."; "" without a best.
std::string ProtectionBestText(const ProtectionTable& table);

/// Every table, after a blank line each; "" when there is none (a run without controls).
std::string RenderProtectionText(const std::vector<ProtectionTable>& tables,
                                 const VerdictSettings& settings);

}  // namespace elevbench
