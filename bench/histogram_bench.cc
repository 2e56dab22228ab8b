// Micro-benchmarks of LatencyHistogram's hot paths: Record (per I/O), Merge (per job and
// repetition), percentile and CountAbove queries (per report row) and importing fio json+ bins
// (per parsed job).

#include <benchmark/benchmark.h>

#include <charconv>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "harness/core/latency_histogram.h"

namespace elevbench {
namespace {

// Latency-like values: log-uniform between 2^10 ns (1 us) and 2^30 ns (~1 s).
std::vector<uint64_t> Values(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> bits(10, 30);
  std::vector<uint64_t> v(n);
  for (uint64_t& x : v) {
    const int b = bits(rng);
    x = (uint64_t{1} << b) | (rng() & ((uint64_t{1} << b) - 1));
  }
  return v;
}

LatencyHistogram Filled(size_t n, uint32_t seed) {
  LatencyHistogram h;
  for (uint64_t v : Values(n, seed)) h.Record(v);
  return h;
}

void BM_Record(benchmark::State& state) {
  const std::vector<uint64_t> values = Values(1 << 16, 1);
  LatencyHistogram h;
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(h.Record(values[i]));
    i = (i + 1) & (values.size() - 1);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Record);

void BM_Merge(benchmark::State& state) {
  const LatencyHistogram other = Filled(100000, 2);
  LatencyHistogram acc;
  for (auto _ : state) {
    benchmark::DoNotOptimize(acc.Merge(other));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Merge);

void BM_ValueAtPercentile(benchmark::State& state) {
  const LatencyHistogram h = Filled(100000, 3);
  const double p = static_cast<double>(state.range(0)) / 10.0;
  for (auto _ : state) benchmark::DoNotOptimize(h.ValueAtPercentile(p));
}
BENCHMARK(BM_ValueAtPercentile)->Arg(500)->Arg(990)->Arg(999);

void BM_CountAbove(benchmark::State& state) {
  const LatencyHistogram h = Filled(100000, 4);
  for (auto _ : state) benchmark::DoNotOptimize(h.CountAbove(2'000'000));
}
BENCHMARK(BM_CountAbove);

// What the fio parser does per job direction: string keys -> AddFioBin, then exact stats.
void BM_ImportFioBins(benchmark::State& state) {
  const LatencyHistogram source = Filled(static_cast<size_t>(state.range(0)), 5);
  const nlohmann::json bins = source.ToJson()["bins"];
  for (auto _ : state) {
    LatencyHistogram h;
    std::string err;
    for (const auto& [key, value] : bins.items()) {
      uint64_t bin_ns = 0;
      std::from_chars(key.data(), key.data() + key.size(), bin_ns);
      if (!h.AddFioBin(bin_ns, value.get<uint64_t>(), &err)) state.SkipWithError(err.c_str());
    }
    if (!h.SetExactStats(source.min_ns(), source.max_ns(), source.mean_ns(), source.count(),
                         &err)) {
      state.SkipWithError(err.c_str());
    }
    benchmark::DoNotOptimize(h);
  }
  state.counters["bins"] = static_cast<double>(bins.size());
}
BENCHMARK(BM_ImportFioBins)->Arg(1000)->Arg(100000);

void BM_FromJson(benchmark::State& state) {
  const nlohmann::json j = Filled(100000, 6).ToJson();
  for (auto _ : state) {
    LatencyHistogram h;
    std::string err;
    if (!LatencyHistogram::FromJson(j, &h, &err)) state.SkipWithError(err.c_str());
    benchmark::DoNotOptimize(h);
  }
}
BENCHMARK(BM_FromJson);

}  // namespace
}  // namespace elevbench
