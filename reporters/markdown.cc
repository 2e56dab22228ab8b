#include "reporters/markdown.h"

#include <cctype>
#include <sstream>

#include "reporters/failures_text.h"
#include "reporters/protection_text.h"
#include "reporters/verdict_text.h"

namespace elevbench {
namespace {

bool WordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// One table row: "| a | b |".
std::string TableLine(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const std::string& c : cells) line += " " + c + " |";
  return line + "\n";
}

// "**IO Rate** (io_rate_mb_s, MB/s, ↑)": the display name, then the key CSV, JSON and
// compare's --metrics use; a metric without a display name is its key alone.
std::string ColumnHeading(const MetricInfo& metric) {
  const std::string name = MarkdownEscape(MetricDisplayName(metric));
  const std::string key = metric.display.empty() ? "" : MarkdownEscape(metric.name) + ", ";
  return (metric.headline ? "**" + name + "**" : name) + " (" + key +
         MarkdownEscape(ReportColumnUnit(metric)) + ")";
}

void RenderMarkdownTable(const ReportTable& table, std::ostringstream& out) {
  out << "### " << MarkdownEscape(table.section) << "\n\n";
  std::vector<std::string> heading;
  std::vector<std::string> rule;
  if (table.has_row_keys) {
    heading.push_back("Row");
    rule.push_back("---");
  }
  heading.push_back("Configuration");
  rule.push_back("---");
  if (table.has_schedulers) {
    heading.push_back("Scheduler");
    rule.push_back("---");
  }
  heading.push_back("n");
  rule.push_back("--:");
  for (const ReportColumn& c : table.columns) {
    heading.push_back(ColumnHeading(c.metric));
    rule.push_back("--:");
  }
  out << TableLine(heading) << TableLine(rule);
  for (const ReportRow& row : table.rows) {
    std::vector<std::string> cells;
    if (table.has_row_keys) cells.push_back(MarkdownEscape(row.row));
    cells.push_back(MarkdownEscape(row.identifier));
    if (table.has_schedulers) cells.push_back(MarkdownEscape(row.scheduler));
    cells.push_back(MarkdownEscape(ReportCountText(row)));
    for (const ReportCell& c : row.cells) {
      std::string text = MarkdownEscape(c.text);
      if (c.differs) text += " (n=" + std::to_string(c.n) + ")";
      cells.push_back(text);
    }
    out << TableLine(cells);
  }
  out << "\n";
}

// "## Verdict": the heading of the first file's block, then every file's lines as a list.
void RenderMarkdownVerdict(const std::vector<NamedResults>& files, std::ostringstream& out) {
  std::string heading;
  std::vector<VerdictSection> sections;
  VerdictSectionsOf(files, &heading, &sections);
  out << "## Verdict\n\n";
  if (!sections.empty()) out << MarkdownEscape(heading) << "\n\n";
  for (const VerdictSection& section : sections) {
    if (!section.title.empty()) out << "### " << MarkdownEscape(section.title) << "\n\n";
    for (const std::string& line : section.lines) out << "- " << MarkdownEscape(line) << "\n";
    out << "\n";
  }
}

// "## Protection" (a run with --controls): each file's tables with their best lines.
void RenderMarkdownProtection(const std::vector<NamedResults>& files, std::ostringstream& out) {
  const VerdictSettings settings;
  bool heading = false;
  for (const NamedResults& file : files) {
    for (const ProtectionTable& t : ComputeProtection(file.doc, file.measurements, settings)) {
      if (!heading) out << "## Protection\n\n";
      heading = true;
      out << MarkdownEscape(ProtectionHeading(t, settings)) << "\n\n";
      const std::vector<std::vector<std::string>> cells = ProtectionCells(t, settings);
      std::vector<std::string> rule;
      for (bool right : ProtectionNumericColumns()) rule.push_back(right ? "--:" : "---");
      for (size_t i = 0; i < cells.size(); ++i) {
        std::vector<std::string> escaped;
        for (const std::string& c : cells[i]) escaped.push_back(MarkdownEscape(c));
        out << TableLine(escaped);
        if (i == 0) out << TableLine(rule);
      }
      const std::string best = ProtectionBestText(t);
      out << "\n" << (best.empty() ? "" : MarkdownEscape(best) + "\n\n");
    }
  }
}

}  // namespace

std::string MarkdownEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '[':
      case ']':
      case '<':
      case '>':
      case '|':
      case '#':
      case '~':
      case '&':
        out += '\\';
        out += c;
        break;
      case '_': {
        // Inside a word GFM never reads _ as emphasis; at a word's edge it may.
        const bool inside =
            i > 0 && i + 1 < text.size() && WordChar(text[i - 1]) && WordChar(text[i + 1]);
        if (!inside) out += '\\';
        out += c;
        break;
      }
      case '\n':
      case '\r':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string RenderMarkdownReport(const std::vector<NamedResults>& files, bool verdict) {
  std::ostringstream out;
  out << "# elevbench report\n\n";
  if (verdict && !files.empty()) RenderMarkdownVerdict(files, out);
  RenderMarkdownProtection(files, out);
  for (const NamedResults& file : files) {
    const std::vector<ReportTable> tables = BuildReportTables(file);
    out << "## " << MarkdownEscape(file.doc.suite);
    if (!file.name.empty()) out << ": " << MarkdownEscape(file.name);
    out << "\n\n| | |\n|---|---|\n";
    for (const auto& [field, value] : ReportHeaderFields(file.doc, file.name)) {
      out << TableLine({MarkdownEscape(field), MarkdownEscape(value)});
    }
    out << "\n";
    if (tables.empty()) out << "No measurements in this file.\n\n";
    for (const ReportTable& table : tables) RenderMarkdownTable(table, out);
    if (!tables.empty()) {
      for (const std::string& line : ReportLegend(tables)) {
        out << "- " << MarkdownEscape(line) << "\n";
      }
      out << "\n";
    }
    const std::vector<std::string> failures = CellFailureLines(file.doc);
    if (!failures.empty()) out << "Failed cells:\n\n";
    for (const std::string& line : failures) out << "- " << MarkdownEscape(line) << "\n";
    if (!failures.empty()) out << "\n";
    const std::vector<std::string> dnf = DnfReasonLines(file.measurements);
    if (!dnf.empty()) out << "Did not finish:\n\n";
    for (const std::string& line : dnf) out << "- " << MarkdownEscape(line) << "\n";
    if (!dnf.empty()) out << "\n";
  }
  std::string text = out.str();
  // One trailing newline, not a blank line.
  while (text.size() > 1 && text.back() == '\n' && text[text.size() - 2] == '\n') {
    text.pop_back();
  }
  return text;
}

}  // namespace elevbench
