// `run replay`'s and `run fio`'s reports and records: the tables from records with known
// latencies, the records' JSON round trip, and their measurements.

#include "reporters/replay_text.h"

#include <gtest/gtest.h>

#include "reporters/fiojobs_text.h"
#include "scenarios/fiojobs/fiojobs_measurements.h"
#include "scenarios/fiojobs/fiojobs_records.h"
#include "scenarios/replay/replay_measurements.h"
#include "scenarios/replay/replay_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

// A job with `ios` I/Os of `ms` milliseconds each in one direction.
JobResult MakeJobResult(const std::string& name, bool reads, uint64_t ios, uint64_t ms) {
  JobResult j;
  j.name = name;
  j.clones = 1;
  JobDirectionResult& d = reads ? j.read : j.write;
  d.ios = ios;
  d.bytes = ios * 4096;
  d.runtime_seconds = 2;
  d.clat.Record(ms * 1000000, ios);
  return j;
}

// A traced process as replayed, without its results.
ReplayProcess MakeProcess(int32_t pid, const std::string& comm, const std::string& engine,
                          const std::string& replayed_as, uint64_t trace_ops, double first_lag_ms,
                          double trace_span_seconds) {
  ReplayProcess p;
  p.pid = pid;
  p.comm = comm;
  p.ioengine = engine;
  p.replayed_as = replayed_as;
  p.trace_ops = trace_ops;
  p.first_lag_ms = first_lag_ms;
  p.trace_span_seconds = trace_span_seconds;
  return p;
}

ReplayRecord MakeReplayRecord(const std::string& id, uint32_t repetition, uint64_t read_ms,
                              uint64_t write_ms) {
  ReplayRecord r;
  r.identifier = r.scheduler = id;
  r.repetition = repetition;
  r.trace_ops = r.replayed_ops = r.fio_ops = 300;
  r.trace_bytes = r.replayed_bytes = r.fio_bytes = 300 * 4096;
  r.trace_seconds = 2;
  r.replay_seconds = 2.5;
  r.lag_measured = true;
  r.lag_matched = 300;
  r.lag_p99_ms = 12;
  r.keeps_time = true;
  r.mapping = "as recorded";
  // How each was replayed: the reader after its dependencies, the flusher at its times.
  ReplayProcess cat = MakeProcess(42, "cat", "psync", "dependencies", 100, 1.5, 0.6);
  cat.replay_span_seconds = static_cast<double>(read_ms) / 10;
  cat.job = MakeJobResult("p42_cat", true, 100, read_ms);
  cat.kernel_read.Record(read_ms * 1000000, 100);
  ReplayProcess flusher = MakeProcess(7, "kworker/u8:2", "libaio", "recorded_times", 200, 0.2, 0.9);
  flusher.job = MakeJobResult("p7_kworker_u8_2", false, 200, write_ms * 10);
  flusher.kernel_write.Record(write_ms * 1000000, 200);
  r.processes = {cat, flusher};
  return r;
}

ResultsDocument ReplayDocument() {
  ResultsDocument doc;
  doc.suite = "replay";
  doc.identifiers = {"k-dl", "k-bfq"};
  doc.parameters = {{"trace", "traces/untar.trace"},
                    {"trace_records", 300},
                    {"trace_device", "loop8"},
                    {"trace_scheduler", "none"},
                    {"trace_source", "emulated ide-2003, ext4: tar -xf x.tar"},
                    {"speed", 1},
                    {"no_stall", false},
                    {"lag_bound_ms", 25}};
  for (uint32_t rep = 0; rep < 4; ++rep) {
    doc.records.push_back(ReplayRecordToJson(MakeReplayRecord("k-dl", rep, 8 + rep, 30)));
    doc.records.push_back(ReplayRecordToJson(MakeReplayRecord("k-bfq", rep, 5, 40 + rep)));
  }
  return doc;
}

