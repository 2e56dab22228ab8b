// End to end: a real small tiobench through fio in a temporary directory, checked against the
// metric definitions and against its own JSON.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "app/suites.h"
#include "harness/process/subprocess.h"
#include "harness/results/results_document.h"
#include "reporters/tiobench_text.h"
#include "test_util.h"

namespace elevbench {
namespace {

TEST(TiobenchEndToEndRootTest, SmallRunThroughFio) {
  if (!ProgramInPath("fio")) GTEST_SKIP() << "fio is not installed (scripts/install-deps)";
  testing::ScopedTempDir temp("/var/tmp");
  const std::string dir = temp.path();
  const std::string out = dir + "/r.json";
  ProcessResult run;
  std::string err;
  ProcessOptions opts;
  opts.timeout_seconds = 600;
  ASSERT_TRUE(RunProcess({ELEVBENCH_BINARY, "run", "tiobench", "--dir", dir, "--size", "32",
                          "--threads", "1,2", "--format", "nick", "--out", out, "--no-history"},
                         opts, &run, &err))
      << err;
  ASSERT_EQ(run.exit_code, 0) << run.error_output;

  ResultsDocument doc;
  ASSERT_TRUE(LoadResultsFile(out, &doc, &err)) << err;
  EXPECT_TRUE(doc.complete);
  std::vector<TioRecord> records;
  ASSERT_TRUE(TioRecordsFromDocument(doc, &records, &err)) << err;
  EXPECT_EQ(records.size(), 8u);  // 2 thread counts × 4 phases
  for (const TioRecord& r : records) {
    SCOPED_TRACE(std::string(TioPhaseKey(r.measurement.phase)) + " threads " +
                 std::to_string(r.measurement.threads));
    const TioRowMetrics& m = r.metrics;
    EXPECT_GT(m.rate_mb_s, 0);
    EXPECT_GT(m.cpu_pct, 0);
    EXPECT_NEAR(m.cpu_eff, m.rate_mb_s / (m.cpu_pct / 100), 1e-6 * m.cpu_eff);
    EXPECT_GE(m.lat_pct_over_2s, 0);
    EXPECT_LE(m.lat_pct_over_2s, 100);
    EXPECT_GE(m.lat_pct_over_10s, 0);
    EXPECT_LE(m.lat_pct_over_10s, m.lat_pct_over_2s);
    EXPECT_GT(m.avg_latency_ms, 0);
    EXPECT_GE(m.max_latency_ms, m.avg_latency_ms);
    // Every read()/write() call is in the histogram.
    EXPECT_EQ(r.measurement.latency.count(), r.measurement.ios);
    const bool sequential =
        r.measurement.phase == TioPhase::kSeqRead || r.measurement.phase == TioPhase::kSeqWrite;
    if (sequential) {
      EXPECT_EQ(r.measurement.bytes, 32ULL << 20);  // 32 MB total over all threads
    } else {
      EXPECT_EQ(r.measurement.ios, 4000u / r.measurement.threads * r.measurement.threads);
    }
  }
  // The printed table is the JSON's table: re-rendering the saved file as `report` does gives
  // the same bytes, the verdict block included, and the tables are the suite renderer's own.
  std::string rendered, tables;
  ASSERT_TRUE(RenderResults(doc, "nick", ReportOptions{}, &rendered, &err)) << err;
  EXPECT_EQ(run.output, rendered);
  ASSERT_TRUE(RenderTiobenchReport(doc, "nick", &tables, &err)) << err;
  EXPECT_EQ(run.output.rfind(tables + "\nVerdict (", 0), 0u) << run.output;
  for (const char* section :
       {"Sequential Reads", "Random Reads", "Sequential Writes", "Random Writes"}) {
    EXPECT_NE(run.output.find(section), std::string::npos) << section;
  }
  // No tiotest files are left behind.
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().filename().string().rfind("tiotest.", 0), std::string::npos)
        << entry.path();
  }
}

}  // namespace
}  // namespace elevbench
