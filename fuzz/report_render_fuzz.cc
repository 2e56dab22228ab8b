// libFuzzer target: the reporters' render path on a results file that parsed: every text format
// of its suite, json, md, csv and csv-summary (`elevbench report`), and `compare` of the
// document with itself. html is left out: it runs gnuplot, a child process per plot.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/suites.h"
#include "fuzz/fuzz_input.h"
#include "harness/compare/compare.h"
#include "harness/results/results_document.h"
#include "harness/run/suite.h"
#include "reporters/render.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elevbench;
  const nlohmann::json j = nlohmann::json::parse(fuzz::AsText(data, size), nullptr, false);
  if (j.is_discarded()) return 0;
  std::vector<NamedResults> files(1);
  files[0].name = "fuzz.json";
  std::string err;
  if (!ResultsFromJson(j, &files[0].doc, &err)) return 0;
  const ResultsDocument& doc = files[0].doc;
  std::string text;
  std::vector<std::string> formats = {"", "json"};
  if (const SuiteEntry* suite = FindSuite(doc.suite)) {
    formats.insert(formats.end(), suite->formats.begin(), suite->formats.end());
  }
  for (const std::string& format : formats)
    (void)RenderResults(doc, format, ReportOptions{}, &text, &err);
  ReportOptions no_gnuplot;
  no_gnuplot.gnuplot.program = "/nonexistent/gnuplot";
  for (const char* format : {"md", "csv", "csv-summary"}) {
    (void)RenderReport(files, format, no_gnuplot, &text, &err);
  }
  Comparison comparison;
  (void)CompareDocuments(doc, doc, MeasurerOf(doc.suite), CompareSettings(), &comparison, &err);
  return 0;
}
