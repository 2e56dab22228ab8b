#include "harness/run/run_session.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <random>

#include "app/suites.h"
#include "fakes.h"
#include "harness/disk/disk_counters.h"
#include "harness/disk/disk_model.h"
#include "harness/fio/fio_runner.h"
#include "harness/run/lanes.h"
#include "harness/run/run_plan.h"
#include "test_util.h"

namespace elevbench {
namespace {

TEST(RunSessionTest, CounterDeltaDiffersMonotonicCountersOnly) {
  nlohmann::json before = {{"requests", 10},
                           {"busy_ns", 1000},
                           {"max_queue_depth", 3},
                           {"profile", {{"name", "ide-2003"}}}};
  nlohmann::json after = {{"requests", 25},
                          {"busy_ns", 4000},
                          {"max_queue_depth", 3},
                          {"profile", {{"name", "ide-2003"}}}};
  nlohmann::json d = CounterDelta(before, after);
  EXPECT_EQ(d["requests"], 15);
  EXPECT_EQ(d["busy_ns"], 3000);
  EXPECT_EQ(d["max_queue_depth"], 3);  // a running maximum is not differenced
  EXPECT_EQ(d["profile"]["name"], "ide-2003");
}

// Every count the daemon's stats.json holds is differenced over the cell: only the running
// maxima, the first failure's place and the profile are the values at the cell's end. A count
// added to DiskCounters and left out of CounterDelta's list (flushes was, and read cumulative)
// fails here.
TEST(RunSessionTest, CounterDeltaDiffersEveryCountOfTheDaemonsStats) {
  DiskProfile ssd;
  std::string err;
  ASSERT_TRUE(LookupDiskProfile("870evo", &ssd, &err)) << err;
  DiskCounters early;
  early.requests = early.reads = early.writes = early.bytes_read = early.bytes_written = 1;
  early.seeks = early.cached_bytes = early.flushes = early.failed_requests = 1;
  early.busy_ns = early.modelled_ns = early.achieved_ns = 1;
  DiskCounters late;
  late.requests = late.reads = late.writes = late.bytes_read = late.bytes_written = 11;
  late.seeks = late.cached_bytes = late.flushes = late.failed_requests = 11;
  late.busy_ns = late.modelled_ns = late.achieved_ns = 11;
  late.max_overrun_ns = late.max_queue_depth = 7;
  nlohmann::json before = DiskStatsToJson(early, ssd, 1);
  nlohmann::json after = DiskStatsToJson(late, ssd, 11);
  ASSERT_TRUE(after.contains("flushes"));
  const nlohmann::json d = CounterDelta(before, after);
  for (auto it = after.begin(); it != after.end(); ++it) {
    const std::string& key = it.key();
    if (key == "max_overrun_ns" || key == "max_queue_depth" || key == "profile" ||
        key == "first_failure_after_bytes" || key == "cpu_user_s" || key == "cpu_sys_s") {
      continue;  // maxima, a place, the profile; the daemon's own CPU time is this process's
    }
    EXPECT_EQ(d[key], 10) << key << " is not differenced over the cell";
  }
}

// Found by fuzz/disk_counters_fuzz: a float counter before an integer one was read as int64_t
// (1.59e27 does not fit: undefined behaviour). The input, cut to the counter that mattered.
TEST(RunSessionTest, CounterDeltaOfAFloatAndAnIntegerIsADouble) {
  const nlohmann::json before = nlohmann::json::parse(R"({"uptime_ns": 1588888888888888888000000000,
      "requests": 100, "cpu_sys_s": 0.06})");
  const nlohmann::json after =
      nlohmann::json::parse(R"({"uptime_ns": 15000000000, "requests": 300, "cpu_sys_s": 0.06})");
  const nlohmann::json d = CounterDelta(before, after);
  ASSERT_TRUE(d["uptime_ns"].is_number_float());
  EXPECT_DOUBLE_EQ(d["uptime_ns"].get<double>(), 15000000000.0 - 1588888888888888888000000000.0);
  EXPECT_EQ(d["requests"], 200);
  EXPECT_DOUBLE_EQ(d["cpu_sys_s"].get<double>(), 0.0);
}

// Integers whose difference overflows int64_t (or that do not fit it) are differenced as doubles.
TEST(RunSessionTest, CounterDeltaDoesNotOverflow) {
  const nlohmann::json before = nlohmann::json::parse(R"({"busy_ns": -9000000000000000000,
      "seeks": 0})");
  const nlohmann::json after = nlohmann::json::parse(R"({"busy_ns": 9000000000000000000,
      "seeks": 18446744073709551615})");
  const nlohmann::json d = CounterDelta(before, after);
  EXPECT_DOUBLE_EQ(d["busy_ns"].get<double>(), 1.8e19);
  EXPECT_DOUBLE_EQ(d["seeks"].get<double>(), 18446744073709551615.0);
}

