#pragma once
// The lines that name the configurations whose cells failed or were interrupted, with the
// reasons (harness/results/cell_failures.h): every suite's text formats end their tables with
// them, and the Markdown and HTML reports list them under each file's tables.

#include <string>
#include <vector>

#include "harness/results/results_document.h"

namespace elevbench {

/// One line per configuration with an unfinished cell: "6.18.44-ky: 6 of 6 cells failed (fio
/// failed (exit 1): planted failure)"; the label first when the document has one ("KY
/// (6.18.44-ky): …"). Empty when every cell finished.
std::vector<std::string> CellFailureLines(const ResultsDocument& doc);

/// "\nFailed cells:\n<line>\n…" for a suite's text format, or "" when every cell finished.
std::string RenderCellFailuresText(const ResultsDocument& doc);

}  // namespace elevbench