TEST(ReplayTextTest, TheTableUsesTheKernelsLatenciesAndSaysWhatWasReplayed) {
  const ResultsDocument doc = ReplayDocument();
  std::string tables, err;
  ASSERT_TRUE(RenderReplayReport(doc, "table", &tables, &err)) << err;
  EXPECT_NE(tables.find("replayed every bio and byte in all 8 cells\n"), std::string::npos)
      << tables;
  testing::ExpectPrintedMatchesGolden("replay_report.txt", doc, "table", tables);
  EXPECT_FALSE(RenderReplayReport(doc, "nick", &tables, &err));
}

// The results JSON a replay writes, with the buffered writer's and the journal's fields: its
// golden, and read back to the same document.
TEST(ReplayTextTest, ResultsJsonMatchesGoldenAndRoundTrips) {
  ResultsDocument doc = ReplayDocument();
  doc.parameters["replayer"] = "dependent";
  for (size_t i = 0; i < doc.records.size(); ++i) {
    doc.records[i]["buffered_ops"] = 10;
    doc.records[i]["buffered_bytes"] = 10 << 20;
    doc.records[i]["journal_log_writes"] = 3;
    doc.records[i]["journal_wait_ios"] = 2;
    doc.records[i]["journal_wait_seconds"] = 0.25 * static_cast<double>(i % 2);
  }
  const std::string text = ResultsToJson(doc).dump(2) + "\n";
  testing::ExpectMatchesGolden("replay_results.json", text);
  ResultsDocument back;
  std::string err;
  ASSERT_TRUE(ResultsFromJson(nlohmann::json::parse(text), &back, &err)) << err;
  std::vector<ReplayRecord> records;
  ASSERT_TRUE(ReplayRecordsFromDocument(back, &records, &err)) << err;
  ASSERT_EQ(records.size(), 8u);
  EXPECT_EQ(records[1].journal_wait_ios, 2u);
  EXPECT_EQ(records[1].journal_wait_seconds, 0.25);
  EXPECT_EQ(ResultsToJson(back).dump(2) + "\n", text);
}

// #44 §1: every byte replayed and one flush not seen is not "exactly in 0 of 8 cells", which a
// reader takes for a failed replay: the line says what matched and what did not.
TEST(ReplayTextTest, ACellShortOfAFlushSaysEveryByteAndWhichBiosWereNotSeen) {
  ResultsDocument doc = ReplayDocument();
  for (nlohmann::json& record : doc.records) {
    record["replayed_ops"] = 299;
    record["lag"]["missed_flushes"] = 1;
  }
  doc.records[3]["replayed_ops"] = 297;
  doc.records[3]["lag"]["missed_reads"] = 2;
  std::string tables, err;
  ASSERT_TRUE(RenderReplayReport(doc, "table", &tables, &err)) << err;
  EXPECT_NE(tables.find("replayed every byte in 8 of 8 cells, every bio in 0 of 8 cells; the "
                        "fewest: 297 of 300 bios, not seen at the device: 2 reads, 1 flush\n"),
            std::string::npos)
      << tables;
  for (nlohmann::json& record : doc.records) record["lag"] = nullptr;
  ASSERT_TRUE(RenderReplayReport(doc, "table", &tables, &err)) << err;
  EXPECT_NE(tables.find("the fewest: 297 of 300 bios (the replayer's count: its bios were not "
                        "traced)\n"),
            std::string::npos)
      << tables;
}

// #31 §2: the heading and the per-process lines say which replayer ran.
TEST(ReplayTextTest, TheReportSaysTheDependentReplayerRan) {
  ResultsDocument doc = ReplayDocument();
  doc.parameters["replayer"] = "dependent";
  std::string tables, err;
  ASSERT_TRUE(RenderReplayReport(doc, "table", &tables, &err)) << err;
  EXPECT_NE(tables.find("; speed 1; replayer dependent\n"), std::string::npos) << tables;
  EXPECT_NE(tables.find("Per process (one engine thread each;"), std::string::npos) << tables;
  EXPECT_NE(tables.find("2 engine threads for 2 processes"), std::string::npos) << tables;
  EXPECT_EQ(tables.find("fio"), std::string::npos) << tables;
}