TEST(RunSessionTest, CounterDeltaWithoutBeforeSaysSo) {
  nlohmann::json d = CounterDelta(nullptr, {{"requests", 5}});
  EXPECT_EQ(d["totals_since_daemon_start"]["requests"], 5);
}

}  // namespace
}  // namespace elevbench

// ---- The session loop on a fake fio: no I/O, no devices, every path of the loop.

namespace elevbench {
namespace {

// The default fake fio (every stream clone moves its stream's bytes in one second), except
// that jobs drawn at random (fixed seed) take `jitter_ms` longer: a spread the adaptive
// repetitions must see.
testing::FakeFioMeasure JitteredOneSecondJobs(uint64_t jitter_ms) {
  auto rng = std::make_shared<std::mt19937>(1);
  return [rng, jitter_ms](const FioInvocation& inv, double elapsed, FioRunResult* result) {
    testing::MeasureOneSecondPerJob(inv, elapsed, result);
    for (FioJobResult& job : result->jobs) {
      const uint64_t extra_ms = (*rng)() % 2 ? jitter_ms : 0;
      job.job_runtime_ms += extra_ms;
      for (FioDirectionResult* d : {&job.read, &job.write}) {
        if (d->runtime_ms > 0) d->runtime_ms += extra_ms;  // the direction the job moved
      }
    }
  };
}

class RunSessionLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    entry_ = FindSuite("tiobench");
    ASSERT_NE(entry_, nullptr);
    suite_ = entry_->make();
    CLI::App app;
    suite_->AddOptions(&app);
    ASSERT_NO_THROW(app.parse(std::string("--size 8 --random 100 --threads 1,2"), false));
    MachineInfo machine;
    std::string err;
    ASSERT_TRUE(suite_->Prepare(machine, &err)) << err;
    config_.identifiers = {"k-dl", "k-bfq"};
    config_.labels = {"DL", "BFQ"};
    config_.repetitions = 2;
    config_.seed = 3;
    config_.out_path = dir_.path() + "/r.json";
    config_.work_dir = dir_.path();
    config_.measure = entry_->measure;
    target_.directory = dir_.path();
    doc_.suite = "tiobench";
  }

  testing::ScopedTempDir dir_;
  const SuiteEntry* entry_ = nullptr;
  std::unique_ptr<Suite> suite_;
  SessionConfig config_;
  SessionTarget target_;
  ResultsDocument doc_;
  Progress progress_{stderr, false};
};

TEST_F(RunSessionLoopTest, AutoRepetitionsStopWhenEveryHeadlineIntervalIsNarrow) {
  testing::FakeFio fio;  // identical numbers every time: the intervals are 0 wide after the minimum
  config_.adaptive.enabled = true;
  config_.adaptive.min_repetitions = 3;
  config_.adaptive.max_repetitions = 6;
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  EXPECT_EQ(doc_.cells.size(), 2u * 2 * 3);  // configurations × thread counts × 3 rounds
  EXPECT_EQ(doc_.context["repetitions"], 3);
  EXPECT_EQ(doc_.context["repetitions_auto"]["converged"], true);
  EXPECT_TRUE(doc_.complete);
}

