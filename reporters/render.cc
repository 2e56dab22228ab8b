#include "reporters/render.h"

#include "reporters/csv.h"
#include "reporters/html.h"
#include "reporters/markdown.h"

namespace elevbench {
namespace {

bool RenderJsonStream(const std::vector<NamedResults>& files, const ReportOptions&,
                      std::string* text, std::string*) {
  text->clear();
  for (const NamedResults& file : files) *text += ResultsToJson(file.doc).dump(2) + "\n";
  return true;
}

bool RenderMarkdown(const std::vector<NamedResults>& files, const ReportOptions& options,
                    std::string* text, std::string*) {
  *text = RenderMarkdownReport(files, options.verdict);
  return true;
}

bool RenderCsv(const std::vector<NamedResults>& files, const ReportOptions&, std::string* text,
               std::string* err) {
  return RenderCsvReport(files, text, err);
}

bool RenderCsvSummary(const std::vector<NamedResults>& files, const ReportOptions&,
                      std::string* text, std::string* err) {
  return RenderCsvSummaryReport(files, text, err);
}

bool RenderHtml(const std::vector<NamedResults>& files, const ReportOptions& options,
                std::string* text, std::string*) {
  *text = RenderHtmlReport(files, options.gnuplot, options.verdict);
  return true;
}

}  // namespace

const std::vector<ReportFormat>& GenericReportFormats() {
  static const std::vector<ReportFormat> kFormats = {
      {"md", false, false, RenderMarkdown},
      {"csv", false, false, RenderCsv},
      {"csv-summary", false, false, RenderCsvSummary},
      {"html", false, true, RenderHtml},
      {"json", true, false, RenderJsonStream},
  };
  return kFormats;
}

const ReportFormat* FindGenericReportFormat(const std::string& name) {
  for (const ReportFormat& f : GenericReportFormats()) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

bool IsPerFileFormat(const std::string& format) {
  const ReportFormat* generic = FindGenericReportFormat(format);
  return generic == nullptr || generic->per_file;
}

std::string FramePerFileText(const std::string& name, const std::string& text, size_t index,
                             size_t count, const std::string& format) {
  if (count <= 1) return text;
  if (format != "json") return "==> " + name + " <==\n" + text + "\n";
  // One JSON array of the documents: "[" before the first, "," after each but the last.
  std::string body = text;
  while (!body.empty() && body.back() == '\n') body.pop_back();
  return (index == 0 ? "[\n" : "") + body + (index + 1 == count ? "\n]\n" : ",\n");
}

}  // namespace elevbench
