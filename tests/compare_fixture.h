#pragma once
// What the compare tests (compare*_test.cc) share: tiobench results documents built from rates,
// with or without noise, and the comparison of two of them.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "harness/compare/compare.h"
#include "scenarios/tiobench/tiobench_measurements.h"
#include "scenarios/tiobench/tiobench_records.h"
#include "test_util.h"

namespace elevbench::testing {

/// One configuration of a test document: its identifier, label and scheduler.
struct TestConfig {
  std::string identifier;
  std::string label;
  std::string scheduler;
};

/// The rate (MB/s) of one configuration × phase × repetition; NaN: no record (the phase or the
/// repetition is missing from the file).
inline constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
using RateFn = std::function<double(size_t config, TioPhase phase, uint32_t repetition)>;

/// A tiobench results document at one thread, as `run` writes it: one cell per configuration ×
/// repetition, one record per phase. Besides the rate, every record's average latency is
/// 100 / rate ms (lower is better, so it moves against the rate).
inline ResultsDocument TioDocument(const std::vector<TestConfig>& configs, uint32_t repetitions,
                                   const RateFn& rate) {
  ResultsDocument doc;
  doc.complete = true;
  doc.suite = "tiobench";
  doc.context = {{"kernel", "6.18.44"}, {"repetitions", repetitions}};
  TiobenchParams params;
  params.directory = "/mnt/test";
  params.size_mb = 64;
  params.threads = {1};
  doc.parameters = TiobenchParamsToJson(params);
  for (const TestConfig& c : configs) {
    doc.identifiers.push_back(c.identifier);
    doc.labels.push_back(c.label);
  }
  for (uint32_t rep = 0; rep < repetitions; ++rep) {
    for (size_t i = 0; i < configs.size(); ++i) {
      CellRecord cell;
      cell.identifier = configs[i].identifier;
      cell.label = configs[i].label;
      cell.scheduler = configs[i].scheduler;
      cell.repetition = rep;
      cell.variant = {{"threads", 1}};
      cell.status = "ok";
      doc.cells.push_back(cell);
      for (TioPhase phase : kTioExecutionOrder) {
        const double value = rate(i, phase, rep);
        if (std::isnan(value)) continue;
        TioRecord r;
        r.identifier = configs[i].identifier;
        r.scheduler = configs[i].scheduler;
        r.repetition = rep;
        r.measurement.phase = phase;
        r.measurement.threads = 1;
        r.measurement.runs = 1;
        r.metrics.rate_mb_s = value;
        r.metrics.avg_latency_ms = 100 / value;
        r.metrics.cpu_pct = 2.5;
        nlohmann::json j = TioRecordToJson(r);
        j["label"] = configs[i].label;
        doc.records.push_back(j);
      }
    }
  }
  return doc;
}

/// Uniform noise of ±spread (a fraction) around mean. The draw is mt19937's raw output, whose
/// sequence the standard fixes (std::uniform_real_distribution's is not), so golden files hold.
class Noise {
 public:
  explicit Noise(uint32_t seed) : gen_(seed) {}
  double Around(double mean, double spread) {
    const double unit = static_cast<double>(gen_()) / 4294967295.0;  // [0, 1]
    return mean * (1 + spread * (2 * unit - 1));
  }

 private:
  std::mt19937 gen_;
};

inline const std::vector<TestConfig> kTwoConfigs = {{"6.18.44-dl", "DL", "mq-deadline"},
                                                    {"6.18.44-bfq", "BFQ", "bfq"}};

/// Every configuration and phase around 50 MB/s with ±1.5 % noise; `factor` scales one cell.
inline ResultsDocument NoisyDocument(
    uint32_t seed, uint32_t repetitions,
    const std::function<double(size_t, TioPhase)>& factor = nullptr,
    const std::vector<TestConfig>& configs = kTwoConfigs) {
  Noise noise(seed);
  return TioDocument(configs, repetitions, [&](size_t c, TioPhase p, uint32_t) {
    return noise.Around(50, 0.015) * (factor ? factor(c, p) : 1.0);
  });
}

/// CompareDocuments on tiobench documents (a test failure when it fails).
inline Comparison MustCompare(const ResultsDocument& base, const ResultsDocument& next,
                              const CompareSettings& settings = {}) {
  Comparison c;
  std::string err;
  EXPECT_TRUE(CompareDocuments(base, next, TiobenchMeasurements, settings, &c, &err)) << err;
  return c;
}

/// The row of `section`, `metric` and the configuration `identifier` (the new side's for a row
/// only in the new file), or nullptr.
inline const ComparisonRow* FindRow(const Comparison& c, const std::string& section,
                                    const std::string& identifier,
                                    const std::string& metric = "rate_mb_s") {
  for (const ComparisonRow& r : c.rows) {
    const std::string& id =
        r.presence == Presence::kOnlyNew ? r.new_config.identifier : r.base_config.identifier;
    if (r.section == section && id == identifier && r.metric.name == metric) return &r;
  }
  return nullptr;
}

}  // namespace elevbench::testing
