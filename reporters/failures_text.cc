#include "reporters/failures_text.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "harness/core/json_fields.h"
#include "harness/results/cell_failures.h"
#include "reporters/environment_text.h"

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

std::string UnfinishedRunLine(const ResultsDocument& doc) {
  // No cells: not a run's file (a seed's rows, a document built in memory), nothing to say.
  if (doc.complete || doc.cells.empty()) return "";
  size_t ran = 0;
  uint32_t repetitions = 0;
  std::set<std::string> variants;
  for (const CellRecord& cell : doc.cells) {
    if (cell.status != "interrupted") ++ran;
    variants.insert(cell.variant.dump());
    repetitions = std::max(repetitions, cell.repetition + 1);
  }
  uint32_t asked = 0;
  std::string ignored;
  if (doc.context.is_object() &&
      GetOptionalJsonField(doc.context, "repetitions", &asked, &ignored) && asked > 0) {
    repetitions = std::max(repetitions, asked);
  }
  // The plan's variants when the file says (context.variants), else those its cells reached: a
  // lower bound, said as one.
  uint32_t planned_variants = 0;
  const bool known = doc.context.is_object() &&
                     GetOptionalJsonField(doc.context, "variants", &planned_variants, &ignored) &&
                     planned_variants > 0;
  const size_t planned =
      doc.identifiers.size() * (known ? planned_variants : variants.size()) * repetitions;
  const std::string cells = std::to_string(ran) + (ran == 1 ? " cell" : " cells");
  if (planned <= ran) {
    return "Unfinished run: the run stopped after " + cells + "; rows below are only those";
  }
  return "Unfinished run: " + std::to_string(ran) + " of " + (known ? "" : "at least ") +
         std::to_string(planned) + " cells ran; rows below are only those";
}

std::string WithUnfinishedRunLine(const ResultsDocument& doc, std::string text) {
  const std::string line = UnfinishedRunLine(doc);
  if (line.empty()) return text;
  const size_t end = text.find("\n\n");
  if (RenderEnvironmentHeader(doc.context).empty() || end == std::string::npos) {
    return line + "\n\n" + text;
  }
  return text.insert(end + 1, line + "\n");
}

std::string RenderCellFailuresText(const ResultsDocument& doc) {
  const std::vector<std::string> lines = CellFailureLines(doc);
  if (lines.empty()) return "";
  std::string text = "\nFailed cells:\n";
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

}  // namespace elevbench