TEST_F(RunSessionLoopTest, AutoRepetitionsStopAtTheCapWhenSpreadStaysWide) {
  testing::FakeFio fio;
  fio.measure = JitteredOneSecondJobs(
      1000);  // phases take 1 or 2 s at random: such a spread never narrows to 5 %
  config_.adaptive.enabled = true;
  config_.adaptive.min_repetitions = 3;
  config_.adaptive.max_repetitions = 4;
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  EXPECT_EQ(doc_.cells.size(), 2u * 2 * 4);
  EXPECT_EQ(doc_.context["repetitions"], 4);
  EXPECT_EQ(doc_.context["repetitions_auto"]["converged"], false);
  double widest = 0;
  std::string which;
  EXPECT_FALSE(HeadlineIntervalsConverged(doc_, entry_->measure, 3, 0.05, &widest, &which));
  EXPECT_GT(widest, 0.05);
  EXPECT_NE(which.find("rate_mb_s"), std::string::npos);
}

TEST_F(RunSessionLoopTest, RunsEveryCellAndLabelsEveryRecord) {
  testing::FakeFio fio;
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  EXPECT_EQ(failed, 0u);
  // 2 configurations × 2 thread counts × 2 repetitions, 4 phases each.
  ASSERT_EQ(doc_.cells.size(), 8u);
  EXPECT_EQ(fio.runs.size(), 8u * 4);
  EXPECT_EQ(doc_.records.size(), 8u * 4);
  for (const nlohmann::json& r : doc_.records) {
    const std::string id = r.at("identifier");
    EXPECT_EQ(r.at("label"), id == "k-dl" ? "DL" : "BFQ");
    EXPECT_TRUE(r.contains("repetition"));
  }
  EXPECT_EQ(doc_.cells[0].variant, (nlohmann::json{{"threads", 1}}));
  EXPECT_EQ(doc_.cells[1].variant, (nlohmann::json{{"threads", 2}}));
  EXPECT_TRUE(doc_.complete);
  // The saved file is the document, with the summary of 2 ids × 2 thread counts × 4 phases.
  ResultsDocument saved;
  ASSERT_TRUE(LoadResultsFile(config_.out_path, &saved, &err)) << err;
  EXPECT_TRUE(saved.complete);
  EXPECT_EQ(saved.records.size(), doc_.records.size());
  EXPECT_EQ(saved.summary.size(), 16u);
  EXPECT_EQ(saved.parameters.at("size_mb"), 8);
}

TEST_F(RunSessionLoopTest, AStopRequestEndsTheSessionAfterTheCurrentCell) {
  testing::FakeFio fio;
  size_t asked = 0;
  config_.stop_requested = [&] { return ++asked > 3; };  // before cells 1-3: go on
  config_.stop_reason = [] { return std::string("stopped by the test"); };
  size_t failed = 0;
  std::string err;
  EXPECT_FALSE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err));
  EXPECT_EQ(err, "stopped by the test");
  EXPECT_EQ(doc_.cells.size(), 3u);
  EXPECT_FALSE(doc_.complete);
  ResultsDocument saved;
  ASSERT_TRUE(LoadResultsFile(config_.out_path, &saved, &err)) << err;
  EXPECT_EQ(saved.cells.size(), 3u);
  EXPECT_FALSE(saved.complete);
}

TEST_F(RunSessionLoopTest, CachesAreDroppedThroughTheTargetBeforeEveryCellWhenAllowed) {
  testing::FakeFio fio;
  size_t drops = 0;
  target_.drop_caches = [&](std::string*) { return ++drops > 0; };
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  EXPECT_EQ(drops, 0u);  // config_.drop_caches is false: the run may not drop them
  config_.drop_caches = true;
  doc_ = ResultsDocument{};
  doc_.suite = "tiobench";
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  EXPECT_EQ(drops, doc_.cells.size());
  target_.drop_caches = [](std::string* e) {
    *e = "drop_caches: Permission denied";
    return false;
  };
  doc_ = ResultsDocument{};
  doc_.suite = "tiobench";
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  EXPECT_EQ(failed, doc_.cells.size());  // a cell whose caches could not be dropped fails
  EXPECT_EQ(doc_.cells[0].error, "drop_caches: Permission denied");
}

