#pragma once
// The run history's work that needs the table of suites (suites.h): a results file recorded with
// the measurements of its suite, at the end of `run` and `merge` and by `history import`.
// Nothing here prints.

#include <functional>
#include <string>
#include <vector>

#include "harness/history/history_import.h"
#include "harness/history/history_store.h"
#include "harness/results/results_document.h"

namespace elevbench {

/// Records the results file at `out_path` (`doc`) in the history at `location` with the
/// measurements of its suite (RecordRunInHistory), as the end of `run` does. False with err
/// when they cannot be read or the run could not be recorded.
[[nodiscard]] bool RecordResultsInHistory(const std::string& out_path, const ResultsDocument& doc,
                                          const std::string& location, std::string* err);

/// The end of `run` and `merge`: records the results file at `out_path` (`doc`) in the history
/// at `db` ("" = DefaultHistoryLocation) with RecordResultsInHistory, unless `no_history` or
/// `doc` has no cells. The note that says so, or why not, naming `what` ("run", "merged run");
/// empty when nothing was tried. Never a failure: the results file is already complete.
std::string RecordInHistoryNote(const std::string& what, const std::string& out_path,
                                const ResultsDocument& doc, const std::string& db, bool no_history);

/// `history import`: ImportFilesIntoHistory (harness/history/history_import.h) with the
/// measurements of each file's suite: every readable file of `files` appended to the history
/// at `db` ("" = DefaultHistoryLocation), `report` given each file as it went, in order; a run
/// the history holds finished with other cells replaced only with `replace`. False with err
/// when the history cannot be opened.
[[nodiscard]] bool ImportResultsFiles(const std::vector<std::string>& files, const std::string& db,
                                      bool replace,
                                      const std::function<void(const ImportedFile&)>& report,
                                      std::string* err);

}  // namespace elevbench
