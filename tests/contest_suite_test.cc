// The whole contest suite through the session loop, on a temporary directory with a tiny
// compile tree, a fake fio for io_load and real commands for the others: every load's record,
// cacherun's caches kept, the compile's products and the loads' files removed after each cell,
// and the report rendered from the saved results.

#include <gtest/gtest.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>

#include "app/suites.h"
#include "fakes.h"
#include "harness/core/progress.h"
#include "harness/run/run_session.h"
#include "harness/run/suite.h"
#include "reporters/render.h"
#include "scenarios/contest/contest_cell.h"
#include "scenarios/contest/contest_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

// io_load "writes" 40 MiB/s of its own time (0 for a Run: read_load's layout), at 20 % CPU.
void MeasureContestLoad(const FioInvocation& inv, double seconds, FioRunResult* result) {
  for (const StreamSpec& spec : inv.streams) {
    FioJobResult job;
    job.name = spec.name;
    job.job_runtime_ms = static_cast<uint64_t>(seconds * 1000);
    job.usr_cpu_pct = 5;
    job.sys_cpu_pct = 15;
    FioDirectionResult& d = spec.rw == "write" ? job.write : job.read;
    d.io_bytes = static_cast<uint64_t>(seconds * 40) << 20;
    d.clat.Record(50'000, 10);
    result->jobs.push_back(job);
  }
}

TEST(ContestSuiteTest, RunsEveryCellOnATinyTreeAndReports) {
  if (!ProgramInPath("make") || !ProgramInPath("gcc")) GTEST_SKIP() << "needs make and gcc";
  testing::ScopedTempDir dir;
  const SuiteEntry* entry = FindSuite("contest");
  ASSERT_NE(entry, nullptr);
  std::unique_ptr<Suite> suite = entry->make();
  CLI::App app;
  suite->AddOptions(&app);
  // A warm-up of 1.5 s lets the command loads finish an iteration even before the tiny compile
  // starts: one process ring of 10,000 hops takes about 0.5 s in the sanitizer build (0.2 s
  // plain), and with 0.2 s it completed none there.
  ASSERT_NO_THROW(
      app.parse("--loads no_load,cacherun,io_load,read_load,list_load,process_load "
                "--compile-size 2 --memory 4 --warmup 1.5 --internal-exe " +
                    std::string(ELEVBENCH_BINARY),
                false));
  MachineInfo machine;
  machine.cpus = 1;
  machine.memory_bytes = 1ULL << 30;  // --memory wins
  std::string err;
  ASSERT_TRUE(suite->Prepare(machine, &err)) << err;
  EXPECT_GT(suite->BytesNeeded(), 2u * (4u << 20));
  const std::vector<SuiteVariant> variants = suite->Variants();
  ASSERT_EQ(variants.size(), 6u);
  EXPECT_FALSE(variants[0].keep_caches);
  EXPECT_TRUE(variants[1].keep_caches);  // cacherun
  EXPECT_FALSE(variants[2].keep_caches);

  SessionConfig config;
  config.identifiers = {"k-none"};
  config.labels = {"NONE"};
  config.repetitions = 1;
  config.seed = 1;
  config.out_path = dir.path() + "/r.json";
  config.work_dir = dir.path() + "/work";
  std::filesystem::create_directories(config.work_dir);
  std::filesystem::create_directories(dir.path() + "/target");
  SessionTarget target;
  target.directory = dir.path() + "/target";
  ResultsDocument doc;
  doc.suite = "contest";
  testing::FakeFio fio;
  fio.measure = MeasureContestLoad;
  Progress progress(stderr, false);
  size_t failed = 0;
  ASSERT_TRUE(RunSession(*suite, config, target, &fio, &progress, &doc, &failed, &err)) << err;
  EXPECT_EQ(failed, 0u);
  EXPECT_TRUE(doc.complete);

  std::vector<ContestRecord> records;
  ASSERT_TRUE(ContestRecordsFromDocument(doc, &records, &err)) << err;
  ASSERT_EQ(records.size(), 6u);
  for (const ContestRecord& r : records) {
    EXPECT_EQ(r.status, "ok") << r.load;
    EXPECT_GT(r.compile.elapsed_seconds, 0) << r.load;
    EXPECT_GT(r.compile.user_seconds + r.compile.system_seconds, 0) << r.load;
    EXPECT_EQ(r.identifier, "k-none");
  }
  EXPECT_FALSE(records[0].caches_kept);
  EXPECT_TRUE(records[1].caches_kept);
  EXPECT_EQ(records[0].load_kind, "none");
  // io_load: the fake's 40 MiB/s over the load's own time, which includes the warm-up.
  const ContestRecord& io = records[2];
  EXPECT_EQ(io.load_kind, "fio");
  ASSERT_EQ(io.streams.size(), 1u);
  EXPECT_GE(io.load_usage.elapsed_seconds, io.compile.elapsed_seconds);
  EXPECT_GE(io.warmup_seconds, 1.5);
  EXPECT_NEAR(io.loads, io.load_work / 100, 1e-9);
  EXPECT_NEAR(io.LoadCpuPercent(), 20, 2);
  ASSERT_EQ(fio.starts.size(), 2u);
  EXPECT_EQ(fio.starts[0].invocation.streams[0].file_size_bytes,
            4u << 20);  // RAM-sized: --memory 4
  // read_load's file was laid out once, by SetUp.
  ASSERT_EQ(fio.runs.size(), 1u);
  EXPECT_EQ(fio.runs[0].streams[0].rw, "write");
  EXPECT_EQ(records[3].streams.at(0).direction, "read");
  // The command loads ran through the warm-up and the compile and completed iterations.
  for (size_t i : {4u, 5u}) {
    EXPECT_EQ(records[i].load_kind, "command") << records[i].load;
    EXPECT_GE(records[i].load_iterations_completed, 1u) << records[i].load;
    EXPECT_GT(records[i].load_usage.elapsed_seconds, records[i].compile.elapsed_seconds);
    EXPECT_GT(records[i].LoadCpuPercent(), 0) << records[i].load;
  }
  EXPECT_NEAR(records[5].loads, static_cast<double>(records[5].load_iterations_completed), 1e-9);

  // What the cells wrote is gone; SetUp's tree and files stay until TearDown, which ran.
  EXPECT_FALSE(std::filesystem::exists(target.directory + "/contest-tree"));
  EXPECT_FALSE(std::filesystem::exists(target.directory + "/contest-load"));

  // The report: contest's layout, from the document and from the saved file alike.
  std::string text;
  ASSERT_TRUE(RenderResults(doc, "", ReportOptions{}, &text, &err)) << err;
  EXPECT_NE(text.find("no_load:\nKernel         [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio\nk-none"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("cacherun:\n"), std::string::npos);
  EXPECT_NE(text.find("process_load:\n"), std::string::npos);
  ResultsDocument saved;
  ASSERT_TRUE(LoadResultsFile(config.out_path, &saved, &err)) << err;
  std::string again;
  ASSERT_TRUE(RenderResults(saved, "contest", ReportOptions{}, &again, &err)) << err;
  EXPECT_EQ(again, text);
  ASSERT_TRUE(RenderResults(saved, "nick", ReportOptions{}, &again, &err)) << err;
  EXPECT_NE(again.find("Contest\nno_load:\nKernel     [runs]\t"), std::string::npos);
  // The summary block has one row per load.
  EXPECT_EQ(saved.summary.size(), 6u);
}

TEST(ContestCellTest, ACompilePastItsTimeoutIsDnfAndAFailingOneFailed) {
  testing::ScopedTempDir dir;
  testing::FakeFio fio;
  fio.measure = MeasureContestLoad;
  ContestCellSpec spec;
  spec.load = "list_load";
  spec.plan.kind = ContestLoadKind::kCommand;
  spec.plan.command.argv = {"ls", "-lRa", dir.path()};
  spec.compile.argv = {"sleep", "5"};
  spec.compile.timeout_seconds = 0.3;
  ContestRecord record;
  std::string err;
  ASSERT_TRUE(RunContestCell(spec, &fio, dir.path(), "t", &record, &err)) << err;
  EXPECT_EQ(record.status, "dnf");
  EXPECT_LT(record.compile.elapsed_seconds, 4);
  EXPECT_GE(record.load_iterations_started, 1u);
  EXPECT_EQ(record.load_work_unit, "completed runs of ls -lRa");

  spec.load = "no_load";
  spec.plan = ContestLoadPlan{};
  spec.compile.argv = {"sh", "-c", "exit 2"};
  ASSERT_TRUE(RunContestCell(spec, &fio, dir.path(), "t", &record, &err)) << err;
  EXPECT_EQ(record.status, "failed");
  EXPECT_EQ(record.exit_code, 2);
  EXPECT_EQ(record.load_kind, "none");

  spec.compile.argv = {"/nonexistent/make"};
  EXPECT_FALSE(RunContestCell(spec, &fio, dir.path(), "t", &record, &err));
  EXPECT_NE(err.find("cannot execute"), std::string::npos) << err;
}

}  // namespace
}  // namespace elevbench
