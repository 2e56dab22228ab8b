#include "reporters/suite_report.h"

#include <algorithm>

namespace elevbench {

bool CheckSuiteFormat(const SuiteFormats& wanted, const std::string& format, std::string* err) {
  if (std::find(wanted.formats.begin(), wanted.formats.end(), format) != wanted.formats.end()) {
    return true;
  }
  std::string names;
  for (const std::string& name : wanted.formats) names += (names.empty() ? "" : " or ") + name;
  *err = wanted.suite + " results print as " + names + ", not '" + format + "'";
  return false;
}

void LabelFromDocument(const ResultsDocument& doc, const std::string& identifier,
                       std::string* label) {
  const auto it = std::find(doc.identifiers.begin(), doc.identifiers.end(), identifier);
  const size_t i = static_cast<size_t>(it - doc.identifiers.begin());
  if (label->empty() && i < doc.labels.size()) *label = doc.labels[i];
}

std::vector<std::pair<std::string, nlohmann::json>> CellVariantKeys(const ResultsDocument& doc,
                                                                    const std::string& field) {
  std::vector<std::pair<std::string, nlohmann::json>> keys;
  for (const CellRecord& cell : doc.cells) {
    nlohmann::json value;
    if (!field.empty() && cell.variant.is_object() && cell.variant.contains(field)) {
      value = cell.variant[field];
    }
    std::pair<std::string, nlohmann::json> key{cell.identifier, std::move(value)};
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
  }
  return keys;
}

}  // namespace elevbench
