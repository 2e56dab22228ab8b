// `run fio` on a fake fio that answers with tests/fixtures/fio/randread_numjobs4.json: one job
// run with numjobs=4, so fio's "jobs" array holds four entries named "randread", each with its
// own completion-latency bins (made by tests/fixtures/make_fio_numjobs4.py in fio 3.33's json+
// layout). The cell's record must hold ONE job whose numbers are what the four clones add up to:
//   clone  N    clat bins (bucket value ns: count)       read runtime  job_runtime  usr+sys
//   0      100  49408: 30, 49920: 50, 50944: 20          800 ms        800 ms       6.25 %
//   1      120  98816: 48, 101888: 72                    900 ms        899 ms       5 %
//   2       80  197632: 40, 203776: 40                   1000 ms       1000 ms      8 %
//   3      100  395264: 90, 10158080: 10                 950 ms        949 ms       3.5 %
// Every I/O is 4 KiB. Merged percentiles come from the merged buckets (the ceil(p/100 * 400)-th
// smallest value), never from the clones' own percentiles: the clones' p99s (50944, 101888,
// 203776 and 10158080 ns) average 2.6 ms, while 4 of the 400 I/Os (1 %) took 10 ms.

#include "scenarios/fiojobs/fiojobs_suite.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "fakes.h"
#include "scenarios/fiojobs/fiojobs_measurements.h"
#include "scenarios/fiojobs/fiojobs_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

// fio's answer for every run: the recorded four-clone output.
void MeasureFourClones(const FioInvocation&, double, FioRunResult* result) {
  std::ifstream in(testing::TestDataPath("fixtures/fio/randread_numjobs4.json"));
  std::stringstream text;
  text << in.rdbuf();
  std::string err;
  ASSERT_TRUE(ParseFioJsonPlus(text.str(), result, &err)) << err;
}

// Runs one cell of `run fio JOB_FILE` on the fake and reads its record back from JSON.
void RunFourCloneCell(FioJobsRecord* record, nlohmann::json* json) {
  testing::ScopedTempDir dir;
  const std::string job_file = dir.path() + "/clones.fio";
  std::ofstream(job_file) << "[randread]\nrw=randread\nbs=4k\nsize=64m\ndirect=1\nnumjobs=4\n";
  std::unique_ptr<Suite> suite = MakeFioJobsSuite();
  CLI::App app;
  suite->AddOptions(&app);
  ASSERT_NO_THROW(app.parse(job_file, false));
  std::string err;
  ASSERT_TRUE(suite->Prepare(MachineInfo{}, &err)) << err;
  testing::FakeFio fio;
  fio.measure = MeasureFourClones;
  CellEnvironment env;
  env.directory = dir.path();
  env.work_dir = dir.path();
  env.fio = &fio;
  nlohmann::json setup;
  ASSERT_TRUE(suite->SetUp(env, &setup, &err)) << err;
  std::vector<nlohmann::json> records;
  ASSERT_TRUE(suite->RunCell(suite->Variants()[0], env, &records, &err)) << err;
  suite->TearDown(env);
  ASSERT_EQ(fio.runs.size(), 1u);
  EXPECT_NE(fio.runs[0].job_text.find("numjobs=4"), std::string::npos) << fio.runs[0].job_text;
  ASSERT_EQ(records.size(), 1u);
  WriteRecordHeader({"none", "6.18-none", "NONE", 1, ""}, &records[0]);
  *json = records[0];
  ASSERT_TRUE(FioJobsRecordFromJson(records[0], record, &err)) << err;
}

TEST(FioJobsSuiteTest, FourClonesOfOneJobAreOneJobWithTheirSums) {
  FioJobsRecord r;
  nlohmann::json json;
  ASSERT_NO_FATAL_FAILURE(RunFourCloneCell(&r, &json));
  ASSERT_EQ(r.jobs.size(), 1u);
  const JobResult& job = r.jobs[0];
  EXPECT_EQ(job.name, "randread");
  EXPECT_EQ(job.clones, 4u);
  EXPECT_EQ(job.read.ios, 100u + 120 + 80 + 100);
  EXPECT_EQ(job.read.bytes, 400u * 4096);
  EXPECT_DOUBLE_EQ(job.read.runtime_seconds, 1.0);  // the longest clone's, not the sum
  EXPECT_DOUBLE_EQ(job.read.MegabytesPerSecond(), 400 * 4096 / 1048576.0);
  EXPECT_DOUBLE_EQ(job.read.Iops(), 400.0);
  EXPECT_NEAR(job.cpu_seconds, 0.0625 * 0.8 + 0.05 * 0.899 + 0.08 * 1.0 + 0.035 * 0.949, 1e-12);
  EXPECT_EQ(job.write.ios + job.trim.ios, 0u);
  EXPECT_EQ(job.write.clat.count(), 0u);
}

