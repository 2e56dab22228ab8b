// tiobench planning and metric derivation (docs/legacy-suites.md §1.1–1.3).

#include "scenarios/tiobench/tiobench.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "scenarios/tiobench/tiobench_records.h"
#include "scenarios/tiobench/tiobench_runner.h"

namespace elevbench {
namespace {

TEST(TiobenchTest, DividesTotalsByThreadsLikeTiobenchPl) {
  TiobenchParams p;
  p.size_mb = 1024;
  p.random_ops = 4000;
  TioThreadPlan one = PlanTioThreads(p, 1);
  EXPECT_EQ(one.mb_per_thread, 1024u);
  EXPECT_EQ(one.random_ops_per_thread, 4000u);
  EXPECT_EQ(one.blocks_per_thread, 1024u * 256);
  TioThreadPlan many = PlanTioThreads(p, 256);
  EXPECT_EQ(many.mb_per_thread, 4u);
  EXPECT_EQ(many.random_ops_per_thread, 15u);  // 256 × 15 = 3840 ops, as in Nick's runs
  p.size_mb = 100;
  EXPECT_EQ(PlanTioThreads(p, 256).mb_per_thread, 1u);  // at least 1 MB per thread
}

TEST(TiobenchTest, DefaultSizeIsTwiceRamClamped) {
  EXPECT_EQ(DefaultTiobenchSizeMb(256ULL << 20), 512u);
  EXPECT_EQ(DefaultTiobenchSizeMb(64ULL << 20), 200u);
  EXPECT_EQ(DefaultTiobenchSizeMb(24ULL << 30), 2000u);
}

TEST(TiobenchTest, PhaseStreamsFollowTiotest) {
  TiobenchParams p;
  p.size_mb = 64;
  TioThreadPlan plan = PlanTioThreads(p, 4);
  StreamSpec w = TioPhaseStream(plan, TioPhase::kSeqWrite, "/d", 4096);
  EXPECT_EQ(w.rw, "write");
  EXPECT_TRUE(w.end_fsync);
  EXPECT_EQ(w.numjobs, 4u);
  EXPECT_EQ(w.file_size_bytes, 16u << 20);
  EXPECT_FALSE(w.direct);
  StreamSpec rr = TioPhaseStream(plan, TioPhase::kRandomRead, "/d", 4096);
  EXPECT_EQ(rr.rw, "randread");
  EXPECT_FALSE(rr.end_fsync);
  EXPECT_EQ(rr.number_ios, 1000u);
  EXPECT_EQ(rr.file_size_bytes, (16u << 20) - 4096);  // rand() % (blocks-1): never the last block
  EXPECT_TRUE(rr.random_repeats);
  StreamSpec rw = TioPhaseStream(plan, TioPhase::kRandomWrite, "/d", 4096);
  EXPECT_TRUE(rw.end_fsync);
  // More ops than blocks must still all be done: fio's io_size carries the op count.
  p.size_mb = 4;
  p.random_ops = 4000;
  StreamSpec small = TioPhaseStream(PlanTioThreads(p, 1), TioPhase::kRandomRead, "/d", 4096);
  bool has_io_size = false;
  for (const auto& [k, v] : small.extra) has_io_size |= k == "io_size" && v == "16384000";
  EXPECT_TRUE(has_io_size);
}

TEST(TiobenchTest, FadviseIsOffLikeTiotest) {
  bool off = false;
  for (const auto& [k, v] : TioGlobalSpec().extra) off |= k == "fadvise_hint" && v == "0";
  EXPECT_TRUE(off);
}

TEST(TiobenchTest, ValidationRejectsBadInput) {
  TiobenchParams p;
  std::string err;
  p.size_mb = 0;
  EXPECT_FALSE(ValidateTiobenchParams(p, &err));
  p.size_mb = 64;
  p.threads = {0};
  EXPECT_FALSE(ValidateTiobenchParams(p, &err));
  p.threads = {1};
  p.block_bytes = 1000;
  EXPECT_FALSE(ValidateTiobenchParams(p, &err));
  p.block_bytes = 4096;
  EXPECT_TRUE(ValidateTiobenchParams(p, &err)) << err;
}

TEST(TiobenchTest, DerivedMetricsFollowTheDefinitions) {
  TioPhaseMeasurement m;
  m.bytes = 100ULL << 20;
  m.wall_seconds = 2.0;
  m.cpu_seconds = 0.5;
  for (int i = 0; i < 98; ++i) m.latency.Record(1'000'000);  // 1 ms
  m.latency.Record(3'000'000'000ULL);                        // 3 s
  m.latency.Record(12'000'000'000ULL);                       // 12 s
  TioRowMetrics r = DeriveTioRow(m);
  EXPECT_DOUBLE_EQ(r.rate_mb_s, 50.0);
  EXPECT_DOUBLE_EQ(r.cpu_pct, 25.0);  // not divided by threads
  EXPECT_DOUBLE_EQ(r.cpu_eff, 200.0);
  EXPECT_DOUBLE_EQ(r.lat_pct_over_2s, 2.0);
  EXPECT_DOUBLE_EQ(r.lat_pct_over_10s, 1.0);
  EXPECT_DOUBLE_EQ(r.max_latency_ms, 12000.0);
  EXPECT_NEAR(r.avg_latency_ms, (98 * 1.0 + 3000 + 12000) / 100.0, 1e-9);
}

TEST(TiobenchTest, PoolingSumsAmountsAndMergesLatencies) {
  TioPhaseMeasurement a, b, pooled;
  a.runs = b.runs = 1;
  a.bytes = 10;
  b.bytes = 30;
  a.wall_seconds = 1;
  b.wall_seconds = 3;
  a.latency.Record(1000);
  b.latency.Record(5000);
  PoolTioMeasurement(a, &pooled);
  PoolTioMeasurement(b, &pooled);
  EXPECT_EQ(pooled.runs, 2u);
  EXPECT_EQ(pooled.bytes, 40u);
  EXPECT_DOUBLE_EQ(pooled.wall_seconds, 4);
  EXPECT_EQ(pooled.latency.count(), 2u);
  EXPECT_EQ(pooled.latency.max_ns(), 5000u);
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

TEST(TiobenchTest, NofragWritesOneFileAfterAnother) {
  TiobenchParams p;
  p.size_mb = 64;
  TioThreadPlan plan = PlanTioThreads(p, 4);
  std::vector<StreamSpec> w = TioPhaseStreams(plan, TioPhase::kSeqWrite, "/d", 4096, true);
  ASSERT_EQ(w.size(), 4u);
  for (uint32_t k = 0; k < 4; ++k) {
    EXPECT_EQ(w[k].numjobs, 1u);
    EXPECT_EQ(w[k].filename, "tiotest." + std::to_string(k) + ".0");
    EXPECT_EQ(w[k].stonewall, k > 0);
    EXPECT_TRUE(w[k].end_fsync);
  }
  // Only the sequential write is serialised; the other phases run all threads at once.
  EXPECT_EQ(TioPhaseStreams(plan, TioPhase::kSeqRead, "/d", 4096, true).size(), 1u);
  EXPECT_EQ(TioPhaseStreams(plan, TioPhase::kSeqWrite, "/d", 4096, false).size(), 1u);
  EXPECT_TRUE(TioPhaseSerial(TioPhase::kSeqWrite, true));
  EXPECT_FALSE(TioPhaseSerial(TioPhase::kRandomWrite, true));
}

TEST(TiobenchTest, SerialPhaseWallTimeIsTheSumOfThreads) {
  FioRunResult run;
  for (uint64_t ms : {1000, 3000}) {
    FioJobResult j;
    j.write.io_bytes = 1 << 20;
    j.write.runtime_ms = ms;
    run.jobs.push_back(j);
  }
  TioPhaseMeasurement m;
  std::string err;
  ASSERT_TRUE(MeasurementFromFio(TioPhase::kSeqWrite, 2, run, /*serial=*/false, &m, &err)) << err;
  EXPECT_DOUBLE_EQ(m.wall_seconds, 3.0);  // the slowest thread
  ASSERT_TRUE(MeasurementFromFio(TioPhase::kSeqWrite, 2, run, /*serial=*/true, &m, &err)) << err;
  EXPECT_DOUBLE_EQ(m.wall_seconds, 4.0);  // one after another
}

TEST(TiobenchTest, StreamsNeverEvictInsideFio) {
  // fio's invalidate=1 would evict inside the job's runtime and CPU window; the runner evicts
  // the read phases' files itself before fio starts (TioPhaseEvictsFirst).
  TiobenchParams p;
  p.size_mb = 64;
  for (TioPhase phase : kTioExecutionOrder) {
    for (const StreamSpec& s : TioPhaseStreams(PlanTioThreads(p, 2), phase, "/d", 4096, false)) {
      for (const auto& [k, v] : s.extra) EXPECT_NE(k, "invalidate") << TioPhaseKey(phase);
    }
  }
  EXPECT_FALSE(TioGlobalSpec().invalidate);
  EXPECT_TRUE(TioPhaseEvictsFirst(TioPhase::kSeqRead));
  EXPECT_TRUE(TioPhaseEvictsFirst(TioPhase::kRandomRead));
  EXPECT_FALSE(TioPhaseEvictsFirst(TioPhase::kSeqWrite));
  EXPECT_FALSE(TioPhaseEvictsFirst(TioPhase::kRandomWrite));
  EXPECT_EQ(TioFilePath("/d", 3), "/d/tiotest.3.0");
}

// Records fio runs into a shared event list and answers with one job per thread.
class EventFio : public FioRunner {
 public:
  explicit EventFio(std::vector<std::string>* events) : events_(events) {}
  bool Run(const FioInvocation& inv, FioRunResult* result, std::string*) override {
    events_->push_back("fio " + inv.streams.at(0).rw);
    result->jobs.clear();
    for (const StreamSpec& s : inv.streams) {
      for (uint32_t k = 0; k < s.numjobs; ++k) {
        FioJobResult job;
        FioDirectionResult& d = s.rw.find("write") != std::string::npos ? job.write : job.read;
        d.io_bytes = 4096;
        d.total_ios = 1;
        d.runtime_ms = 1;
        result->jobs.push_back(job);
      }
    }
    return true;
  }
  bool Start(const FioInvocation&, std::unique_ptr<FioBackground>*, std::string* err) override {
    *err = "not used";
    return false;
  }

 private:
  std::vector<std::string>* events_;
};

TEST(TiobenchTest, ReadPhasesEvictEveryThreadFileBeforeFioStarts) {
  std::vector<std::string> events;
  EventFio fio(&events);
  TioCellHooks hooks;
  hooks.fio = &fio;
  hooks.evict_file = [&events](const std::string& path, std::string*) {
    events.push_back("evict " + path);
    return true;
  };
  TiobenchParams p;
  p.size_mb = 8;
  p.directory = "/nonexistent-elevbench-dir";
  std::vector<TioPhaseMeasurement> m;
  std::string err;
  ASSERT_TRUE(RunTioCell(p, 2, hooks, &m, &err)) << err;
  const std::vector<std::string> want = {"fio write",
                                         "fio randwrite",
                                         "evict /nonexistent-elevbench-dir/tiotest.0.0",
                                         "evict /nonexistent-elevbench-dir/tiotest.1.0",
                                         "fio read",
                                         "evict /nonexistent-elevbench-dir/tiotest.0.0",
                                         "evict /nonexistent-elevbench-dir/tiotest.1.0",
                                         "fio randread"};
  EXPECT_EQ(events, want);
}

TEST(TiobenchTest, AFailedEvictionFailsTheCellBeforeFioRuns) {
  std::vector<std::string> events;
  EventFio fio(&events);
  TioCellHooks hooks;
  hooks.fio = &fio;
  hooks.evict_file = [](const std::string&, std::string* err) {
    *err = "posix_fadvise failed";
    return false;
  };
  TiobenchParams p;
  p.size_mb = 8;
  p.directory = "/nonexistent-elevbench-dir";
  std::vector<TioPhaseMeasurement> m;
  std::string err;
  EXPECT_FALSE(RunTioCell(p, 1, hooks, &m, &err));
  EXPECT_NE(err.find("seq_read"), std::string::npos) << err;
  EXPECT_NE(err.find("posix_fadvise failed"), std::string::npos) << err;
  EXPECT_EQ(events, (std::vector<std::string>{"fio write", "fio randwrite"}));
}

// Issue #18 (fuzz/corpus/results_fuzz/float_tiobench_parameters.json): a results file's
// parameters with floats where integers belong are refused with the field's name, not
// converted (get<uint64_t>() of 1e56 is undefined).
TEST(TiobenchTest, ParametersWithFloatsWhereIntegersBelongAreRefused) {
  nlohmann::json p = {{"directory", "/mnt"}, {"size_mb", 64},     {"threads", {1, 4}},
                      {"block_bytes", 4096}, {"random_ops", 100}, {"numruns", 1}};
  TiobenchParams params;
  std::string err;
  ASSERT_TRUE(TiobenchParamsFromJson(p, &params, &err)) << err;
  EXPECT_EQ(params.threads, (std::vector<uint32_t>{1, 4}));
  nlohmann::json bad = p;
  bad["size_mb"] = 1e56;
  EXPECT_FALSE(TiobenchParamsFromJson(bad, &params, &err));
  EXPECT_NE(err.find("size_mb: expected a non-negative integer"), std::string::npos) << err;
  bad = p;
  bad["threads"] = {1, 4.0e40};
  EXPECT_FALSE(TiobenchParamsFromJson(bad, &params, &err));
  EXPECT_NE(err.find("threads[1]"), std::string::npos) << err;
  bad = p;
  bad["numruns"] = 4294967297;
  EXPECT_FALSE(TiobenchParamsFromJson(bad, &params, &err));
  EXPECT_NE(err.find("numruns"), std::string::npos) << err;
}

// Issue #32 §5: the fields once read with at().get<>() (wall and CPU seconds, the metrics, the
// directory, nofrag) go through the field tables, so a malformed file gets GetJsonField's
// one-line error instead of nlohmann's exception text.
TEST(TiobenchTest, RecordAndParameterErrorsNameTheKey) {
  TioRecord rec;
  rec.scheduler = "bfq";
  rec.identifier = "bfq";
  rec.measurement.threads = 4;
  rec.measurement.wall_seconds = 2.5;
  rec.metrics.cpu_eff = 12;
  const nlohmann::json good = TioRecordToJson(rec);
  TioRecord back;
  std::string err;
  ASSERT_TRUE(TioRecordFromJson(good, &back, &err)) << err;
  EXPECT_EQ(TioRecordToJson(back), good);
  const struct {
    const char* key;
    nlohmann::json value;  // null: the key is removed
    const char* err;
  } record_cases[] = {
      {"wall_seconds", nullptr, "wall_seconds: missing"},
      {"cpu_seconds", "x", "cpu_seconds: expected a number"},
      {"metrics", "x", "metrics: expected an object"},
  };
  for (const auto& c : record_cases) {
    nlohmann::json bad = good;
    if (c.value.is_null()) {
      bad.erase(c.key);
    } else {
      bad[c.key] = c.value;
    }
    EXPECT_FALSE(TioRecordFromJson(bad, &back, &err)) << c.key;
    EXPECT_EQ(err, c.err);
  }
  nlohmann::json bad = good;
  bad["metrics"].erase("cpu_eff");
  EXPECT_FALSE(TioRecordFromJson(bad, &back, &err));
  EXPECT_EQ(err, "metrics.cpu_eff: missing");

  const nlohmann::json p = {{"directory", "/mnt"}, {"size_mb", 64},     {"threads", {1, 4}},
                            {"block_bytes", 4096}, {"random_ops", 100}, {"numruns", 1}};
  TiobenchParams params;
  ASSERT_TRUE(TiobenchParamsFromJson(p, &params, &err)) << err;
  EXPECT_FALSE(params.nofrag);  // absent: false
  bad = p;
  bad["nofrag"] = "yes";
  EXPECT_FALSE(TiobenchParamsFromJson(bad, &params, &err));
  EXPECT_EQ(err, "tiobench parameters: nofrag: expected true or false");
  bad = p;
  bad.erase("directory");
  EXPECT_FALSE(TiobenchParamsFromJson(bad, &params, &err));
  EXPECT_EQ(err, "tiobench parameters: directory: missing");
}

}  // namespace
}  // namespace elevbench
