// The OraSim stand-in suite on a fake fio: the job it hands fio (O_DIRECT 8 KiB random readers,
// O_SYNC random writers, an O_SYNC sequential log, time-based, one seed for every
// configuration), and the score it derives from what fio reports.

#include "scenarios/orasim/orasim_suite.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>

#include "fakes.h"
#include "scenarios/orasim/orasim_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

// Every stream of a run moves 8 KiB × (100 × its index + 100) in 10 s.
void MeasureOrasimStreams(const FioInvocation& inv, double, FioRunResult* result) {
  uint64_t k = 1;
  for (const StreamSpec& s : inv.streams) {
    FioJobResult job;
    job.name = s.name;
    job.job_runtime_ms = 10'000;
    FioDirectionResult& d = s.rw.find("write") != std::string::npos ? job.write : job.read;
    d.io_bytes = 8192 * 100 * k++;
    d.total_ios = d.io_bytes / 8192;
    d.runtime_ms = 10'000;
    d.clat.Record(1'000'000, d.total_ios);
    result->jobs.push_back(job);
  }
}

bool HasExtra(const StreamSpec& s, const std::string& key, const std::string& value) {
  return std::find(s.extra.begin(), s.extra.end(), std::make_pair(key, value)) != s.extra.end();
}

TEST(OrasimSuiteTest, RunsTheOltpJobAndScoresItsOperationsPerSecond) {
  std::unique_ptr<Suite> suite = MakeOrasimSuite();
  CLI::App app;
  suite->AddOptions(&app);
  ASSERT_NO_THROW(app.parse(std::string("--size 32 --runtime 10 --runs 2 --readers 2"), false));
  std::string err;
  ASSERT_TRUE(suite->Prepare(MachineInfo{}, &err)) << err;
  ASSERT_EQ(suite->Variants().size(), 2u);
  testing::ScopedTempDir dir;
  testing::FakeFio fio;
  fio.measure = MeasureOrasimStreams;
  CellEnvironment env;
  env.directory = dir.path();
  env.fio = &fio;
  env.work_dir = dir.path();
  nlohmann::json setup;
  ASSERT_TRUE(suite->SetUp(env, &setup, &err)) << err;
  ASSERT_EQ(fio.runs.size(), 1u);
  EXPECT_EQ(fio.runs[0].streams[0].file_size_bytes, 32u << 20);
  EXPECT_TRUE(fio.runs[0].streams[0].end_fsync);

  std::vector<nlohmann::json> records;
  ASSERT_TRUE(suite->RunCell(suite->Variants()[1], env, &records, &err)) << err;
  const FioInvocation& job = fio.runs.back();
  ASSERT_EQ(job.streams.size(), 4u);  // two readers, one writer, the log
  for (const StreamSpec& s : job.streams) {
    EXPECT_TRUE(s.direct) << s.name;
    EXPECT_EQ(s.block_size_bytes, 8192u) << s.name;
    EXPECT_EQ(s.runtime_ms, 10'000u) << s.name;
  }
  EXPECT_EQ(job.streams[0].rw, "randread");
  EXPECT_EQ(job.streams[2].rw, "randwrite");
  EXPECT_TRUE(HasExtra(job.streams[2], "sync", "1"));
  EXPECT_EQ(job.streams[3].rw, "write");
  EXPECT_TRUE(HasExtra(job.streams[3], "sync", "1"));
  EXPECT_NE(job.global.random_seed, 0u);

  ASSERT_EQ(records.size(), 1u);
  OrasimRecord r;
  ASSERT_TRUE(OrasimRecordFromJson(records[0], &r, &err)) << err;
  EXPECT_EQ(r.run, 2);
  EXPECT_EQ(r.read_ops, 100u + 200u);
  EXPECT_EQ(r.write_ops, 300u);
  EXPECT_EQ(r.log_ops, 400u);
  EXPECT_DOUBLE_EQ(r.elapsed_seconds, 10.0);
  EXPECT_DOUBLE_EQ(r.score_ops_s, 100.0);
  suite->TearDown(env);
}

TEST(OrasimSuiteTest, NoStreamAtAllIsRefused) {
  std::unique_ptr<Suite> suite = MakeOrasimSuite();
  CLI::App app;
  suite->AddOptions(&app);
  ASSERT_NO_THROW(app.parse(std::string("--readers 0 --writers 0"), false));
  std::string err;
  EXPECT_FALSE(suite->Prepare(MachineInfo{}, &err));
  EXPECT_NE(err.find("--readers"), std::string::npos);
}

}  // namespace
}  // namespace elevbench