// A suite that counts its SetUp calls and otherwise is the suite it wraps.
class SetUpCountingSuite : public Suite {
 public:
  explicit SetUpCountingSuite(Suite* inner) : inner_(inner) {}
  void AddOptions(CLI::App* command) override { inner_->AddOptions(command); }
  bool Prepare(const MachineInfo& m, std::string* err) override { return inner_->Prepare(m, err); }
  uint64_t BytesNeeded() const override { return inner_->BytesNeeded(); }
  nlohmann::json Parameters() const override { return inner_->Parameters(); }
  std::vector<SuiteVariant> Variants() const override { return inner_->Variants(); }
  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override {
    ++set_ups;
    return inner_->SetUp(env, setup, err);
  }
  bool RunCell(const SuiteVariant& v, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    return inner_->RunCell(v, env, records, err);
  }
  std::string CachePolicy(const std::string& global) const override {
    return inner_->CachePolicy(global);
  }
  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    return inner_->Summarize(doc);
  }
  size_t set_ups = 0;

 private:
  Suite* inner_;
};

// The placements each cell's environment carried, by identifier.
class PlacementRecordingSuite : public SetUpCountingSuite {
 public:
  using SetUpCountingSuite::SetUpCountingSuite;
  bool RunCell(const SuiteVariant& v, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    load_ioprio.push_back(env.load_placement.ioprio);
    probe_procs.push_back(env.probe_placement.cgroup_procs);
    return SetUpCountingSuite::RunCell(v, env, records, err);
  }
  std::vector<int> load_ioprio;
  std::vector<std::vector<std::string>> probe_procs;
};

// --controls: each configuration's control reaches its cells' environment and is kept beside
// the scheduler in every cell and record.
TEST_F(RunSessionLoopTest, EachConfigurationsControlPlacesItsCellsAndIsRecorded) {
  testing::FakeFio fio;
  PlacementRecordingSuite suite(suite_.get());
  config_.identifiers = {"k-dl", "k-dl-idle"};
  config_.labels = {"DL", "DL+idle"};
  config_.controls = {{"none", {}, {}}, {"ionice:load=idle", {}, {}}};
  config_.controls[1].load.ioprio = 3 << 13;
  config_.controls[1].probe.cgroup_procs = {"/x/cgroup.procs"};
  config_.repetitions = 1;
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(suite, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  ASSERT_EQ(doc_.cells.size(), 4u);
  for (size_t i = 0; i < doc_.cells.size(); ++i) {
    const bool idle = doc_.cells[i].identifier == "k-dl-idle";
    EXPECT_EQ(doc_.cells[i].control, idle ? "ionice:load=idle" : "none");
    EXPECT_EQ(suite.load_ioprio[i], idle ? 3 << 13 : -1);
    EXPECT_EQ(suite.probe_procs[i].size(), idle ? 1u : 0u);
  }
  for (const nlohmann::json& r : doc_.records) {
    EXPECT_EQ(r.at("control"), r.at("identifier") == "k-dl-idle" ? "ionice:load=idle" : "none");
  }
  ResultsDocument saved;
  ASSERT_TRUE(LoadResultsFile(config_.out_path, &saved, &err)) << err;
  EXPECT_EQ(saved.cells[0].control, doc_.cells[0].control);  // the cell's member reads back
  EXPECT_FALSE(saved.cells[0].variant.contains("control"));
  config_.controls.pop_back();  // one control for two configurations
  EXPECT_FALSE(RunSession(suite, config_, target_, &fio, &progress_, &doc_, &failed, &err));
}

// A guest's run of --kernels: each configuration's own label (without its kernel's) is written
// into its cells and records as "configuration_label" and reads back; a run without them writes
// none (the other tests' documents).
TEST_F(RunSessionLoopTest, AGuestsConfigurationLabelsAreRecordedInEveryCellAndRecord) {
  testing::FakeFio fio;
  config_.identifiers = {"61-dl", "61-AS"};
  config_.labels = {"61-DL", "61-AS"};
  config_.configuration_labels = {"DL", "AS"};
  config_.repetitions = 1;
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  ASSERT_FALSE(doc_.cells.empty());
  for (const CellRecord& c : doc_.cells) {
    EXPECT_EQ(c.configuration_label, c.identifier == "61-AS" ? "AS" : "DL");
  }
  ASSERT_FALSE(doc_.records.empty());
  for (const nlohmann::json& r : doc_.records) {
    EXPECT_EQ(r.at("configuration_label"), r.at("identifier") == "61-AS" ? "AS" : "DL");
  }
  ResultsDocument saved;
  ASSERT_TRUE(LoadResultsFile(config_.out_path, &saved, &err)) << err;
  EXPECT_EQ(saved.cells[0].configuration_label, doc_.cells[0].configuration_label);
  EXPECT_FALSE(saved.cells[0].variant.contains("configuration_label"));
  config_.configuration_labels.pop_back();  // one configuration label for two configurations
  EXPECT_FALSE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err));
}