// #44 §2: a held-back writer replayed as a buffered writer has its row (how it was replayed,
// its own writes' times), the table of what it wrote, and its pages in the account; a
// caution of the suite's ends the verdict.
TEST(ReplayTextTest, ABufferedWriterHasItsTableAndItsPagesCountAsReplayed) {
  ResultsDocument doc = ReplayDocument();
  doc.parameters["replayer"] = "dependent";
  doc.parameters["verdict_cautions"] = {"a caution the suite wrote"};
  for (size_t i = 0; i < doc.records.size(); ++i) {
    nlohmann::json& record = doc.records[i];
    record["trace_ops"] = 310;
    record["trace_bytes"] = 300 * 4096 + (10 << 20);
    record["buffered_ops"] = 10;
    record["buffered_bytes"] = 10 << 20;
    record["journal_log_writes"] = 3;
    record["journal_wait_ios"] = 2;
    record["journal_wait_seconds"] = 0.25 * static_cast<double>(i % 2);
    ReplayProcess dd = MakeProcess(50, "dd", "buffered", "buffered_writer", 10, -1, -1);
    dd.until_readers_end = true;
    dd.trace_bytes = 10 << 20;
    dd.replay_span_seconds = 2.0 + static_cast<double>(i % 2);
    dd.job = MakeJobResult("p50_dd", false, 12 + static_cast<uint64_t>(i % 2) * 4, 40);
    dd.job.write.bytes = dd.job.write.ios << 20;
    dd.job.write.runtime_seconds = dd.replay_span_seconds;
    dd.job.sync_ios = 1;
    dd.kernel_write.Record(60000000, 10);  // the flusher's bios of its pages
    ReplayRecord holder;                   // the process's JSON as a record writes it
    holder.processes = {dd};
    record["processes"].push_back(ReplayRecordToJson(holder)["processes"][0]);
  }
  std::string tables, err;
  ASSERT_TRUE(RenderReplayReport(doc, "table", &tables, &err)) << err;
  EXPECT_NE(tables.find("replayed every bio and byte in all 8 cells\n"), std::string::npos)
      << tables;
  EXPECT_NE(tables.find("10 bios (10485760 bytes) of buffered writers' pages replayed as their "
                        "writes, pausing during the journal's 3 log writes"),
            std::string::npos)
      << tables;
  EXPECT_NE(tables.find("until the readers ended"), std::string::npos) << tables;
  // The records alternate k-dl and k-bfq: each configuration's mean, 0 and 0.25 s.
  EXPECT_NE(tables.find("journal waits: the readers' 2 I/Os after a journal handle, held while "
                        "a metadata write was in flight (mean s a cell): k-dl 0.000, k-bfq "
                        "0.250\n"),
            std::string::npos)
      << tables;
  testing::ExpectPrintedMatchesGolden("replay_report_buffered.txt", doc, "table", tables);
  std::string text;
  ASSERT_TRUE(RenderResults(doc, "table", ReportOptions{}, &text, &err)) << err;
  EXPECT_NE(text.find("\nCaution: a caution the suite wrote\n"), std::string::npos) << text;
}

