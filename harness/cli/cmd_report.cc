// `elevbench report`: the tables of saved results files, in a suite's own formats or the
// generic ones.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/core/parallel_for.h"
#include "harness/results/results_document.h"
#include "reporters/render.h"
#include "scenarios/suites.h"

namespace elevbench {
namespace {

// One file of a per-file report: loaded, rendered and dropped by a worker.
struct RenderedFile {
  bool ok = false;
  bool complete = true;
  std::string text;  // its framed text, or the one-line error
};

// Per-file formats: every file is loaded and rendered on its own, on every CPU, holding one
// document per thread instead of all of them (1,000 files of 69 KB: 283 MB and page faults
// otherwise). Nothing is printed unless every file renders: a bad file is a usage error.
int ReportFileByFile(const std::vector<std::string>& paths, const std::string& format,
                     const ReportOptions& options) {
  std::vector<RenderedFile> out(paths.size());
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  ParallelFor(paths.size(), cpus, [&](size_t i) {
    ResultsDocument doc;
    std::string err, text;
    if (!LoadResultsFile(paths[i], &doc, &err)) {
      out[i].text = err;
      return;
    }
    if (!RenderResults(doc, format, options, &text, &err)) {
      out[i].text = paths[i] + ": " + err;
      return;
    }
    out[i] = {true, doc.complete, FramePerFileText(paths[i], text, paths.size(), format)};
  });
  for (const RenderedFile& f : out) {
    if (!f.ok) {
      PrintError(f.text);
      return kExitUsage;
    }
  }
  for (const RenderedFile& f : out) std::cout << f.text;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!out[i].complete) PrintNote(paths[i] + " is from an unfinished run");
  }
  return kExitOk;
}

// "tiobench: nick, tiobench; …; or, for every suite, md, csv, csv-summary, html, json".
std::string ReportFormatsHelp() {
  std::string text = "Default: the suite's first text format. The suite's text formats (";
  for (size_t i = 0; i < AllSuites().size(); ++i) {
    const SuiteEntry& e = AllSuites()[i];
    text += (i ? "; " : "") + std::string(e.name) + ":";
    for (size_t f = 0; f < e.formats.size(); ++f) text += (f ? ", " : " ") + e.formats[f];
  }
  text += ") or, for every suite,";
  for (size_t i = 0; i < GenericReportFormats().size(); ++i) {
    text += (i ? ", " : " ") + std::string(GenericReportFormats()[i].name);
  }
  return text +
         ". Several files: text formats and json print each file in turn; md, csv, csv-summary "
         "and html combine them into one document";
}

}  // namespace

int ReportCommand(const std::vector<std::string>& paths, const std::string& format, bool verdict) {
  ReportOptions options;
  options.verdict = verdict;
  if (IsPerFileFormat(format)) return ReportFileByFile(paths, format, options);
  std::vector<NamedResults> files(paths.size());
  std::string err;
  for (size_t i = 0; i < paths.size(); ++i) {
    files[i].name = paths[i];
    if (!LoadResultsFile(paths[i], &files[i].doc, &err)) {
      PrintError(err);
      return kExitUsage;
    }
  }
  std::string text;
  if (!RenderReport(files, format, options, &text, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  std::cout << text;
  for (const NamedResults& file : files) {
    if (!file.doc.complete) PrintNote(file.name + " is from an unfinished run");
  }
  return kExitOk;
}

SubcommandRunner AddReportSubcommand(CLI::App* cmd, const std::string&) {
  struct ReportArgs {
    std::vector<std::string> paths;
    std::string format;
    bool no_verdict = false;
  };
  auto args = std::make_shared<ReportArgs>();
  cmd->add_option("files", args->paths, "Results JSON files written by 'run'")->required();
  cmd->add_option("--format", args->format, ReportFormatsHelp());
  cmd->add_flag("--no-verdict", args->no_verdict,
                "Leave out the verdict block (last in text formats, first in md and html), e.g. "
                "to post a table as the 2003 posts had it");
  return [args] { return ReportCommand(args->paths, args->format, !args->no_verdict); };
}

}  // namespace elevbench
