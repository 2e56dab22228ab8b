#pragma once
// The table of the generic report formats: json for every suite, and md, csv, csv-summary and
// html, which are made from the tidy measurements (harness/stats/) and so work for every suite
// without code of its own. A suite's own text formats are in the table of suites
// (app/suites.h), which dispatches between the two.

#include <string>
#include <vector>

#include "reporters/gnuplot.h"
#include "reporters/report_tables.h"

namespace elevbench {

/// What `run` and `report` print beside the tables, whatever the format.
struct ReportOptions {
  GnuplotOptions gnuplot;  ///< how html draws its plots
  /// The verdict block (reporters/verdict_text.h): last in a suite's text formats, first in md
  /// and html. `--no-verdict` leaves it out, for posting a table as the 2003 posts had it.
  bool verdict = true;
};

/// One generic format: its name, whether it prints each file on its own, and its renderer.
struct ReportFormat {
  const char* name;  ///< "md": `report --format md`
  /// Prints file by file (json), so a caller may render each file alone and join the texts with
  /// FramePerFileText, holding one document at a time; the others combine all files into one.
  bool per_file;
  /// Draws plots (html): the files must come with their plot series (NamedResults::plots) as
  /// well as their measurements; the others read only the measurements.
  bool plots;
  /// Renders `files` (with their measurements) into *text; err (one line) names the file.
  bool (*render)(const std::vector<NamedResults>& files, const ReportOptions& options,
                 std::string* text, std::string* err);
};

/// The generic formats, in the order help texts list them: md, csv, csv-summary, html, json.
const std::vector<ReportFormat>& GenericReportFormats();

/// The generic format named `name`, or null.
const ReportFormat* FindGenericReportFormat(const std::string& name);

/// True for the formats RenderReport prints file by file (a suite's text formats, json, and the
/// empty default), false for the generic formats that combine the files.
bool IsPerFileFormat(const std::string& format);

/// One file's `text`, the `index`th of `count`, as RenderReport prints it in a per-file format:
/// with more than one file, a text format between "==> NAME <==" and a blank line, and json as
/// an element of one JSON array ("[" before the first document, "," between, "]" after the
/// last); with one file, as is.
std::string FramePerFileText(const std::string& name, const std::string& text, size_t index,
                             size_t count, const std::string& format);

}  // namespace elevbench