// --fresh-fs: before every cell, the first too (its filesystem was made on the image, the others'
// through the disk), the filesystem is made again and the suite lays its files out again; a
// filesystem that cannot be made again fails the cell with why.
TEST_F(RunSessionLoopTest, AFreshFilesystemIsMadeAndLaidOutBeforeEveryCell) {
  testing::FakeFio fio;
  SetUpCountingSuite counting(suite_.get());
  std::vector<size_t> remade_after;  // cells recorded when each remake happened
  target_.remake_filesystem = [&](std::string*) {
    remade_after.push_back(doc_.cells.size());
    return true;
  };
  config_.fresh_fs = true;
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(counting, config_, target_, &fio, &progress_, &doc_, &failed, &err))
      << err;
  const size_t cells = doc_.cells.size();
  ASSERT_EQ(cells, 2u * 2 * 2);  // configurations × thread counts × repetitions
  std::vector<size_t> expected;
  for (size_t i = 0; i < cells; ++i) expected.push_back(i);
  EXPECT_EQ(remade_after, expected);
  EXPECT_EQ(counting.set_ups, cells + 1);  // the run's own SetUp, then one after each remake
  EXPECT_EQ(failed, 0u);

  target_.remake_filesystem = [](std::string* e) {
    *e = "mkfs failed on /dev/loop9: exit 1";
    return false;
  };
  doc_ = ResultsDocument{};
  doc_.suite = "tiobench";
  ASSERT_TRUE(RunSession(counting, config_, target_, &fio, &progress_, &doc_, &failed, &err))
      << err;
  EXPECT_EQ(doc_.cells[0].error, "mkfs failed on /dev/loop9: exit 1");
  EXPECT_EQ(failed, cells);

  target_.remake_filesystem = nullptr;
  doc_ = ResultsDocument{};
  doc_.suite = "tiobench";
  ASSERT_TRUE(RunSession(counting, config_, target_, &fio, &progress_, &doc_, &failed, &err))
      << err;
  EXPECT_EQ(doc_.cells[0].error, "--fresh-fs: the target's filesystem cannot be made again");
}

// The tracer is started before each cell and stopped after it, hears every phase the suite
// announces, and its account becomes the cell's request_trace; bfq's queue merges reach the
// cell's records.
TEST_F(RunSessionLoopTest, EveryCellIsTracedBetweenBeginAndEnd) {
  testing::FakeFio fio;
  testing::FakeTracer tracer;
  tracer.queue_merges = 2;
  target_.tracer = &tracer;
  config_.repetitions = 1;
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  ASSERT_EQ(doc_.cells.size(), 4u);
  EXPECT_EQ(tracer.begun,
            (std::vector<std::string>{"cell001-", "cell002-", "cell003-", "cell004-"}));
  EXPECT_EQ(tracer.open_cells, 0);
  for (size_t i = 0; i < doc_.cells.size(); ++i) {
    ASSERT_TRUE(doc_.cells[i].request_trace.has_value());
    const RequestTraceRecord& t = *doc_.cells[i].request_trace;
    EXPECT_EQ(t.raw_events, tracer.begun[i]);
    ASSERT_EQ(t.phases.size(), 4u);
    uint64_t k = 0;  // the phases in the order the suite announced them
    for (const char* phase : {"seq_write", "random_write", "seq_read", "random_read"}) {
      EXPECT_EQ(t.phases.at(phase).read.requests, ++k) << phase;
    }
  }
  for (const nlohmann::json& r : doc_.records) EXPECT_EQ(r.at("scheduler_queue_merges"), 2);
  ResultsDocument saved;
  ASSERT_TRUE(LoadResultsFile(config_.out_path, &saved, &err)) << err;
  ASSERT_TRUE(saved.cells.at(2).request_trace.has_value());
  EXPECT_EQ(RequestTraceRecordToJson(*saved.cells.at(2).request_trace),
            RequestTraceRecordToJson(*doc_.cells.at(2).request_trace));
}

