#include "reporters/failures_text.h"

#include <set>
#include <tuple>

#include "harness/results/cell_failures.h"

namespace elevbench {

std::vector<std::string> CellFailureLines(const ResultsDocument& doc) {
  std::vector<std::string> lines;
  for (const ConfigurationFailures& f : CellFailuresOf(doc)) {
    const std::string name = f.label.empty() || f.label == f.identifier
                                 ? f.identifier
                                 : f.label + " (" + f.identifier + ")";
    lines.push_back(name + ": " + CellFailuresText(f));
  }
  return lines;
}

std::vector<std::string> DnfReasonLines(const std::vector<Measurement>& measurements) {
  std::vector<std::string> lines;
  std::set<std::tuple<std::string, std::string, std::string, std::string>> seen;
  for (const Measurement& m : measurements) {
    if (m.status != "dnf" || m.reason.empty()) continue;
    if (!seen.insert({m.section, m.row, m.identifier, m.reason}).second) continue;
    const std::string name = m.label.empty() || m.label == m.identifier
                                 ? m.identifier
                                 : m.label + " (" + m.identifier + ")";
    const std::string where = m.row.empty() ? m.section : m.section + " " + m.row;
    lines.push_back(name + ", " + where + ": " + m.reason);
  }
  return lines;
}

std::string RenderCellFailuresText(const ResultsDocument& doc) {
  const std::vector<std::string> lines = CellFailureLines(doc);
  if (lines.empty()) return "";
  std::string text = "\nFailed cells:\n";
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

}  // namespace elevbench