TEST(FioJobsSuiteTest, FourClonesHistogramsMergeBucketByBucket) {
  FioJobsRecord r;
  nlohmann::json json;
  ASSERT_NO_FATAL_FAILURE(RunFourCloneCell(&r, &json));
  ASSERT_EQ(r.jobs.size(), 1u);
  const LatencyHistogram& clat = r.jobs[0].read.clat;
  EXPECT_EQ(clat.count(), 400u);
  EXPECT_EQ(clat.min_ns(), 49391u);     // clone 0's exact min
  EXPECT_EQ(clat.max_ns(), 10150000u);  // clone 3's exact max
  // The clones' exact means weighted by their N: 49971.2, 100659.2, 200704 and 1371545.6 ns.
  EXPECT_NEAR(clat.sum_ns(), 49971.2 * 100 + 100659.2 * 120 + 200704.0 * 80 + 1371545.6 * 100,
              1e-3);
  const std::vector<std::pair<uint64_t, uint64_t>> bins = {
      {49408, 30},  {49920, 50},  {50944, 20},  {98816, 48},   {101888, 72},
      {197632, 40}, {203776, 40}, {395264, 90}, {10158080, 10}};
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  clat.ForEachNonEmptyBucket([&](uint64_t value, uint64_t n) { merged.emplace_back(value, n); });
  EXPECT_EQ(merged, bins);
  EXPECT_EQ(json["jobs"][0]["read"]["clat"]["bins"], nlohmann::json({{"49408", 30},
                                                                     {"49920", 50},
                                                                     {"50944", 20},
                                                                     {"98816", 48},
                                                                     {"101888", 72},
                                                                     {"197632", 40},
                                                                     {"203776", 40},
                                                                     {"395264", 90},
                                                                     {"10158080", 10}}));
  // Cumulative counts 30, 80, 100, 148, 220, 260, 300, 390, 400.
  EXPECT_EQ(clat.ValueAtPercentile(25), 50944u);     // the 100th value
  EXPECT_EQ(clat.ValueAtPercentile(50), 101888u);    // the 200th
  EXPECT_EQ(clat.ValueAtPercentile(75), 203776u);    // the 300th
  EXPECT_EQ(clat.ValueAtPercentile(97.5), 395264u);  // the 390th
  EXPECT_EQ(clat.ValueAtPercentile(99), 10150000u);  // the 396th: the 10 ms bucket, at the max
}

TEST(FioJobsSuiteTest, FourClonesTableRowShowsTheMergedPercentiles) {
  FioJobsRecord r;
  nlohmann::json json;
  ASSERT_NO_FATAL_FAILURE(RunFourCloneCell(&r, &json));
  ResultsDocument doc;
  doc.suite = "fio";
  doc.records = {json};
  std::vector<Measurement> ms;
  std::string err;
  ASSERT_TRUE(FioJobsMeasurements(doc, &ms, &err)) << err;
  std::map<std::string, double> value;
  for (const Measurement& m : ms) {
    EXPECT_EQ(m.row, "randread read");
    value[m.metric.name] = m.value;
  }
  EXPECT_EQ(ms.size(), 5u);  // one row: the clones are not rows of their own
  EXPECT_DOUBLE_EQ(value["mb_s"], 1.6384e6 / (1 << 20));  // MiB/s
  EXPECT_DOUBLE_EQ(value["p50_ms"], 0.101888);
  EXPECT_DOUBLE_EQ(value["p99_ms"], 10.15);
  EXPECT_DOUBLE_EQ(value["p99_9_ms"], 10.15);
}

}  // namespace
}  // namespace elevbench
