#pragma once
// `elevbench history import` below its command line: each results file read and appended to the
// history with the measurements its suite gives (the caller's: the library knows no table of
// suites, app/suites_history.h hands them in), a run the history holds finished with other
// cells refused unless --replace, and each file's outcome as the line and exit kind the CLI
// prints. Nothing here prints.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/history/history_store.h"
#include "harness/results/results_document.h"
#include "harness/stats/measurement.h"

namespace elevbench {

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

/// The measurements of a results document, as its suite reads them (the caller knows the
/// suites); false with err when they cannot be read.
using HistoryMeasurer = std::function<bool(
    const ResultsDocument& doc, std::vector<Measurement>* measurements, std::string* err)>;

/// `history import`: appends every readable file of `files` to the history at `db` ("" =
/// DefaultHistoryLocation) with the measurements `measure` gives, and gives `report` each file
/// as it went, in order. The history is opened (made) at the first readable file, so that a
/// refused import makes no file. A file whose run the history holds finished, with other
/// cells, replaces it only with `replace` (else it is refused: ImportedFile::refused); one
/// recorded unfinished is completed. False with err when the history cannot be opened: no file
/// after it is tried.
[[nodiscard]] bool ImportFilesIntoHistory(const std::vector<std::string>& files,
                                          const std::string& db, bool replace,
                                          const HistoryMeasurer& measure,
                                          const std::function<void(const ImportedFile&)>& report,
                                          std::string* err);

/// The error line of a file `history import` did not record ("FILE: why", or for a file that
/// could not be read its reader's error, which names it); empty when it was recorded.
std::string ImportedFileError(const ImportedFile& f);

/// True when a file that was not recorded is bad input (exit 2: unreadable, or refused without
/// --replace) rather than a history that could not take it (exit 1); false when recorded.
bool ImportedFileIsUsageError(const ImportedFile& f);

}  // namespace elevbench
