#include "reporters/render.h"

#include "harness/run/suite.h"
#include "reporters/csv.h"
#include "reporters/html.h"
#include "reporters/markdown.h"

namespace elevbench {

std::string FormatChoices(const std::string& suite) {
  const SuiteEntry* entry = FindSuite(suite);
  if (entry == nullptr) return "";
  std::string choices;
  for (const std::string& f : entry->formats) choices += f + ", ";
  return choices + "json";
}

const std::vector<std::string>& GenericFormats() {
  static const std::vector<std::string> kFormats = {"md", "csv", "csv-summary", "html", "json"};
  return kFormats;
}

std::string ReportFormatChoices(const std::string& suite) {
  const SuiteEntry* entry = FindSuite(suite);
  if (entry == nullptr) return "";
  std::string choices;
  for (const std::string& f : entry->formats) choices += f + ", ";
  for (const std::string& f : GenericFormats()) choices += f + (f == "json" ? "" : ", ");
  return choices;
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
    *err = "unknown --format '" + chosen + "' for " + doc.suite + " (" +
           ReportFormatChoices(doc.suite) + ")";
    return false;
  }
  return entry->render(doc, chosen, text, err);
}

bool IsPerFileFormat(const std::string& format) {
  return format != "md" && format != "csv" && format != "csv-summary" && format != "html";
}

std::string FramePerFileText(const std::string& name, const std::string& text, size_t count,
                             const std::string& format) {
  if (count > 1 && format != "json") return "==> " + name + " <==\n" + text + "\n";
  return text;
}

bool RenderReport(const std::vector<NamedResults>& files, const std::string& format,
                  const GnuplotOptions& gnuplot, std::string* text, std::string* err) {
  for (const NamedResults& file : files) {
    if (FindSuite(file.doc.suite) == nullptr) {
      *err = (file.name.empty() ? std::string() : file.name + ": ") + "unknown suite '" +
             file.doc.suite + "' (this elevbench knows no renderer for it)";
      return false;
    }
  }
  if (format == "md") return RenderMarkdownReport(files, text, err);
  if (format == "csv") return RenderCsvReport(files, text, err);
  if (format == "csv-summary") return RenderCsvSummaryReport(files, text, err);
  if (format == "html") return RenderHtmlReport(files, gnuplot, text, err);
  text->clear();
  for (const NamedResults& file : files) {
    std::string one;
    if (!RenderResults(file.doc, format, &one, err)) {
      if (!file.name.empty()) *err = file.name + ": " + *err;
      return false;
    }
    *text += FramePerFileText(file.name, one, files.size(), format);
  }
  return true;
}

}  // namespace elevbench