// A tracer that cannot start leaves the cell untraced and says why; the cell still runs.
TEST_F(RunSessionLoopTest, ACellTheTracerCannotTraceStillRuns) {
  testing::FakeFio fio;
  testing::FakeTracer tracer;
  tracer.fail_begin = true;
  target_.tracer = &tracer;
  config_.repetitions = 1;
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  EXPECT_EQ(failed, 0u);
  for (const CellRecord& cell : doc_.cells) {
    EXPECT_EQ(cell.status, "ok");
    ASSERT_TRUE(cell.request_trace.has_value());
    EXPECT_EQ(RequestTraceRecordToJson(*cell.request_trace),
              (nlohmann::json{{"complete", false}, {"problem", "not traced: no tracefs"}}));
  }
  for (const nlohmann::json& r : doc_.records) EXPECT_FALSE(r.contains("scheduler_queue_merges"));
}

TEST_F(RunSessionLoopTest, AFailedCellIsRecordedAndTheRunGoesOn) {
  testing::FakeFio fio;
  fio.failing_runs = {2};  // the second phase of the first cell
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  EXPECT_EQ(failed, 1u);
  ASSERT_EQ(doc_.cells.size(), 8u);
  EXPECT_EQ(doc_.cells[0].status, "failed");
  EXPECT_NE(doc_.cells[0].error.find("fake fio failure"), std::string::npos);
  EXPECT_EQ(doc_.cells[1].status, "ok");
  EXPECT_EQ(doc_.records.size(), 7u * 4);  // the failed cell has no records
}

TEST_F(RunSessionLoopTest, RejectsMismatchedLabels) {
  testing::FakeFio fio;
  config_.labels = {"DL"};
  size_t failed = 0;
  std::string err;
  EXPECT_FALSE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err));
  EXPECT_NE(err.find("label"), std::string::npos);
  EXPECT_TRUE(fio.runs.empty());
}

TEST_F(RunSessionLoopTest, NoConfigurationsRunsOnePassOnTheCurrentScheduler) {
  testing::FakeFio fio;
  config_.identifiers = {"6.18.44"};
  config_.labels = {"MQ-DEADLINE"};
  config_.repetitions = 1;
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  ASSERT_EQ(doc_.cells.size(), 2u);
  EXPECT_EQ(doc_.cells[0].scheduler, "");
}

// Issue #18: a failed cell whose disk counters show an injected EIO says so before its error.
TEST_F(RunSessionLoopTest, AFailedCellSaysWhatTheDiskCountersShow) {
  testing::FakeFio fio;
  fio.failing_runs = {2};
  int reads = 0;
  target_.disk_counters = [&]() -> nlohmann::json {
    ++reads;
    return {{"failed_requests", reads > 1 ? 4 : 0}, {"first_failure_after_bytes", 64'000'000}};
  };
  target_.failure_cause = [](const nlohmann::json& c) {
    return c.value("failed_requests", 0) > 0 ? std::string("I/O error on the emulated disk")
                                             : std::string();
  };
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err)) << err;
  EXPECT_EQ(failed, 1u);
  EXPECT_EQ(doc_.cells[0].error.rfind("I/O error on the emulated disk: ", 0), 0u)
      << doc_.cells[0].error;
  EXPECT_NE(doc_.cells[0].error.find("fake fio failure"), std::string::npos);
  EXPECT_EQ(doc_.cells[0].disk_counters["failed_requests"], 4);  // differenced over the cell
  EXPECT_EQ(doc_.cells[1].status, "ok");  // 0 failed in its own delta: no cause, still ok
}

