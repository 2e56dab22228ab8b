#include "harness/results/cell_failures.h"

#include <algorithm>
#include <map>

namespace elevbench {

std::vector<ConfigurationFailures> CellFailuresOf(const ResultsDocument& doc) {
  std::vector<std::string> order = IdentifierOrder(doc);
  std::map<std::string, ConfigurationFailures> by_id;
  for (const CellRecord& cell : doc.cells) {
    ConfigurationFailures& f = by_id[cell.identifier];
    if (f.cells++ == 0) {
      f.identifier = cell.identifier;
      f.scheduler = cell.scheduler;
    }
    if (f.label.empty()) f.label = cell.label;
    if (cell.status == "failed") ++f.failed;
    if (cell.status == "interrupted") ++f.interrupted;
    const bool unfinished = cell.status == "failed" || cell.status == "interrupted";
    if (unfinished && !cell.error.empty() &&
        std::find(f.reasons.begin(), f.reasons.end(), cell.error) == f.reasons.end()) {
      f.reasons.push_back(cell.error);
    }
    if (std::find(order.begin(), order.end(), cell.identifier) == order.end()) {
      order.push_back(cell.identifier);
    }
  }
  std::vector<ConfigurationFailures> out;
  for (const std::string& id : order) {
    auto it = by_id.find(id);
    if (it == by_id.end() || it->second.failed + it->second.interrupted == 0) continue;
    const auto at = std::find(doc.identifiers.begin(), doc.identifiers.end(), id);
    const size_t i = static_cast<size_t>(at - doc.identifiers.begin());
    if (it->second.label.empty() && i < doc.labels.size()) it->second.label = doc.labels[i];
    out.push_back(std::move(it->second));
  }
  return out;
}

std::string CellFailuresText(const ConfigurationFailures& failures) {
  const std::string of = " of " + std::to_string(failures.cells) + " cells ";
  std::string text;
  if (failures.failed > 0) text = std::to_string(failures.failed) + of + "failed";
  if (failures.interrupted > 0) {
    if (!text.empty()) text += ", ";
    text += std::to_string(failures.interrupted) + of + "interrupted";
  }
  if (!failures.reasons.empty()) {
    text += " (";
    for (size_t i = 0; i < failures.reasons.size(); ++i) {
      if (i) text += "; ";
      text += failures.reasons[i];
    }
    text += ")";
  }
  return text;
}

}  // namespace elevbench
