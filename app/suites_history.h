#pragma once
// The run history's work that needs the table of suites (suites.h): a results file recorded with
// the measurements of its suite, at the end of `run` and `merge` and by `history import`.
// Nothing here prints.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

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

/// How one file of `history import` went.
struct ImportedFile {
  std::string file;
  bool readable = false;  ///< false: err says why the file could not be read
  bool recorded = false;  ///< false when readable: err says why it was not recorded
  /// The history holds this run (same identity) finished, with other cells, and --replace was
  /// not given: nothing was written; err says what differs.
  bool refused = false;
  std::string err;  ///< also, when recorded as kUpdated, what the update replaced
  int64_t id = 0;   ///< the run's id in the history, when recorded
  AppendOutcome outcome = AppendOutcome::kAdded;
};

/// `history import`: appends every readable file of `files` to the history at `db` ("" =
/// DefaultHistoryLocation) with the measurements of its suite, and gives `report` each file as
/// it went, in order. The history is opened (made) at the first readable file, so that a
/// refused import makes no file. A file whose run the history holds finished, with other
/// cells, replaces it only with `replace` (else it is refused: ImportedFile::refused); one
/// recorded unfinished is completed. False with err when the history cannot be opened: no file
/// after it is tried.
[[nodiscard]] bool ImportResultsFiles(const std::vector<std::string>& files, const std::string& db,
                                      bool replace,
                                      const std::function<void(const ImportedFile&)>& report,
                                      std::string* err);

}  // namespace elevbench
