#pragma once
// The lines that name the configurations whose cells failed or were interrupted, with the
// reasons (harness/results/cell_failures.h): every suite's text formats end their tables with
// them, and the Markdown and HTML reports list them under each file's tables.

#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/stats/measurement.h"

namespace elevbench {

/// One line per configuration with an unfinished cell: "6.18.44-ky: 6 of 6 cells failed (fio
/// failed (exit 1): planted failure)"; the label first when the document has one ("KY
/// (6.18.44-ky): …"). Empty when every cell finished.
std::vector<std::string> CellFailureLines(const ResultsDocument& doc);

/// One line per configuration, section and distinct reason of the measurements that did not
/// finish (status "dnf" with a reason, which the suite's measurer gives as its text layout words
/// it): "DL (6.18.44-DL), cat-during-write: DNF after 10 minutes (read 22.9 MB of 45.8 MB, …)",
/// in order of first appearance. The Markdown and HTML reports list them under the tables, as
/// they list the failed cells, so a DNF cell has its reason in every format (issue 45).
std::vector<std::string> DnfReasonLines(const std::vector<Measurement>& measurements);

/// For a document of an unfinished run (`complete` false: interrupted, or still running), the
/// line that says its tables are partial: "Unfinished run: 4 of 8 cells ran; rows below are only
/// those", the 8 being configurations × the variants seen × the repetitions asked ("the run
/// stopped after 4 cells" when the cells that ran are all it can tell of). Why: a killed run's
/// missing rows and its verdict ("the only configuration") read as a finished run's, and the
/// stderr note does not reach a pasted report (issue 45). "" for a complete document, and for
/// one without cells (not a run's: a seed's rows rendered alone stay byte for byte the seed's).
std::string UnfinishedRunLine(const ResultsDocument& doc);

/// `text`, a suite's text format, with UnfinishedRunLine as the last line of its environment
/// header (before the blank line that ends it; first, followed by a blank line, when the
/// context gives no header). `text` unchanged for a complete document.
std::string WithUnfinishedRunLine(const ResultsDocument& doc, std::string text);

/// "\nFailed cells:\n<line>\n…" for a suite's text format, or "" when every cell finished.
std::string RenderCellFailuresText(const ResultsDocument& doc);

}  // namespace elevbench
