#include "reporters/html.h"

#include <sstream>

#include "reporters/failures_text.h"
#include "reporters/markup_escape.h"
#include "reporters/plots.h"
#include "reporters/protection_text.h"
#include "reporters/verdict_text.h"

namespace elevbench {
namespace {

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1300px; padding: 0 1em;
       color: #222; background: #fff; }
h1 { font-size: 1.6em; } h2 { font-size: 1.35em; border-bottom: 1px solid #ccc; margin-top: 2em; }
h3 { font-size: 1.15em; margin-top: 1.5em; } h4 { font-size: 1em; margin: 1.2em 0 0.4em; }
table { border-collapse: collapse; margin: 0.4em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; }
th { background: #f2f2f2; }
table.metrics td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
table.metrics th.headline { background: #e3ecf7; }
table.metrics tr.failed td { background: #fdecea; }
table.metrics td.missing { color: #b3261e; font-weight: bold; }
table.metrics tr.incomplete td.n { color: #b3261e; font-weight: bold; }
table.context th { text-align: left; }
ul.legend { font-size: 0.85em; color: #444; }
p.note { background: #fff8e1; border: 1px solid #f0d000; padding: 0.5em 0.8em; }
figure.plot { margin: 1em 0 2em; }
figure.plot svg { width: 100%; height: auto; display: block; }
figcaption { font-size: 0.9em; color: #333; margin-top: 0.3em; }
section.verdict { background: #eef5ea; border: 1px solid #9cc58a; padding: 0.2em 1em 0.6em; }
section.verdict h2 { margin-top: 0.5em; border-bottom: none; }
)";

void RenderContext(const NamedResults& file, std::ostringstream& out) {
  out << "<table class=\"context\">\n";
  for (const auto& [field, value] : ReportHeaderFields(file.doc, file.name)) {
    out << "<tr><th>" << MarkupEscape(field) << "</th><td>" << MarkupEscape(value)
        << "</td></tr>\n";
  }
  out << "</table>\n";
}

void RenderHtmlTable(const ReportTable& table, std::ostringstream& out) {
  out << "<h4>" << MarkupEscape(table.section) << "</h4>\n<table class=\"metrics\">\n<tr>";
  if (table.has_row_keys) out << "<th>Row</th>";
  out << "<th>Configuration</th>";
  if (table.has_schedulers) out << "<th>Scheduler</th>";
  out << "<th>n</th>";
  for (const ReportColumn& c : table.columns) {
    out << "<th" << (c.metric.headline ? " class=\"headline\"" : "") << ">"
        << MarkupEscape(MetricDisplayName(c.metric)) << "<br>("
        << (c.metric.display.empty() ? "" : MarkupEscape(c.metric.name) + ", ")
        << MarkupEscape(ReportColumnUnit(c.metric)) << ")</th>";
  }
  out << "</tr>\n";
  for (const ReportRow& row : table.rows) {
    std::string classes = row.failed ? "failed" : "";
    if (row.incomplete) classes += classes.empty() ? "incomplete" : " incomplete";
    out << "<tr" << (classes.empty() ? "" : " class=\"" + classes + "\"") << ">";
    if (table.has_row_keys) out << "<td>" << MarkupEscape(row.row) << "</td>";
    out << "<td>" << MarkupEscape(row.identifier) << "</td>";
    if (table.has_schedulers) out << "<td>" << MarkupEscape(row.scheduler) << "</td>";
    out << "<td class=\"num n\">" << MarkupEscape(ReportCountText(row)) << "</td>";
    for (const ReportCell& c : row.cells) {
      out << "<td class=\"num" << (c.missing ? " missing" : "") << "\">" << MarkupEscape(c.text);
      if (c.differs) out << " (n=" << c.n << ")";
      out << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table>\n";
}

void RenderPlots(const std::vector<Plot>& plots, std::ostringstream& out) {
  for (size_t i = 0; i < plots.size(); ++i) {
    const Plot& p = plots[i];
    out << "<figure class=\"plot\" data-kind=\"" << MarkupEscape(p.kind) << "\">\n";
    if (!p.svg.empty()) {
      out << p.svg << "\n";
    } else if (!p.script.empty()) {
      out << "<p class=\"note\">This plot could not be drawn: " << MarkupEscape(p.error)
          << "</p>\n";
    } else {
      out << "<p class=\"note\">Nothing to plot: no configuration has a number here.</p>\n";
    }
    out << "<figcaption>" << MarkupEscape(p.title);
    if (!p.note.empty()) out << " " << MarkupEscape(p.note);
    out << "</figcaption>\n</figure>\n";
  }
}

// The verdict section: the heading, then each file's lines (under its name with several files).
void RenderHtmlVerdict(const std::vector<NamedResults>& files, std::ostringstream& out) {
  std::string heading;
  std::vector<VerdictSection> sections;
  VerdictSectionsOf(files, &heading, &sections);
  out << "<section class=\"verdict\">\n<h2>Verdict</h2>\n";
  if (!sections.empty()) out << "<p>" << MarkupEscape(heading) << "</p>\n";
  for (const VerdictSection& section : sections) {
    if (!section.title.empty()) out << "<h3>" << MarkupEscape(section.title) << "</h3>\n";
    out << "<ul class=\"verdict\">\n";
    for (const std::string& line : section.lines) {
      out << "<li>" << MarkupEscape(line) << "</li>\n";
    }
    out << "</ul>\n";
  }
  out << "</section>\n";
}

// The protection section (a run with --controls): each file's tables with their best lines.
void RenderHtmlProtection(const std::vector<NamedResults>& files, std::ostringstream& out) {
  const VerdictSettings settings;
  bool heading = false;
  for (const NamedResults& file : files) {
    for (const ProtectionTable& t : ComputeProtection(file.doc, file.measurements, settings)) {
      if (!heading) out << "<section class=\"protection\">\n<h2>Protection</h2>\n";
      heading = true;
      out << "<p>" << MarkupEscape(ProtectionHeading(t, settings))
          << "</p>\n<table class=\"metrics\">\n";
      const std::vector<std::vector<std::string>> cells = ProtectionCells(t, settings);
      for (size_t i = 0; i < cells.size(); ++i) {
        const char* tag = i == 0 ? "th" : "td";
        out << "<tr>";
        for (size_t c = 0; c < cells[i].size(); ++c) {
          const bool right = i > 0 && ProtectionNumericColumns()[c];
          out << "<" << tag << (right ? " class=\"num\"" : "") << ">" << MarkupEscape(cells[i][c])
              << "</" << tag << ">";
        }
        out << "</tr>\n";
      }
      out << "</table>\n";
      const std::string best = ProtectionBestText(t);
      if (!best.empty()) out << "<p>" << MarkupEscape(best) << "</p>\n";
    }
  }
  if (heading) out << "</section>\n";
}

// The configurations whose cells failed, with the reasons, under the file's tables.
void RenderHtmlCellFailures(const ResultsDocument& doc, std::ostringstream& out) {
  const std::vector<std::string> lines = CellFailureLines(doc);
  if (lines.empty()) return;
  out << "<h4>Failed cells</h4>\n<ul class=\"failures\">\n";
  for (const std::string& line : lines) out << "<li>" << MarkupEscape(line) << "</li>\n";
  out << "</ul>\n";
}

// The cells that did not finish, with the reasons, under the file's tables.
void RenderHtmlDnfReasons(const std::vector<Measurement>& measurements, std::ostringstream& out) {
  const std::vector<std::string> lines = DnfReasonLines(measurements);
  if (lines.empty()) return;
  out << "<h4>Did not finish</h4>\n<ul class=\"dnf\">\n";
  for (const std::string& line : lines) out << "<li>" << MarkupEscape(line) << "</li>\n";
  out << "</ul>\n";
}

}  // namespace

std::string RenderHtmlReport(const std::vector<NamedResults>& files, const GnuplotOptions& gnuplot,
                             bool verdict) {
  const bool can_plot = GnuplotAvailable(gnuplot);
  std::string suites;
  for (const NamedResults& f : files) {
    if (suites.find(f.doc.suite) == std::string::npos) {
      suites += (suites.empty() ? "" : ", ") + f.doc.suite;
    }
  }
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>elevbench report: " << MarkupEscape(suites) << "</title>\n"
      << "<style>" << kStyle << "</style>\n</head>\n<body>\n"
      << "<h1>elevbench report: " << MarkupEscape(suites) << "</h1>\n";
  if (verdict && !files.empty()) RenderHtmlVerdict(files, out);
  RenderHtmlProtection(files, out);
  if (!can_plot) {
    out << "<p class=\"note\">No plots: they are drawn with gnuplot, and '"
        << MarkupEscape(gnuplot.program)
        << "' is not in PATH. Install Debian's gnuplot-nox (scripts/install-deps does) and "
           "render the report again.</p>\n";
  }
  for (size_t f = 0; f < files.size(); ++f) {
    const NamedResults& file = files[f];
    const std::vector<ReportTable> tables = BuildReportTables(file);
    std::vector<Plot> plots = PlotsOf(file);
    out << "<section class=\"results\">\n<h2>" << MarkupEscape(file.doc.suite);
    if (!file.name.empty()) out << ": " << MarkupEscape(file.name);
    out << "</h2>\n";
    RenderContext(file, out);
    out << "<h3>Tables</h3>\n";
    if (tables.empty()) out << "<p>No measurements in this file.</p>\n";
    for (const ReportTable& table : tables) RenderHtmlTable(table, out);
    if (!tables.empty()) {
      out << "<ul class=\"legend\">\n";
      for (const std::string& line : ReportLegend(tables)) {
        out << "<li>" << MarkupEscape(line) << "</li>\n";
      }
      out << "</ul>\n";
    }
    RenderHtmlCellFailures(file.doc, out);
    RenderHtmlDnfReasons(file.measurements, out);
    if (!plots.empty()) {
      // Without gnuplot every plot still has its place, with a note saying why it is empty.
      if (can_plot) DrawPlots(&plots, "f" + std::to_string(f) + "p", gnuplot);
      for (Plot& p : plots) {
        if (!can_plot) p.error = "'" + gnuplot.program + "' (gnuplot) is not in PATH";
      }
      out << "<h3>Plots</h3>\n";
      RenderPlots(plots, out);
    }
    out << "</section>\n";
  }
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace elevbench
