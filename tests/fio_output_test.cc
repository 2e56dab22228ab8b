// Parser tests against json+ files recorded from real fio 3.33 runs (tests/fixtures/fio/), all
// with thread, invalidate=1, randrepeat=0, fallocate=none, clat_percentiles=1,
// lat_percentiles=0, disable_slat=1, ioengine=psync:
//   read_numjobs2.json        rw=read size=2m bs=4k numjobs=2
//   write_end_fsync.json      rw=write size=32m bs=64k end_fsync=1, ext4 on a loop device
//                             throttled to 8 MiB/s (so the fsync takes ~4 s)
//   randread_number_ios.json  rw=randread size=16m bs=4k norandommap=1 number_ios=300
//   job_error_enospc.json     three jobs: "good" (read 1m), "full" (write 4m into a 1 MiB tmpfs:
//                             ENOSPC), "missing" (allow_file_create=0 on a missing file); fio
//                             wrote three warning lines before the JSON
//   randwrite_fsync8.json     (fio 3.33, default options) rw=randwrite bs=4k fsync=8 for 5 s on
//                             the emulated ide-2003 disk's raw loop device: 58 fsyncs
//   truncated.json            the first 2500 bytes of read_numjobs2.json
//   garbage.json              text without any JSON

#include "harness/fio/fio_output.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace elevbench {
namespace {

std::string ReadFixture(const std::string& name) {
  std::ifstream in(std::string(ELEVBENCH_TEST_DATA_DIR) + "/fixtures/fio/" + name,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

FioRunResult ParseFixture(const std::string& name) {
  FioRunResult r;
  std::string err;
  EXPECT_TRUE(ParseFioJsonPlus(ReadFixture(name), &r, &err)) << name << ": " << err;
  return r;
}

TEST(FioOutputTest, MultiJobRead) {
  const FioRunResult r = ParseFixture("read_numjobs2.json");
  EXPECT_EQ(r.fio_version, "fio-3.33");
  EXPECT_EQ(r.timestamp_ms, 1795992596752);
  ASSERT_EQ(r.jobs.size(), 2u);
  for (const FioJobResult& j : r.jobs) {
    EXPECT_EQ(j.name, "seqread");
    EXPECT_EQ(j.error, 0);
    EXPECT_EQ(j.job_runtime_ms, 3u);
    EXPECT_EQ(j.read.io_bytes, 2u << 20);
    EXPECT_EQ(j.read.total_ios, 512u);
    EXPECT_EQ(j.read.runtime_ms, 4u);
    EXPECT_DOUBLE_EQ(j.read.bw_bytes, 524288000.0);
    EXPECT_EQ(j.read.clat.count(), 512u);
    EXPECT_EQ(j.write.io_bytes, 0u);
    EXPECT_EQ(j.write.clat.count(), 0u);
  }
  EXPECT_EQ(r.jobs[0].read.clat.min_ns(), 741u);  // exact, not the 740 bin midpoint
  EXPECT_EQ(r.jobs[0].read.clat.max_ns(), 1563609u);
  EXPECT_NEAR(r.jobs[0].read.clat.mean_ns(), 5708.884766, 1e-6);
  EXPECT_EQ(r.jobs[0].read.clat.ValueAtPercentile(50), 1176u);  // fio's "50.000000"
  LatencyHistogram both = r.jobs[0].read.clat;
  both.Merge(r.jobs[1].read.clat);
  EXPECT_EQ(both.count(), 1024u);
  EXPECT_EQ(both.min_ns(), 681u);
  EXPECT_EQ(both.max_ns(), 2220597u);
}

TEST(FioOutputTest, WriteWithEndFsyncRuntimeIncludesFsync) {
  const FioRunResult r = ParseFixture("write_end_fsync.json");
  ASSERT_EQ(r.jobs.size(), 1u);
  const FioJobResult& j = r.jobs[0];
  EXPECT_EQ(j.name, "seqwrite");
  EXPECT_EQ(j.write.io_bytes, 32u << 20);
  EXPECT_EQ(j.write.total_ios, 512u);
  // 32 MiB through an 8 MiB/s throttle: the ~4 s fsync is inside both runtimes.
  EXPECT_EQ(j.job_runtime_ms, 4120u);
  EXPECT_EQ(j.write.runtime_ms, 4121u);
  EXPECT_LT(j.write.clat.max_ns(), 1'000'000u);  // ...but in no latency sample
  EXPECT_EQ(j.write.clat.count(), 512u);
  EXPECT_EQ(j.read.total_ios, 0u);
  EXPECT_DOUBLE_EQ(j.usr_cpu_pct, 0.0);
  EXPECT_NEAR(j.sys_cpu_pct, 2.524272, 1e-9);
  EXPECT_NEAR(j.cpu_seconds(), 0.02524272 * 4.120, 1e-9);
}

// Each fsync's latency comes with its bins (`disk calibrate`'s flush checks read its p50).
TEST(FioOutputTest, FsyncLatencyIsParsedWithItsBins) {
  const FioRunResult r = ParseFixture("randwrite_fsync8.json");
  ASSERT_EQ(r.jobs.size(), 1u);
  const FioJobResult& j = r.jobs[0];
  EXPECT_EQ(j.sync_ios, 58u);
  EXPECT_EQ(j.sync_lat.count(), 58u);
  EXPECT_EQ(j.sync_lat.min_ns(), 73301604u);
  EXPECT_EQ(j.sync_lat.max_ns(), 94277816u);
  EXPECT_NEAR(j.sync_lat.mean_ns(), 86866923.137931, 1e-3);
  // fio's own p50 is 87556096 ns; the histogram's buckets hold it within their width.
  EXPECT_NEAR(static_cast<double>(j.sync_lat.ValueAtPercentile(50)), 87556096.0, 87556096.0 * 0.02);
  EXPECT_TRUE(r.jobs[0].read.clat.count() == 0);
  EXPECT_EQ(j.write.total_ios, j.write.clat.count());
}

TEST(FioOutputTest, RandomReadWithNumberIos) {
  const FioRunResult r = ParseFixture("randread_number_ios.json");
  ASSERT_EQ(r.jobs.size(), 1u);
  EXPECT_EQ(r.jobs[0].read.total_ios, 300u);
  EXPECT_EQ(r.jobs[0].read.io_bytes, 300u * 4096);
  EXPECT_EQ(r.jobs[0].read.clat.count(), 300u);
  EXPECT_EQ(r.jobs[0].read.clat.min_ns(), 1002u);
}

TEST(FioOutputTest, JobErrorAndLeadingWarnings) {
  const std::string text = ReadFixture("job_error_enospc.json");
  ASSERT_EQ(text.rfind("fio: ", 0), 0u);  // the recorded file really starts with warnings
  const FioRunResult r = ParseFixture("job_error_enospc.json");
  ASSERT_EQ(r.jobs.size(), 3u);
  EXPECT_EQ(r.jobs[0].name, "good");
  EXPECT_EQ(r.jobs[0].error, 0);
  EXPECT_EQ(r.jobs[0].read.clat.count(), 256u);
  EXPECT_EQ(r.jobs[1].name, "full");
  EXPECT_EQ(r.jobs[1].error, 28);                // ENOSPC
  EXPECT_EQ(r.jobs[1].write.total_ios, 17u);     // the failed I/O is counted...
  EXPECT_EQ(r.jobs[1].write.clat.count(), 16u);  // ...but has no latency sample
  EXPECT_EQ(r.jobs[1].write.io_bytes, 16u * 65536);
  EXPECT_EQ(r.jobs[2].name, "missing");
  EXPECT_EQ(r.jobs[2].error, 0);  // setup failures do not set "error"
  EXPECT_EQ(r.jobs[2].read.total_ios, 0u);
}

TEST(FioOutputTest, ToleratesTextAroundTheJson) {
  const std::string json = ReadFixture("randread_number_ios.json");
  for (const std::string& text : {"fio: warning {with braces}\nnote: more\n" + json,
                                  json + "\nfio: late message\n", "\n\n" + json}) {
    FioRunResult r;
    std::string err;
    EXPECT_TRUE(ParseFioJsonPlus(text, &r, &err)) << err;
    EXPECT_EQ(r.jobs.size(), 1u);
  }
}

// Applies a mutation to a copy of a fixture and returns the parse error.
std::string ErrorFor(const std::function<void(nlohmann::json&)>& mutate) {
  nlohmann::json doc = nlohmann::json::parse(ReadFixture("randread_number_ios.json"));
  mutate(doc);
  FioRunResult r;
  r.fio_version = "sentinel";
  std::string err;
  EXPECT_FALSE(ParseFioJsonPlus(doc.dump(2), &r, &err));
  EXPECT_EQ(r.fio_version, "sentinel");  // output untouched on failure
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  return err;
}

TEST(FioOutputTest, RejectsBadDocumentsNamingTheField) {
  using J = nlohmann::json;
  auto read = [](J& d) -> J& { return d["jobs"][0]["read"]; };
  const std::vector<std::pair<std::function<void(J&)>, std::string>> cases = {
      {[](J& d) { d.erase("jobs"); }, "no \"jobs\""},
      {[](J& d) { d["jobs"] = J::object(); }, "jobs: expected an array"},
      {[](J& d) { d["jobs"][0] = 5; }, "jobs[0]: expected an object"},
      {[](J& d) { d["jobs"][0].erase("jobname"); }, "jobs[0].jobname: missing"},
      {[](J& d) { d["jobs"][0]["jobname"] = 3; }, "jobs[0].jobname: expected a string"},
      {[](J& d) { d["jobs"][0]["error"] = "x"; }, "jobs[0].error: expected an integer"},
      {[](J& d) { d["jobs"][0]["usr_cpu"] = "x"; }, "jobs[0].usr_cpu: expected a number"},
      {[](J& d) { d["jobs"][0].erase("job_runtime"); }, "jobs[0].job_runtime: missing"},
      {[&read](J& d) { read(d)["io_bytes"] = "12"; },
       "jobs[0].read.io_bytes: expected a non-negative integer"},
      {[&read](J& d) { read(d)["total_ios"] = -1; },
       "jobs[0].read.total_ios: expected a non-negative integer"},
      {[&read](J& d) { read(d)["clat_ns"].erase("bins"); }, "jobs[0].read.clat_ns.bins: missing"},
      {[&read](J& d) { read(d)["clat_ns"]["bins"] = J::array(); },
       "jobs[0].read.clat_ns.bins: expected an object"},
      {[&read](J& d) { read(d)["clat_ns"]["bins"]["1001"] = 1; }, "not a fio bucket value"},
      {[&read](J& d) { read(d)["clat_ns"]["bins"]["x"] = 1; }, "is not a decimal number"},
      {[&read](J& d) { read(d)["clat_ns"]["N"] = 299; }, "jobs[0].read.clat_ns: exact count"},
      {[&read](J& d) { read(d)["clat_ns"]["min"] = 5; }, "jobs[0].read.clat_ns: min 5 ns"},
      {[](J& d) { d["jobs"][0].erase("write"); }, "jobs[0].write: missing"},
      {[](J& d) {
         d["jobs"][0]["mixed"] = d["jobs"][0]["read"];
         d["jobs"][0].erase("read");
       },
       "unified_rw_reporting"},
      {[](J& d) { d["fio version"] = 3; }, "\"fio version\": expected a string"},
  };
  for (const auto& [mutate, want] : cases) {
    const std::string err = ErrorFor(mutate);
    EXPECT_NE(err.find(want), std::string::npos) << "want \"" << want << "\", got: " << err;
  }
}

TEST(FioOutputTest, RejectsNonJson) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty"},
      {" \n\t\n", "empty"},
      {ReadFixture("garbage.json"), "no JSON object"},
      {ReadFixture("truncated.json"), "not valid JSON"},
      {"fio: oops\n[1, 2]\n", "no JSON object"},
      {"{\"jobs\": [", "not valid JSON"},
      {"{}", "no \"jobs\""},
  };
  for (const auto& [text, want] : cases) {
    FioRunResult r;
    std::string err;
    EXPECT_FALSE(ParseFioJsonPlus(text, &r, &err)) << text.substr(0, 40);
    EXPECT_NE(err.find(want), std::string::npos) << "want \"" << want << "\", got: " << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// fio's bandwidth log (log_avg_msec=500): one line per direction and interval; a readwrite job
// writes both directions at the same time stamps.
TEST(FioBwLogTest, SumsDirectionsPerInterval) {
  const std::string log =
      "500, 20520, 0, 0, 0\n"
      "501, 1000, 1, 0, 0\n"
      "1001, 20488, 0, 0, 0\n"
      "1502, 20520, 0, 0, 0\n";
  std::vector<double> series;
  std::string err;
  ASSERT_TRUE(ParseFioBwLog(log, 500, &series, &err)) << err;
  ASSERT_EQ(series.size(), 3u);
  EXPECT_DOUBLE_EQ(series[0], 21520);
  EXPECT_DOUBLE_EQ(series[1], 20488);
  EXPECT_DOUBLE_EQ(series[2], 20520);
}

TEST(FioBwLogTest, RejectsGarbageWithTheLineNumber) {
  std::vector<double> series = {1};
  std::string err;
  EXPECT_FALSE(ParseFioBwLog("500, 10, 0, 0, 0\nnot a line\n", 500, &series, &err));
  EXPECT_NE(err.find("line 2"), std::string::npos) << err;
  EXPECT_EQ(series.size(), 1u);  // untouched
}

// Found by fuzz/fio_bw_log_fuzz (the input as found, interval 1000 ms): a time of 10^15 ms asked
// for a series of 10^12 intervals (8 GB). Times past 10^7 intervals are refused.
TEST(FioBwLogTest, RefusesATimeBeyondAnyRun) {
  std::vector<double> series = {1.0};
  std::string err;
  EXPECT_FALSE(
      ParseFioBwLog("1000091000096, 0\r\n2R0 10,0\n n6, 0\r\n2R0 10,0\n ni4", 1000, &series, &err));
  EXPECT_NE(err.find("line 1"), std::string::npos) << err;
  EXPECT_EQ(series.size(), 1u);  // untouched
  EXPECT_TRUE(ParseFioBwLog("5000000000, 7, 0, 0, 0\n", 500, &series, &err)) << err;
  EXPECT_EQ(series.size(), 10'000'000u);
}

}  // namespace
}  // namespace elevbench
