// Micro-benchmarks of what `report` and `compare` do per results file: load (read + parse +
// check), the suite's text layout, the tidy measurements, one CSV report and one comparison.
// The goal of issue #10 — rendering and comparing 1,000 results files in under a second —
// means about 1 ms per file for all of it; docs/performance.md has the figures and the
// end-to-end command (scripts/bench-reports).

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "app/suites.h"
#include "harness/compare/compare.h"
#include "harness/results/results_document.h"
#include "harness/stats/measurement.h"
#include "reporters/render.h"

#ifndef ELEVBENCH_BENCH_DATA_DIR
#define ELEVBENCH_BENCH_DATA_DIR "bench/data"
#endif

namespace elevbench {
namespace {

// A real tiobench results file: 2 repetitions × 1 configuration × threads 1,4, with every
// cell's queue snapshot and every phase's latency histogram (69 KB).
const std::string kFile = std::string(ELEVBENCH_BENCH_DATA_DIR) + "/tiobench_2reps.json";

ResultsDocument Loaded() {
  ResultsDocument doc;
  std::string err;
  if (!LoadResultsFile(kFile, &doc, &err)) throw std::runtime_error(err);
  return doc;
}

void BM_LoadResultsFile(benchmark::State& state) {
  for (auto _ : state) {
    ResultsDocument doc;
    std::string err;
    benchmark::DoNotOptimize(LoadResultsFile(kFile, &doc, &err));
  }
}
BENCHMARK(BM_LoadResultsFile)->Unit(benchmark::kMicrosecond);

void BM_RenderTiobenchText(benchmark::State& state) {
  const ResultsDocument doc = Loaded();
  for (auto _ : state) {
    std::string text, err;
    benchmark::DoNotOptimize(RenderResults(doc, "tiobench", ReportOptions{}, &text, &err));
  }
}
BENCHMARK(BM_RenderTiobenchText)->Unit(benchmark::kMicrosecond);

void BM_Measurements(benchmark::State& state) {
  const ResultsDocument doc = Loaded();
  for (auto _ : state) {
    std::vector<Measurement> out;
    std::string err;
    benchmark::DoNotOptimize(MeasurementsOf(doc, &out, &err));
  }
}
BENCHMARK(BM_Measurements)->Unit(benchmark::kMicrosecond);

void BM_CsvReportOneFile(benchmark::State& state) {
  const std::vector<NamedResults> files = {{"a.json", Loaded(), {}, {}}};
  for (auto _ : state) {
    std::string text, err;
    benchmark::DoNotOptimize(RenderReport(files, "csv", ReportOptions{}, &text, &err));
  }
}
BENCHMARK(BM_CsvReportOneFile)->Unit(benchmark::kMicrosecond);

void BM_CompareTwoFiles(benchmark::State& state) {
  const ResultsDocument base = Loaded();
  const ResultsDocument next = Loaded();
  for (auto _ : state) {
    Comparison out;
    std::string err;
    benchmark::DoNotOptimize(
        CompareDocuments(base, next, MeasurerOf(base.suite), CompareSettings{}, &out, &err));
  }
}
BENCHMARK(BM_CompareTwoFiles)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace elevbench
