#include "reporters/orasim_text.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "reporters/environment_text.h"
#include "reporters/repetitions_text.h"
#include "reporters/suite_report.h"

namespace elevbench {

std::string RenderOrasimRow(const std::string& label, const std::vector<double>& scores) {
  std::string row = label + " -";
  for (size_t i = 0; i < scores.size(); ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s %.0f", i == 0 ? "" : ",", scores[i]);
    row += buf;
  }
  return row;
}

std::string RenderOrasimText(const nlohmann::json& context, const std::vector<OrasimRow>& rows) {
  std::ostringstream out;
  std::vector<uint32_t> repetitions;
  for (const OrasimRow& row : rows) {
    repetitions.insert(repetitions.end(), row.repetitions.begin(), row.repetitions.end());
  }
  const uint32_t requested = RequestedRepetitions(context);
  out << RenderEnvironmentHeader(context) << kOrasimHeading << "\n"
      << MeansLine(repetitions, "scores are harmonic means");
  for (const OrasimRow& row : rows) {
    const std::string& label = row.label.empty() ? row.identifier : row.label;
    if (row.scores.empty()) {  // no record: every cell failed
      out << label << " - failed\n";
      continue;
    }
    uint32_t fewest = 0;
    if (!row.repetitions.empty()) {
      fewest = *std::min_element(row.repetitions.begin(), row.repetitions.end());
    }
    out << RenderOrasimRow(label, row.scores) << ShortRowMark(fewest, requested) << "\n";
  }
  return out.str();
}

bool RenderOrasimReport(const ResultsDocument& doc, const std::string& format, std::string* text,
                        std::string* err) {
  return RenderSuiteReport(
      doc, format, {"orasim", {"nick"}}, OrasimRecordsFromDocument, AggregateOrasimRows,
      [&](std::vector<OrasimRow> rows) {
        InsertFailedRows(
            doc, "", &rows, [](const OrasimRow&, const nlohmann::json&) { return true; },
            [](const nlohmann::json&) { return OrasimRow{}; });
        return RenderOrasimText(doc.context, rows);
      },
      text, err);
}

}  // namespace elevbench
