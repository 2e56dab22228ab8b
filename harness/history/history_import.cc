#include "harness/history/history_import.h"

#include <memory>

#include "harness/history/run_facts.h"

namespace elevbench {
namespace {

// "3 ok, 1 failed, 0 interrupted, complete": a run's cells as the history keeps them.
std::string ImportCellsText(const HistoryRun& r) {
  return std::to_string(r.cells_ok) + " ok, " + std::to_string(r.cells_failed) + " failed, " +
         std::to_string(r.cells_interrupted) + " interrupted, " +
         (r.complete ? "complete" : "unfinished");
}

// The run of `doc` as the history holds it (same identity) when its cells differ: false when it
// holds none, or the same. *stored is that run.
bool ImportRecordedWithOtherCells(HistoryStore* store, const ResultsDocument& doc,
                                  const std::string& file, HistoryRun* stored, std::string* err) {
  const HistoryRun run = RunFactsOf(doc, file).run;
  std::vector<HistoryRun> runs;
  if (!store->ListRuns({run.suite, run.host, 0}, &runs, err)) return false;
  for (const HistoryRun& r : runs) {
    if (r.start_time != run.start_time || r.command_line != run.command_line) continue;
    *stored = r;
    return ImportCellsText(r) != ImportCellsText(run);
  }
  return false;
}

// One readable file into the history: refused (f->refused) when the history holds its run
// finished with other cells and `replace` is false; recorded otherwise, saying what an update
// replaced.
void ImportOneFile(HistoryStore* store, const ResultsDocument& doc, bool replace,
                   const HistoryMeasurer& measure, ImportedFile* f) {
  HistoryRun stored;
  std::string ignored;
  const bool other = ImportRecordedWithOtherCells(store, doc, f->file, &stored, &ignored);
  const std::string now = ImportCellsText(RunFactsOf(doc, f->file).run);
  if (other && stored.complete && !replace) {
    f->refused = true;
    f->err = "run " + std::to_string(stored.id) +
             " of the history is this run (same start time, host, suite and command line) with "
             "other cells (" +
             ImportCellsText(stored) + "; this file: " + now + "): --replace replaces it";
    return;
  }
  std::vector<Measurement> measurements;
  f->recorded = measure(doc, &measurements, &f->err) &&
                store->AppendRun(doc, measurements, f->file, &f->id, &f->outcome, &f->err);
  if (f->recorded && other && f->outcome == AppendOutcome::kUpdated) {
    f->err = "run " + std::to_string(f->id) + " had " + ImportCellsText(stored) + "; now " + now;
  }
}

}  // namespace

bool ImportFilesIntoHistory(const std::vector<std::string>& files, const std::string& db,
                            bool replace, const HistoryMeasurer& measure,
                            const std::function<void(const ImportedFile&)>& report,
                            std::string* err) {
  std::unique_ptr<HistoryStore> store;
  for (const std::string& file : files) {
    ImportedFile f;
    f.file = file;
    ResultsDocument doc;
    f.readable = LoadResultsFile(file, &doc, &f.err);
    if (f.readable) {
      const std::string location = db.empty() ? DefaultHistoryLocation(true) : db;
      if (store == nullptr && !OpenHistoryStore(location, /*create=*/true, &store, err)) {
        return false;
      }
      ImportOneFile(store.get(), doc, replace, measure, &f);
    }
    report(f);
  }
  return true;
}

std::string ImportedFileError(const ImportedFile& f) {
  if (f.recorded) return "";
  return f.readable ? f.file + ": " + f.err : f.err;
}

bool ImportedFileIsUsageError(const ImportedFile& f) {
  return !f.recorded && (f.refused || !f.readable);
}

}  // namespace elevbench
