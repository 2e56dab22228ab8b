#pragma once
// The tiobench tables in the exact layouts of the 2003 posts (docs/legacy-suites.md):
// tiobench.pl's own layout (§1.4) and Nick Piggin's condensed layout from the seed posts (§1.5),
// including their quirks: the CPU% field is Perl's stringified number cut to five characters,
// and the column header appears only under the first section.

#include <string>

#include "harness/results/results_document.h"
#include "scenarios/tiobench/tiobench_records.h"

namespace elevbench {

/// Which table layout to print.
enum class TioLayout {
  kNick,      ///< Nick Piggin's condensed layout (the default): 15-char identifier, Lat% %.2f
  kTiobench,  ///< tiobench.pl 2002–2003: 28-char identifier, File/Blk columns, Lat% %.5f
};

/// Perl's stringification of a number ("%.15g") truncated to its first five characters, as
/// tiobench.pl's `@>>>>%` text field printed CPU% ("2.500", "0.488", "11.09").
std::string PerlCpuText(double cpu_pct);

/// A Perl format numeric field (`@##.##` …): `%width.decimalsf`. A number that does not fit
/// loses decimals, then widens the field ("1362.0", "12806"), where Perl's formline printed
/// `width` '#' characters; "inf" or "nan" right-aligned for a number that is not finite.
std::string PerlNumericField(double value, int width, int decimals);

/// One row in Nick's layout (75 characters for in-range values), without newline. The
/// identifier takes `width` characters (the seed's 15; RenderTiobenchTables widens it to the
/// longest identifier, so that no two rows are cut to the same text), cut beyond it as Perl's
/// format cut it.
std::string RenderNickRow(const std::string& identifier, uint32_t threads, const TioRowMetrics& m,
                          size_t width = 15);

/// One row in tiobench.pl's layout, without newline.
std::string RenderTiobenchRow(const std::string& identifier, uint64_t size_mb, uint32_t block_bytes,
                              uint32_t threads, const TioRowMetrics& m);

/// All four sections (unit information, then Sequential Reads, Random Reads, Sequential Writes,
/// Random Writes) of the aggregated `rows`, preceded by the environment header of `context`. A row
/// of no repetitions is a configuration whose cells all failed: "<identifier> <threads>  failed".
std::string RenderTiobenchTables(const nlohmann::json& context, const TiobenchParams& params,
                                 const std::vector<TioTableRow>& rows, TioLayout layout);

/// The suite's renderer (SuiteRenderer): `format` "nick" or "tiobench"; err when the records or
/// parameters of `doc` are not tiobench's. A configuration × thread count with cells but no
/// record (every cell failed) is a "failed" row in every section.
[[nodiscard]] bool RenderTiobenchReport(const ResultsDocument& doc, const std::string& format,
                                        std::string* text, std::string* err);

}  // namespace elevbench
