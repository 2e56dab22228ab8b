#include "reporters/failures_text.h"

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

std::string RenderCellFailuresText(const ResultsDocument& doc) {
  const std::vector<std::string> lines = CellFailureLines(doc);
  if (lines.empty()) return "";
  std::string text = "\nFailed cells:\n";
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

}  // namespace elevbench
