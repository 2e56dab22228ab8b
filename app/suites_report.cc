#include "app/suites_report.h"

#include <algorithm>
#include <thread>

#include "app/suites.h"
#include "harness/core/parallel_for.h"

namespace elevbench {

std::string SuiteFormatsHelp() {
  std::string text;
  for (const SuiteEntry& e : AllSuites()) {
    text += (text.empty() ? "" : "; ") + std::string(e.name) + ":";
    for (size_t i = 0; i < e.formats.size(); ++i) text += (i ? ", " : " ") + e.formats[i];
  }
  return text;
}

std::string ReportFormatsHelp() {
  std::string text =
      "Default (or text): the suite's first text format. The suite's text formats (" +
      SuiteFormatsHelp() + ") or, for every suite,";
  for (size_t i = 0; i < GenericReportFormats().size(); ++i) {
    text += (i ? ", " : " ") + std::string(GenericReportFormats()[i].name);
  }
  return text +
         ". Several files: text formats and json print each file in turn; md, csv, csv-summary "
         "and html combine them into one document";
}

namespace {

// One file of a per-file report: loaded, rendered and dropped by a worker.
struct RenderedFile {
  bool ok = false;
  bool complete = true;
  std::string text;  // its framed text, or the one-line error
};

// Per-file formats: every file on its own, on every CPU (ReportResultsFiles).
bool ReportFileByFile(const std::vector<std::string>& paths, const std::string& format,
                      const ReportOptions& options, ReportText* report, std::string* err) {
  std::vector<RenderedFile> out(paths.size());
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  ParallelFor(paths.size(), cpus, [&](size_t i) {
    ResultsDocument doc;
    std::string file_err, text;
    if (!LoadResultsFile(paths[i], &doc, &file_err)) {
      out[i].text = file_err;
      return;
    }
    if (!RenderResults(doc, format, options, &text, &file_err)) {
      out[i].text = paths[i] + ": " + file_err;
      return;
    }
    out[i] = {true, doc.complete, FramePerFileText(paths[i], text, i, paths.size(), format)};
  });
  for (const RenderedFile& f : out) {
    if (!f.ok) {
      *err = f.text;
      return false;
    }
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    report->text += out[i].text;
    if (!out[i].complete) report->unfinished.push_back(paths[i]);
  }
  return true;
}

}  // namespace

bool ReportResultsFiles(const std::vector<std::string>& paths, const std::string& format,
                        const ReportOptions& options, ReportText* out, std::string* err) {
  if (IsPerFileFormat(format)) return ReportFileByFile(paths, format, options, out, err);
  std::vector<NamedResults> files(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    files[i].name = paths[i];
    if (!LoadResultsFile(paths[i], &files[i].doc, err)) return false;
  }
  if (!RenderReport(files, format, options, &out->text, err)) return false;
  for (const NamedResults& file : files) {
    if (!file.doc.complete) out->unfinished.push_back(file.name);
  }
  return true;
}

}  // namespace elevbench
