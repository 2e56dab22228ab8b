#include "reporters/render.h"

#include "harness/run/suite.h"

namespace elevbench {

std::string FormatChoices(const std::string& suite) {
  const SuiteEntry* entry = FindSuite(suite);
  if (entry == nullptr) return "";
  std::string choices;
  for (const std::string& f : entry->formats) choices += f + ", ";
  return choices + "json";
}

bool RenderResults(const ResultsDocument& doc, const std::string& format, std::string* text,
                   std::string* err) {
  const SuiteEntry* entry = FindSuite(doc.suite);
  if (entry == nullptr) {
    *err = "unknown suite '" + doc.suite + "' (this elevbench knows no renderer for it)";
    return false;
  }
  if (format == "json") {
    *text = ResultsToJson(doc).dump(2) + "\n";
    return true;
  }
  const std::string chosen = format.empty() ? entry->formats.front() : format;
  bool known = false;
  for (const std::string& f : entry->formats) known = known || f == chosen;
  if (!known) {
    *err = "unknown --format '" + chosen + "' for " + doc.suite + " (" + FormatChoices(doc.suite) +
           ")";
    return false;
  }
  return entry->render(doc, chosen, text, err);
}

}  // namespace elevbench
