#include "app/suites_history.h"

#include "app/suites.h"

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

bool ImportResultsFiles(const std::vector<std::string>& files, const std::string& db, bool replace,
                        const std::function<void(const ImportedFile&)>& report, std::string* err) {
  return ImportFilesIntoHistory(files, db, replace, HistoryMeasurementsOf, report, err);
}

}  // namespace elevbench
