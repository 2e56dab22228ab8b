#pragma once
// `elevbench compare`'s text report: a header with the test, α, the threshold and the files,
// one aligned table row per compared row, a legend of the marks and the verdict counts:
//
//   Section   Row        Configuration  Metric     Base                New                 Change
//   p      Mark  Verdict seq_read  threads=1  6.18.44-dl     rate_mb_s  47.75 ±0.4% n=5     42.98
//   ±0.5% n=5     -9.99%   0.008  *     REGRESSION
//
// The mark follows mmtests and Google Benchmark's compare.py: "*" when p < α. The formatting
// helpers are shared with the JUnit reporter, so both say the same numbers the same way.

#include <cstddef>
#include <string>

#include "harness/compare/compare.h"

namespace elevbench {

/// A number with about four significant digits: "1620", "147.8", "47.75", "2.500", "0.9994",
/// "0.0812" (an exponent only below 0.0001); "inf".
std::string FormatCompareValue(double value);

/// One side of a row: "47.75 ±0.4% n=5" (the mean — harmonic for rates — and the half-width of
/// its 95 % interval relative to the mean), "10.00 (0 – 22.71) n=2" when "±" would reach below
/// 0 for values none of which is negative (IntervalNeedsEnds), "1.980 n=2 (no interval)" when
/// the interval is unbounded (never "±inf%"), "47.75 n=1" without spread, "no values" for
/// n = 0, "-" when the side has no such row. Fewer values than asked are said in the row's
/// note, not here.
std::string FormatCompareSide(const SampleSummary& summary, bool present);

/// "-9.99%", "+0.54%", "+inf%"; "-" without a change.
std::string FormatChange(const ComparisonRow& row);

/// "0.008", "<0.001"; "-" when no p-value.
std::string FormatPValue(const ComparisonRow& row);

/// The mark column: "*" significant, "n=1", "few" (too few values for p < α), "" otherwise.
std::string CompareMark(const ComparisonRow& row);

/// "identifier" when both sides name the same, "base -> new" when paired across identifiers,
/// the one side's identifier for a row on one side only.
std::string CompareConfigurationText(const ComparisonRow& row);

/// The footer's count of rows under `verdict`, by what their Verdict column shows: a row that
/// fails the gate as FAILED is not counted under its verdict but in CompareFailedRows, so the
/// counts add up to the rows. The JSON's `counts` are these too.
size_t CompareCountShown(const Comparison& comparison, Verdict verdict);

/// The rows that fail the gate as FAILED (cells failed or did not finish more often in new).
size_t CompareFailedRows(const Comparison& comparison);

/// The whole text report, ending in a newline.
std::string RenderCompareText(const Comparison& comparison);

}  // namespace elevbench