// Issue #18: a device lost under the run (its daemon died) fails that cell with why and stops
// the session with it; the results file holds the cells done so far.
TEST_F(RunSessionLoopTest, ALostTargetFailsTheCellAndStopsTheSession) {
  testing::FakeFio fio;
  int asked = 0;
  target_.lost = [&](std::string* why) {
    if (++asked < 3) return false;
    *why = "the emulated disk daemon died (signal 9)";
    return true;
  };
  size_t failed = 0;
  std::string err;
  EXPECT_FALSE(RunSession(*suite_, config_, target_, &fio, &progress_, &doc_, &failed, &err));
  EXPECT_EQ(err, "the emulated disk daemon died (signal 9)");
  ASSERT_EQ(doc_.cells.size(), 3u);
  EXPECT_EQ(doc_.cells[1].status, "ok");
  EXPECT_EQ(doc_.cells[2].status, "failed");
  EXPECT_EQ(doc_.cells[2].error, "the emulated disk daemon died (signal 9)");
  EXPECT_EQ(doc_.records.size(), 2u * 4);
  ResultsDocument saved;
  ASSERT_TRUE(LoadResultsFile(config_.out_path, &saved, &err)) << err;
  EXPECT_EQ(saved.cells.size(), 3u);
  EXPECT_FALSE(saved.complete);
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// --lanes: two sessions on their shares of the plan, merged, give the serial run's cells and
// records in the serial order, each cell with its lane and plan index.
TEST_F(RunSessionLoopTest, LanesRunTheirShareAndMergeIntoTheSerialOrder) {
  testing::FakeFio serial_fio;
  size_t failed = 0;
  std::string err;
  ASSERT_TRUE(RunSession(*suite_, config_, target_, &serial_fio, &progress_, &doc_, &failed, &err))
      << err;
  const auto dealt =
      DealPlanToLanes(BuildRunPlan(config_.identifiers.size(), suite_->Variants().size(),
                                   config_.repetitions, config_.seed),
                      2);
  std::vector<ResultsDocument> lanes(2);
  for (int k = 0; k < 2; ++k) {
    testing::FakeFio fio;
    SessionConfig lc = config_;
    lc.lane = k;
    lc.plan_cells = dealt[static_cast<size_t>(k)];
    lc.out_path = dir_.path() + "/lane" + std::to_string(k) + ".json";
    lanes[static_cast<size_t>(k)].suite = "tiobench";
    ASSERT_TRUE(RunSession(*suite_, lc, target_, &fio, &progress_, &lanes[static_cast<size_t>(k)],
                           &failed, &err))
        << err;
    EXPECT_EQ(fio.runs.size(), dealt[static_cast<size_t>(k)].size() * 4);
  }
  ResultsDocument merged;
  ASSERT_TRUE(MergeLaneDocuments(lanes, &merged, &err)) << err;
  ASSERT_EQ(merged.cells.size(), doc_.cells.size());
  for (size_t i = 0; i < merged.cells.size(); ++i) {
    EXPECT_EQ(merged.cells[i].plan_index, i);
    EXPECT_EQ(merged.cells[i].lane, static_cast<int>((i / 2) % 2));  // blocks of 2 variants
    EXPECT_EQ(merged.cells[i].identifier, doc_.cells[i].identifier);
    EXPECT_EQ(merged.cells[i].variant, doc_.cells[i].variant);
    EXPECT_EQ(merged.cells[i].repetition, doc_.cells[i].repetition);
  }
  ASSERT_EQ(merged.records.size(), doc_.records.size());
  for (size_t i = 0; i < merged.records.size(); ++i) {
    for (const char* key : {"identifier", "repetition", "threads", "phase"}) {
      EXPECT_EQ(merged.records[i].value(key, nlohmann::json()),
                doc_.records[i].value(key, nlohmann::json()))
          << i << " " << key;
    }
  }
  EXPECT_TRUE(merged.complete);
}

}  // namespace
}  // namespace elevbench
