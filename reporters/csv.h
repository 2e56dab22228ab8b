#pragma once
// `--format csv` and `--format csv-summary`: tidy CSV for R, pandas, spreadsheets and SQL
// imports, for every suite through the tidy layer (harness/stats/).
//
//   csv          one measurement per line: file, suite, section, row, identifier, label,
//                scheduler, repetition, metric, unit, direction, value, status
//   csv-summary  one MetricRow per line: file, suite, section, row, identifier, label,
//                scheduler, metric, unit, direction, headline, requested, n, not_measured, mean,
//                mean_kind, stddev, cov, ci_low, ci_high, min, max
//
// RFC 4180 quoting (a field with a comma, a double quote, CR or LF is quoted, quotes doubled);
// lines end in LF. Numbers are the shortest text that reads back to the same double. What was
// not measured is an empty field, never 0: value for a status other than "ok"; every number of
// a row with n = 0; stddev, cov, ci_low and ci_high when n < 2. An unbounded interval end is
// empty too (never "inf", issue #29); ci_low of values none of which is negative is >= 0.

#include <string>
#include <vector>

#include "reporters/report_tables.h"

namespace elevbench {

/// One field, quoted as RFC 4180 requires (only when it has to be).
std::string CsvField(const std::string& text);

/// A number as the shortest decimal text that parses back to the same double ("0.1", "336.84",
/// "1e-05"); "inf", "-inf", "nan" for those.
std::string CsvNumber(double value);

/// The measurements of `files`, one per line under the header line. The file column is each
/// file's name. err (one line, naming the file) for an unknown suite or malformed records.
[[nodiscard]] bool RenderCsvReport(const std::vector<NamedResults>& files, std::string* text,
                                   std::string* err);

/// The rows over repetitions of `files` (MetricRowsOf), one per line under the header line.
[[nodiscard]] bool RenderCsvSummaryReport(const std::vector<NamedResults>& files, std::string* text,
                                          std::string* err);

}  // namespace elevbench