TEST(ReplayTextTest, RecordsRoundTripAndMeasureReadAndWriteP99AsHeadlines) {
  const ReplayRecord r = MakeReplayRecord("k-dl", 0, 8, 30);
  ReplayRecord back;
  std::string err;
  ASSERT_TRUE(ReplayRecordFromJson(ReplayRecordToJson(r), &back, &err)) << err;
  EXPECT_EQ(ReplayRecordToJson(back), ReplayRecordToJson(r));
  std::vector<Measurement> m;
  ASSERT_TRUE(ReplayMeasurements(ReplayDocument(), &m, &err)) << err;
  bool read_p99 = false;
  for (const Measurement& x : m) {
    if (x.section == "replay" && x.metric.name == "read_p99_ms" && x.identifier == "k-bfq") {
      read_p99 = true;
      EXPECT_TRUE(x.metric.headline);
      EXPECT_NEAR(x.value, 5.0, 5.0 / 64);  // the kernel's 5 ms, not fio's
    }
  }
  EXPECT_TRUE(read_p99);
  nlohmann::json bad = ReplayRecordToJson(r);
  bad["lag"]["p99_ms"] = "late";
  EXPECT_FALSE(ReplayRecordFromJson(bad, &back, &err));
  EXPECT_NE(err.find("lag.p99_ms"), std::string::npos) << err;
}

TEST(FioJobsTextTest, OneTablePerJobFileWithEveryJobAndDirection) {
  ResultsDocument doc;
  doc.suite = "fio";
  doc.identifiers = {"k-dl", "k-none"};
  for (uint32_t rep = 0; rep < 4; ++rep) {
    for (const char* id : {"k-dl", "k-none"}) {
      FioJobsRecord r;
      r.identifier = r.scheduler = id;
      r.repetition = rep;
      r.job_file = "two-jobs.fio";
      r.elapsed_seconds = 5;
      r.jobs = {MakeJobResult("seqread", true, 800 + rep, 2),
                MakeJobResult("randread", true, 150, 7 + rep)};
      doc.records.push_back(FioJobsRecordToJson(r));
    }
  }
  std::string tables, err;
  ASSERT_TRUE(RenderFioJobsReport(doc, "table", &tables, &err)) << err;
  testing::ExpectPrintedMatchesGolden("fiojobs_report.txt", doc, "table", tables);
  std::vector<Measurement> m;
  ASSERT_TRUE(FioJobsMeasurements(doc, &m, &err)) << err;
  EXPECT_EQ(m.size(), 2u * 4 * 2 * 5);  // configurations × repetitions × jobs × metrics
  FioJobsRecord back;
  ASSERT_TRUE(FioJobsRecordFromJson(doc.records[0], &back, &err)) << err;
  EXPECT_EQ(FioJobsRecordToJson(back), doc.records[0]);
}

// A job faster than the emulated disk can move data was the page cache's (a buffered job: issue
// #29's 5,376 MB/s), and its line says so; the jobs within the disk's rate print as before.
TEST(FioJobsTextTest, AJobFasterThanTheEmulatedDiskIsMarkedAsThePageCache) {
  ResultsDocument doc;
  doc.suite = "fio";
  doc.identifiers = {"k-dl"};
  doc.context = {{"target", {{"kind", "emulated"}, {"profile", {{"read_mbps", 1.0}}}}}};
  FioJobsRecord r;
  r.identifier = r.scheduler = "k-dl";
  r.job_file = "two-jobs.fio";
  r.elapsed_seconds = 5;
  r.jobs = {MakeJobResult("seqread", true, 800, 2),    // 1.6 MB/s
            MakeJobResult("randread", true, 150, 7)};  // 0.3 MB/s
  doc.records.push_back(FioJobsRecordToJson(r));
  std::string tables, err;
  ASSERT_TRUE(RenderFioJobsReport(doc, "table", &tables, &err)) << err;
  size_t marked = 0;
  for (size_t at = 0, nl; (nl = tables.find('\n', at)) != std::string::npos; at = nl + 1) {
    const std::string line = tables.substr(at, nl - at);
    if (line.find("(page cache)") == std::string::npos) continue;
    ++marked;
    EXPECT_EQ(line.rfind("seqread", 0), 0u) << line;
  }
  EXPECT_EQ(marked, 1u) << tables;
}

}  // namespace
}  // namespace elevbench
