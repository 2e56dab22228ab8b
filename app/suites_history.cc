#include "app/suites_history.h"

#include <memory>

#include "app/suites.h"
#include "harness/history/run_facts.h"

namespace elevbench {

namespace {

// MeasurementsOf, its error said as the history's.
bool HistoryMeasurementsOf(const ResultsDocument& doc, std::vector<Measurement>* measurements,
                           std::string* err) {
  if (MeasurementsOf(doc, measurements, err)) return true;
  *err = "cannot read the measurements: " + *err;
  return false;
}

}  // namespace

bool RecordResultsInHistory(const std::string& out_path, const ResultsDocument& doc,
                            const std::string& location, std::string* err) {
  std::vector<Measurement> measurements;
  return HistoryMeasurementsOf(doc, &measurements, err) &&
         RecordRunInHistory(out_path, doc, measurements, location, err);
}

std::string RecordInHistoryNote(const std::string& what, const std::string& out_path,
                                const ResultsDocument& doc, const std::string& db,
                                bool no_history) {
  if (no_history || doc.cells.empty()) return "";
  const std::string location = db.empty() ? DefaultHistoryLocation(true) : db;
  std::string err;
  if (RecordResultsInHistory(out_path, doc, location, &err)) {
    return what + " recorded in the history " + RedactedLocation(location);
  }
  return what + " not recorded in the history: " + err + "; the results file is complete " +
         "('elevbench history import " + out_path + "' adds it later)";
}

namespace {

// "3 ok, 1 failed, 0 interrupted, complete": a run's cells as the history keeps them.
std::string HistoryCellsText(const HistoryRun& r) {
  return std::to_string(r.cells_ok) + " ok, " + std::to_string(r.cells_failed) + " failed, " +
         std::to_string(r.cells_interrupted) + " interrupted, " +
         (r.complete ? "complete" : "unfinished");
}

// The run of `doc` as the history holds it (same identity) when its cells differ: false when it
// holds none, or the same. *stored is that run.
bool RecordedWithOtherCells(HistoryStore* store, const ResultsDocument& doc,
                            const std::string& file, HistoryRun* stored, std::string* err) {
  const HistoryRun run = RunFactsOf(doc, file).run;
  std::vector<HistoryRun> runs;
  if (!store->ListRuns({run.suite, run.host, 0}, &runs, err)) return false;
  for (const HistoryRun& r : runs) {
    if (r.start_time != run.start_time || r.command_line != run.command_line) continue;
    *stored = r;
    return HistoryCellsText(r) != HistoryCellsText(run);
  }
  return false;
}

// One readable file into the history: refused (f->refused) when the history holds its run
// finished with other cells and `replace` is false; recorded otherwise, saying what an update
// replaced.
void ImportOneFile(HistoryStore* store, const ResultsDocument& doc, bool replace, ImportedFile* f) {
  HistoryRun stored;
  std::string ignored;
  const bool other = RecordedWithOtherCells(store, doc, f->file, &stored, &ignored);
  const std::string now = HistoryCellsText(RunFactsOf(doc, f->file).run);
  if (other && stored.complete && !replace) {
    f->refused = true;
    f->err = "run " + std::to_string(stored.id) +
             " of the history is this run (same start time, host, suite and command line) with "
             "other cells (" +
             HistoryCellsText(stored) + "; this file: " + now + "): --replace replaces it";
    return;
  }
  std::vector<Measurement> measurements;
  f->recorded = HistoryMeasurementsOf(doc, &measurements, &f->err) &&
                store->AppendRun(doc, measurements, f->file, &f->id, &f->outcome, &f->err);
  if (f->recorded && other && f->outcome == AppendOutcome::kUpdated) {
    f->err = "run " + std::to_string(f->id) + " had " + HistoryCellsText(stored) + "; now " + now;
  }
}

}  // namespace

bool ImportResultsFiles(const std::vector<std::string>& files, const std::string& db, bool replace,
                        const std::function<void(const ImportedFile&)>& report, std::string* err) {
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
      ImportOneFile(store.get(), doc, replace, &f);
    }
    report(f);
  }
  return true;
}

}  // namespace elevbench
