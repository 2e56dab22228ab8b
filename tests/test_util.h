#pragma once
// Shared helpers for the tests: paths of fixtures and golden files, golden comparison, files,
// temporary directories and environment variables, and the fixtures that the tests of one unit
// split over several files share. The fakes are in fakes.h.

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "app/suites.h"
#include "fakes.h"
#include "harness/compare/compare.h"
#include "harness/device/restore_journal.h"
#include "harness/device/sysfs.h"
#include "harness/history/history_store.h"
#include "harness/process/subprocess.h"
#include "reporters/report_tables.h"
#include "scenarios/tiobench/tiobench_measurements.h"
#include "scenarios/tiobench/tiobench_records.h"

// CMake defines both for the test binary; the fallbacks let a single test file be compiled by
// hand from the project root.
#ifndef ELEVBENCH_TEST_DATA_DIR
#define ELEVBENCH_TEST_DATA_DIR "tests"
#endif
#ifndef ELEVBENCH_BINARY
#define ELEVBENCH_BINARY "build/elevbench"
#endif

namespace elevbench::testing {

/// Absolute path of a file under tests/.
inline std::string TestDataPath(const std::string& relative) {
  return std::string(ELEVBENCH_TEST_DATA_DIR) + "/" + relative;
}

/// Compares `actual` with tests/golden/<name>; with ELEVBENCH_UPDATE_GOLDEN=1 rewrites it.
void ExpectMatchesGolden(const std::string& name, const std::string& actual);

/// A fresh directory "<base>/elevbench-test-XXXXXX", removed with its contents on destruction.
class ScopedTempDir {
 public:
  explicit ScopedTempDir(const std::string& base = "/tmp");
  ~ScopedTempDir();
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Sets an environment variable while it lives and then puts back what was there before (the
/// value, or its absence): the test binary runs with a state directory of its own
/// (private_state_dir_test.cc) that a test must not lose.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

/// `files` with their measurements and plot series made by their suites, as `report` makes them
/// for the generic formats (test failure when a file's records are not its suite's).
inline std::vector<NamedResults> WithMeasurements(std::vector<NamedResults> files) {
  for (NamedResults& file : files) {
    std::string err;
    EXPECT_TRUE(MeasurementsOf(file.doc, &file.measurements, &err)) << file.name << ": " << err;
    EXPECT_TRUE(PlotSeriesOf(file.doc, &file.plots, &err)) << file.name << ": " << err;
  }
  return files;
}

/// One file with its measurements and plot series (WithMeasurements).
inline NamedResults Measured(NamedResults file) {
  return std::move(WithMeasurements(std::vector<NamedResults>{std::move(file)}).front());
}

/// Compares what `run` and `report` print for `doc` in `format` (RenderResults: the suite's
/// tables, then the verdict block) with tests/golden/<name>, after checking that it is `tables`
/// (the suite renderer's own text) followed by the block alone: the block never changes a table.
inline void ExpectPrintedMatchesGolden(const std::string& name, const ResultsDocument& doc,
                                       const std::string& format, const std::string& tables) {
  std::string text, err;
  ASSERT_TRUE(RenderResults(doc, format, ReportOptions{}, &text, &err)) << err;
  ASSERT_EQ(text.rfind(tables, 0), 0u) << "the tables come first, unchanged:\n" << text;
  EXPECT_EQ(text.substr(tables.size()).rfind("\nVerdict (", 0), 0u) << text;
  ExpectMatchesGolden(name, text);
}

/// Runs this build's elevbench (ELEVBENCH_BINARY) with `args`, its stdout and stderr captured,
/// stopped after `timeout_seconds`; a test failure when it cannot be started. The CLI tests'
/// one way in.
ProcessResult RunElevbenchCli(const std::vector<std::string>& args, double timeout_seconds = 120);

/// Options for running `elevbench restore` from a test: stopped after 120 s (restore itself
/// finishes within a bounded time; a test never waits on it without one).
inline ProcessOptions RestoreProcessOptions() {
  ProcessOptions options;
  options.timeout_seconds = 120;
  return options;
}

/// Reads a whole file (test failure if missing).
std::string ReadTestFile(const std::string& path);

/// Reads a whole file, or "" when it cannot be opened: for files whose absence is an answer
/// (a /proc/PID entry of a process that is gone, a sysfs attribute this kernel lacks).
std::string ReadFileOrEmpty(const std::string& path);

/// Every backing device's writeback limits ("max_ratio_fine\nmin_ratio_fine\nstrict_limit\n"),
/// by its name ("7:3"): what a run that gives a disk its own limit must leave as it found.
std::map<std::string, std::string> BdiWritebackValues();

/// The writeback limits of a backing device made after BdiWritebackValues() was taken.
inline constexpr const char* kDefaultBdiWriteback = "1000000\n0\n0\n";

/// Whether the running kernel offers the I/O scheduler `name`, as `run --schedulers` decides it
/// (OfferedSchedulers). A kernel built without CONFIG_IOSCHED_BFQ has no bfq.
bool KernelOffersScheduler(const std::string& name);

/// The scheduler a live test sets against mq-deadline: "bfq:low_latency=0" (the anticipating
/// one) where the kernel offers bfq, else "kyber", so that the test still switches between two
/// real schedulers on a kernel without bfq.
std::string SecondLiveScheduler();

/// Loads the results file tests/<relative> as the reports take it (a test failure when it does
/// not load), named `name`, or by its file name when `name` is empty.
NamedResults LoadNamedResults(const std::string& relative, const std::string& name = "");

// ---- The restore journal's tests (restore_journal*_test.cc) ----------------------------------

/// A fresh directory "/tmp/elevbench_<tag>_XXXXXX" that the caller removes, or "" when it cannot
/// be made.
inline std::string MakeTempDir(const char* tag) {
  std::string tmpl = std::string("/tmp/elevbench_") + tag + "_XXXXXX";
  return mkdtemp(tmpl.data()) ? tmpl : "";
}

/// Forks a child that runs `sleep 30`, optionally ignoring SIGTERM first.
inline pid_t SpawnSleeper(bool ignore_term) {
  pid_t pid = fork();
  if (pid == 0) {
    if (ignore_term) signal(SIGTERM, SIG_IGN);
    execlp("sleep", "sleep", "30", static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the exec happened, so the start time and comm are the sleeper's.
  for (int i = 0; i < 200; ++i) {
    std::string comm = testing::ReadFileOrEmpty("/proc/" + std::to_string(pid) + "/comm");
    if (comm == "sleep\n") break;
    usleep(5000);
  }
  return pid;
}

/// A fake sysfs tree (a queue of "sdz" with a scheduler, read-ahead and an iosched tunable, and
/// vm.dirty_bytes) under a temporary directory, with a state directory for the journal beside
/// it; writes go through the fake kernel's hook (fakes.h).
class RestoreJournalTest : public ::testing::Test {
 protected:
  // Paths of the fake tree's queue attributes, as the system names them.
  static inline const std::string kSched = "/sys/block/sdz/queue/scheduler";
  static inline const std::string kReadAhead = "/sys/block/sdz/queue/read_ahead_kb";
  static inline const std::string kReadExpire = "/sys/block/sdz/queue/iosched/read_expire";

  void SetUp() override {
    dir_ = MakeTempDir("journal");
    ASSERT_FALSE(dir_.empty());
    root_ = dir_ + "/root";
    state_ = dir_ + "/state";
    Put("sys/block/sdz/queue/scheduler", "none [mq-deadline] kyber bfq \n");
    Put("sys/block/sdz/queue/read_ahead_kb", "128\n");
    Put("sys/block/sdz/queue/iosched/read_expire", "250\n");  // an admin-tuned value
    Put("proc/sys/vm/dirty_bytes", "0\n");
    sysfs_ = Sysfs(root_);
    sysfs_.set_write_hook(testing::MakeFakeKernelWriteHook());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Put(const std::string& rel, const std::string& content) {
    std::filesystem::create_directories(std::filesystem::path(root_ + "/" + rel).parent_path());
    std::ofstream(root_ + "/" + rel) << content;
  }
  std::string Get(const std::string& system_path) {
    std::string v;
    std::string err;
    EXPECT_TRUE(sysfs_.Read(system_path, &v, &err)) << err;
    return v;
  }
  std::string JournalPath() const { return state_ + "/journal.json"; }

  // Records and changes the scheduler and read-ahead, the way a run does.
  void RecordAndChange(RestoreJournal* j) {
    std::string err;
    ASSERT_TRUE(j->RecordSysfsValue(kSched, &err)) << err;
    ASSERT_TRUE(sysfs_.WriteVerified(kSched, "bfq", &err)) << err;
    ASSERT_TRUE(j->RecordSysfsValue(kReadAhead, &err)) << err;
    ASSERT_TRUE(sysfs_.WriteVerified(kReadAhead, "1024", &err)) << err;
    ASSERT_TRUE(j->RecordSysfsValue(kSched, &err)) << err;  // save-once: no new entry
    ASSERT_TRUE(sysfs_.WriteVerified(kSched, "kyber", &err)) << err;
  }

  std::string dir_, root_, state_;
  Sysfs sysfs_;
};

// ---- The run history's tests (history*_test.cc) ------------------------------------------------

/// tests/golden/results_small.json (tiobench, mq-deadline and bfq:low_latency=0, threads 1, one
/// repetition) as one run at `start_time` on `host`, repeated once per value of `dl_seq_read`:
/// repetition r has mq-deadline's seq_read rate set to dl_seq_read[r].
inline ResultsDocument TiobenchRun(const std::string& start_time, const std::string& host,
                                   const std::vector<double>& dl_seq_read) {
  ResultsDocument base;
  std::string err;
  EXPECT_TRUE(LoadResultsFile(testing::TestDataPath("golden/results_small.json"), &base, &err))
      << err;
  ResultsDocument doc = base;
  doc.context["start_time"] = start_time;
  doc.context["hostname"] = host;
  doc.context["command_line"] = "elevbench run tiobench --dir /x";
  doc.context["repetitions"] = dl_seq_read.size();
  doc.context["target"] = {{"kind", "directory"}, {"path", "/x"}, {"filesystem", "ext4"}};
  doc.records.clear();
  doc.cells.clear();
  for (uint32_t rep = 0; rep < dl_seq_read.size(); ++rep) {
    for (CellRecord cell : base.cells) {
      cell.repetition = rep;
      doc.cells.push_back(cell);
    }
    for (nlohmann::json record : base.records) {
      record["repetition"] = rep;
      if (record["identifier"] == "6.18.44-dl" && record["phase"] == "seq_read") {
        record["metrics"]["rate_mb_s"] = dl_seq_read[rep];
      }
      doc.records.push_back(record);
    }
  }
  return doc;
}

/// The series of mq-deadline's seq_read rate in TiobenchRun's documents.
inline SeriesKey DlSeqRead() {
  return {"tiobench", "seq_read", "threads=1", "mq-deadline", "rate_mb_s", ""};
}

/// What `run` hands the history with a run: its measurements, made by its suite's measurer.
inline std::vector<Measurement> MeasurementsFor(const ResultsDocument& doc) {
  std::vector<Measurement> measurements;
  std::string err;
  EXPECT_TRUE(MeasurementsOf(doc, &measurements, &err)) << err;
  return measurements;
}

/// True when `s` is one line: a message that is not empty and holds no newline.
inline bool OneLine(const std::string& s) {
  return !s.empty() && s.find('\n') == std::string::npos;
}

/// A fresh SQLite history database, history.db in a temporary directory (not created yet).
class HistorySqliteTest : public ::testing::Test {
 protected:
  ScopedTempDir temp_;
  const std::string db_ = temp_.path() + "/history.db";
};

// ---- The compare tests (compare*_test.cc) -------------------------------------------------------

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
