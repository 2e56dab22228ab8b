#pragma once
// Rendering results documents in any format. A suite's own text formats come from its renderer
// in the table of suites; "json" and the generic formats (md, csv, csv-summary, html) work for
// every suite through the tidy measurements, so a new suite gets them without code of its own.

#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "reporters/gnuplot.h"
#include "reporters/report_tables.h"

namespace elevbench {

/// Renders `doc` as `format` into *text: the suite's text formats or "json" (what `run`
/// prints). An empty format is the suite's default. err (one line) for an unknown suite, a
/// format the suite does not print, or records its renderer rejects.
[[nodiscard]] bool RenderResults(const ResultsDocument& doc, const std::string& format,
                                 std::string* text, std::string* err);

/// The formats `run` can print for `suite`: its text formats, "json" last; empty for an unknown
/// suite.
std::string FormatChoices(const std::string& suite);

/// The formats every suite can be reported in besides its own: md, csv, csv-summary, html,
/// json.
const std::vector<std::string>& GenericFormats();

/// The formats `report` takes for `suite`: its text formats, then GenericFormats(); empty for
/// an unknown suite.
std::string ReportFormatChoices(const std::string& suite);

/// Renders several results files as `format` (`elevbench report FILE…`). The suite's text
/// formats and json print each file in turn, in the given order; for text formats with more
/// than one file each file's text is preceded by a line "==> NAME <==" and followed by a blank
/// line; json prints the documents one after another (a stream of JSON values, as jq reads).
/// md, csv, csv-summary and html combine all files into one document. An empty format is each
/// file's suite default. err (one line, starting with the file's name when it has one) for a format
/// a file's suite does not print or a file whose records are malformed. `gnuplot` is used by html.
[[nodiscard]] bool RenderReport(const std::vector<NamedResults>& files, const std::string& format,
                                const GnuplotOptions& gnuplot, std::string* text, std::string* err);

/// True for the formats RenderReport prints file by file (a suite's text formats, json, and the
/// empty default), false for md, csv, csv-summary and html, which combine the files. A caller
/// may then render each file alone and join the texts with FramePerFileText, holding one
/// document at a time instead of all of them.
bool IsPerFileFormat(const std::string& format);

/// One file's `text` as RenderReport prints it among `count` files in a per-file format: with
/// more than one file and a text format, between "==> NAME <==" and a blank line; else as is.
std::string FramePerFileText(const std::string& name, const std::string& text, size_t count,
                             const std::string& format);

}  // namespace elevbench
