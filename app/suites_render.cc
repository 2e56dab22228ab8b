// Where `run` and `report` choose between a suite's own text formats (its renderer in the table
// of suites) and the generic formats (reporters/render.h), and where the generic formats get
// each file's measurements and plot series from its suite.

#include <algorithm>

#include "app/suites.h"
#include "harness/core/strings.h"
#include "harness/stats/protection.h"
#include "harness/stats/verdict.h"
#include "reporters/failures_text.h"
#include "reporters/post2003_text.h"
#include "reporters/protection_text.h"
#include "reporters/render.h"
#include "reporters/verdict_text.h"

namespace elevbench {
namespace {

bool SuiteHasFormat(const SuiteEntry& entry, const std::string& format) {
  return std::find(entry.formats.begin(), entry.formats.end(), format) != entry.formats.end();
}

std::string UnknownSuite(const std::string& suite) {
  return "unknown suite '" + suite + "' (this elevbench knows no renderer for it)";
}

std::string NamedError(const NamedResults& file, const std::string& err) {
  return file.name.empty() ? err : file.name + ": " + err;
}

// A part of post-2003 as its own suite prints it: in nick where it has that format.
bool RenderPost2003Part(const ResultsDocument& part_doc, const std::string& part, std::string* text,
                        std::string* err) {
  const SuiteEntry* entry = FindSuite(part);
  if (entry == nullptr || entry->formats.empty()) {
    *err = "part '" + part + "' is not a suite of this build";
    return false;
  }
  const std::string format = SuiteHasFormat(*entry, "nick") ? "nick" : entry->formats.front();
  return entry->render(part_doc, format, text, err);
}

// What ends a text format: the protection tables of a run with --controls, then the verdict
// block (unless options.verdict is off), both from the document's measurements, trace
// included. They name the configurations as the suite's tables do.
bool AppendTextProtectionAndVerdict(const ResultsDocument& doc, const SuiteEntry& entry,
                                    bool verdict, std::string* text, std::string* err) {
  std::vector<Measurement> measurements;
  if (!MeasurementsOf(doc, &measurements, err)) {
    *err = "verdict: " + *err;
    return false;
  }
  VerdictSettings settings;
  settings.name_by_identifier = entry.tables_show_identifiers;
  *text += RenderProtectionText(ComputeProtection(doc, measurements, settings), settings);
  if (verdict) *text += RenderVerdictText(ComputeVerdict(doc, measurements, settings));
  return true;
}

}  // namespace

bool RenderPost2003Parts(const ResultsDocument& doc, const std::string& format, std::string* text,
                         std::string* err) {
  return RenderPost2003Report(doc, format, RenderPost2003Part, text, err);
}

std::string FormatChoices(const std::string& suite) {
  const SuiteEntry* entry = FindSuite(suite);
  if (entry == nullptr) return "";
  std::vector<std::string> choices = entry->formats;
  choices.push_back("json");
  return JoinWith(choices, ", ");
}

std::string ReportFormatChoices(const std::string& suite) {
  const SuiteEntry* entry = FindSuite(suite);
  if (entry == nullptr) return "";
  std::vector<std::string> choices = entry->formats;
  for (const ReportFormat& f : GenericReportFormats()) choices.push_back(f.name);
  return JoinWith(choices, ", ");
}

bool RenderResults(const ResultsDocument& doc, const std::string& format,
                   const ReportOptions& options, std::string* text, std::string* err) {
  const SuiteEntry* entry = FindSuite(doc.suite);
  if (entry == nullptr) {
    *err = UnknownSuite(doc.suite);
    return false;
  }
  if (format == "json") {
    *text = ResultsToJson(doc).dump(2) + "\n";
    return true;
  }
  // "text", as every other command's --format takes it, is the suite's default text layout
  // (#45, fourth pass: `report FILE --format text` was refused).
  const std::string chosen = format.empty() || format == "text" ? entry->formats.front() : format;
  if (!SuiteHasFormat(*entry, chosen)) {
    *err = "unknown --format '" + chosen + "' for " + doc.suite + " (" +
           ReportFormatChoices(doc.suite) + ")";
    return false;
  }
  if (!entry->render(doc, chosen, text, err)) return false;
  *text = WithUnfinishedRunLine(doc, std::move(*text));
  *text += RenderCellFailuresText(doc);
  return AppendTextProtectionAndVerdict(doc, *entry, options.verdict, text, err);
}

bool RenderReport(std::vector<NamedResults> files, const std::string& format,
                  const ReportOptions& options, std::string* text, std::string* err) {
  for (const NamedResults& file : files) {
    if (FindSuite(file.doc.suite) == nullptr) {
      *err = NamedError(file, UnknownSuite(file.doc.suite));
      return false;
    }
  }
  const ReportFormat* generic = FindGenericReportFormat(format);
  if (generic != nullptr && !generic->per_file) {
    for (NamedResults& file : files) {
      if (!MeasurementsOf(file.doc, &file.measurements, err) ||
          (generic->plots && !PlotSeriesOf(file.doc, &file.plots, err))) {
        *err = NamedError(file, *err);
        return false;
      }
    }
    return generic->render(files, options, text, err);
  }
  text->clear();
  for (size_t i = 0; i < files.size(); ++i) {
    const NamedResults& file = files[i];
    std::string one;
    if (!RenderResults(file.doc, format, options, &one, err)) {
      *err = NamedError(file, *err);
      return false;
    }
    *text += FramePerFileText(file.name, one, i, files.size(), format);
  }
  return true;
}

}  // namespace elevbench
