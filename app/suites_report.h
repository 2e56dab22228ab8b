#pragma once
// `elevbench report FILE…`, and the help of run's and report's --format: the results files
// rendered by the suite of each (suites.h). Nothing here prints.

#include <string>
#include <vector>

#include "reporters/render.h"

namespace elevbench {

/// "tiobench: nick, tiobench; nickbench: nick; …": every suite's text formats, from the table,
/// for the help of `run --format` and `report --format`.
std::string SuiteFormatsHelp();

/// The help of `report --format`: the suites' text formats and the generic ones.
std::string ReportFormatsHelp();

/// What `elevbench report FILE…` prints.
struct ReportText {
  std::string text;                     ///< the report, for stdout
  std::vector<std::string> unfinished;  ///< the files from unfinished runs, in the given order
};

/// Loads every file of `paths` and renders them as `format` (RenderReport). Per-file formats
/// are loaded and rendered file by file on every CPU, holding one document per thread instead
/// of all of them (1,000 files of 69 KB: 283 MB and page faults otherwise). False with the
/// first file's one-line error (in the given order) when a file cannot be read or rendered:
/// then nothing is to be printed.
[[nodiscard]] bool ReportResultsFiles(const std::vector<std::string>& paths,
                                      const std::string& format, const ReportOptions& options,
                                      ReportText* out, std::string* err);

}  // namespace elevbench
