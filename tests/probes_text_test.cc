// The cat / ls -lr probes' report: every probe row of Nick Piggin's AS/DL/CFQ post (seed 000,
// 27 Mar 2003), CF's N/A included, is rendered from its published values and must come out byte
// for byte; DNF and failed repetitions get their notes; records round-trip through JSON.

#include "reporters/probes_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "test_util.h"

namespace elevbench {
namespace {

using testing::ExpectMatchesGolden;

// The probe block of the 27 Mar 2003 post, verbatim (seed 000, lkml 27 Mar 2003), without its prose
// note on CF's DNF, which follows "CF - N/A".
const char kSeedRows[] =
    "Cat kernel source during seq read\n"
    "DL - 0.03user 0.13system 5:21.39elapsed\n"
    "AS - 0.02user 0.14system 0:14.50elapsed\n"
    "CF - 0.01user 0.13system 4:52.79elapsed\n"
    "Cat kernel source during seq write\n"
    "DL - 0.03user 0.14system 14:06.45elapsed\n"
    "AS - 0.02user 0.14system 0:16.33elapsed\n"
    "CF - N/A\n"
    "ls -lr kernel source during seq read\n"
    "DL - 0.18user 0.31system 0:24.32elapsed\n"
    "AS - 0.19user 0.32system 0:09.39elapsed\n"
    "CF - 0.18user 0.29system 0:23.76elapsed\n"
    "ls -lr kernel source during seq write\n"
    "DL - 0.23user 0.34system 1:13.90elapsed\n"
    "AS - 0.18user 0.32system 0:05.49elapsed\n"
    "CF - 0.20user 0.33system 0:47.19elapsed\n";

// Our note in place of the seed's "* Test DNF after 20 minutes. ..." (the seed: "5s pauses
// between reads of ~500K"); the tree is the 2.4.19-sized one of docs/source-tree.md.
const char kCfNote[] =
    "* CF: DNF after 20 minutes (read 0.5 of 139.3 MB of 10^6 bytes, as --tree-size takes them, 37 "
    "of 11111 "
    "files)\n";

constexpr uint64_t kTreeBytes = 139274707;
constexpr uint64_t kTreeFiles = 11111;

std::string ProbeOfTitle(const std::string& title) {
  for (const std::string& p : AllProbes()) {
    if (ProbeTitle(p) == title) return p;
  }
  return "";
}

double ParseElapsed(const std::string& e) {  // "m:ss.cc"
  const size_t colon = e.find(':');
  return std::stod(e.substr(0, colon)) * 60 + std::stod(e.substr(colon + 1));
}

ProbeRecord BaseRecord(const std::string& label, const std::string& probe) {
  ProbeRecord r;
  r.label = label;
  r.identifier = "2.5.65-mm4-" + std::string(label == "DL" ? "dl" : label == "AS" ? "as" : "cf");
  r.scheduler = label == "DL" ? "deadline" : label == "AS" ? "anticipatory" : "cfq";
  r.probe = probe;
  r.status = "ok";
  r.timeout_seconds = 1200;
  r.files_total = kTreeFiles;
  r.bytes_total = kTreeBytes;
  r.warmup_seconds = 10;
  return r;
}

// One record per published row. The records are added last probe first, so the report's order
// comes from AllProbes, not from the records.
ResultsDocument ProbesSeedDocument() {
  ResultsDocument doc;
  doc.suite = "probes";
  doc.identifiers = {"2.5.65-mm4-dl", "2.5.65-mm4-as", "2.5.65-mm4-cf"};
  std::istringstream in(kSeedRows);
  std::string line, probe;
  std::vector<nlohmann::json> records;
  while (std::getline(in, line)) {
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos) {
      probe = ProbeOfTitle(line);
      continue;
    }
    ProbeRecord r = BaseRecord(line.substr(0, dash), probe);
    const std::string rest = line.substr(dash + 3);
    if (rest == "N/A") {
      r.status = "dnf";
      r.exit_code = -15;
      r.elapsed_seconds = 1200.05;
      r.bytes_read = 512000;
      r.files_read = 37;
    } else {
      std::istringstream f(rest);
      std::string user, system, elapsed;
      f >> user >> system >> elapsed;
      r.user_seconds = std::stod(user);      // "0.03user"
      r.system_seconds = std::stod(system);  // "0.13system"
      r.elapsed_seconds = ParseElapsed(elapsed.substr(0, elapsed.size() - 7));
      r.bytes_read = probe.rfind("cat-", 0) == 0 ? kTreeBytes : 0;
      r.files_read = probe.rfind("cat-", 0) == 0 ? kTreeFiles : 0;
      r.entries_listed = probe.rfind("ls-", 0) == 0 ? 12345 : 0;
    }
    records.push_back(ProbeRecordToJson(r));
  }
  std::reverse(records.begin(), records.end());
  doc.records = records;
  return doc;
}

std::string RenderProbes(const ResultsDocument& doc) {
  std::string text, err;
  EXPECT_TRUE(RenderProbesReport(doc, "nick", &text, &err)) << err;
  return text;
}

std::string WithCfNote() {
  std::string expected = kSeedRows;
  const std::string na = "CF - N/A\n";
  expected.insert(expected.find(na) + na.size(), kCfNote);
  return expected;
}

TEST(ProbesTextTest, TitlesAndOrder) {
  ASSERT_EQ(AllProbes().size(), 4u);
  EXPECT_EQ(AllProbes()[1], "cat-during-write");
  EXPECT_EQ(ProbeTitle("ls-during-write"), "ls -lr kernel source during seq write");
  EXPECT_EQ(ProbeTitle("find-during-read"), "");
}

TEST(ProbesTextTest, SeedRowsAreByteIdentical) {
  EXPECT_EQ(RenderProbes(ProbesSeedDocument()), WithCfNote());
}

TEST(ProbesTextTest, SeedReportMatchesGolden) {
  ResultsDocument doc = ProbesSeedDocument();
  doc.context = {
      {"cpus", 1},
      {"cpu_model", "PIV 2.0 (512K)"},
      {"memory_bytes", uint64_t{256} << 20},
      {"swap_bytes", 0},
      {"devices", {{{"name", "hda"}, {"model", "Maxtor 6E040L0"}, {"rotational", true}}}},
      {"filesystem", "ext2"}};
  const std::string text = RenderProbes(doc);
  testing::ExpectPrintedMatchesGolden("probes_seed.txt", doc, "nick", text);
  EXPECT_NE(
      text.find("Target fs for tests was ext2\nUnits: MB = 2^20 bytes (MiB)\n\n" + WithCfNote()),
      std::string::npos);
}

TEST(ProbesTextTest, WordsForTimeoutsAndBytes) {
  EXPECT_EQ(ProbeTimeoutText(1200), "20 minutes");
  EXPECT_EQ(ProbeTimeoutText(60), "1 minute");
  EXPECT_EQ(ProbeTimeoutText(90), "90 seconds");
  EXPECT_EQ(ProbeTimeoutText(30), "30 seconds");
  EXPECT_EQ(ProbeTimeoutText(1), "1 second");
  EXPECT_EQ(ProbeTimeoutText(2.5), "2.5 seconds");
  EXPECT_EQ(ProbeBytesText(800), "800 B");
  EXPECT_EQ(ProbeBytesText(512000), "500 KiB");
  EXPECT_EQ(ProbeBytesText(kTreeBytes), "132.8 MB");
  EXPECT_EQ(ProbeBytesText(uint64_t{5} << 28), "1.25 GB");
  // A tree's size in --tree-size's MB of 10^6 bytes (#45).
  EXPECT_EQ(TreeMegabytes(48'000'000), "48.0");
  EXPECT_EQ(TreeMegabytes(512000), "0.5");
  EXPECT_EQ(TreeMegabytes(4096), "0.0041");
  EXPECT_EQ(TreeMegabytes(0), "0.0");
}

TEST(ProbesTextTest, FailedAndPartlyFinishedRows) {
  ProbeRow all_failed;
  all_failed.probe = "cat-during-read";
  all_failed.repetitions = 2;
  all_failed.failed = 2;
  all_failed.failed_exit_code = 1;
  EXPECT_EQ(RenderProbeRow("XX", all_failed), "XX - failed (exit 1)");
  EXPECT_TRUE(ProbeNotes("XX", all_failed).empty());

  ProbeRow mixed;
  mixed.probe = "ls-during-write";
  mixed.repetitions = 3;
  mixed.dnf = 1;
  mixed.failed = 1;
  mixed.failed_exit_code = 2;
  mixed.user_seconds = 0.2;
  mixed.system_seconds = 0.33;
  mixed.elapsed_seconds = 47.19;
  mixed.timeout_seconds = 90;
  mixed.dnf_entries_listed = 800;
  EXPECT_EQ(RenderProbeRow("BFQ", mixed), "BFQ - 0.20user 0.33system 0:47.19elapsed");
  EXPECT_EQ(ProbeNotes("BFQ", mixed),
            (std::vector<std::string>{
                "* BFQ: 1 of 3 repetitions DNF after 90 seconds (listed 800 entries)",
                "* BFQ: 1 of 3 repetitions failed (exit 2)"}));
}

TEST(ProbesTextTest, RowsAreMeansOfFinishedRepetitions) {
  ResultsDocument doc;
  doc.suite = "probes";
  doc.identifiers = {"k-bfq", "k-mq"};
  doc.labels = {"BFQ", "MQ"};
  auto add = [&](const std::string& id, uint32_t rep, const std::string& status, double user,
                 double elapsed, uint64_t bytes, uint64_t files) {
    ProbeRecord r = BaseRecord("DL", "cat-during-write");
    r.label.clear();
    r.identifier = id;
    r.repetition = rep;
    r.status = status;
    r.user_seconds = user;
    r.system_seconds = 0.1;
    r.elapsed_seconds = elapsed;
    r.bytes_read = bytes;
    r.files_read = files;
    nlohmann::json j = ProbeRecordToJson(r);
    j.erase("label");
    doc.records.push_back(j);
  };
  add("k-mq", 0, "ok", 0.02, 10, kTreeBytes, kTreeFiles);
  add("k-mq", 1, "ok", 0.04, 20, kTreeBytes, kTreeFiles);
  add("k-mq", 2, "dnf", 0, 1200, 3 << 20, 100);
  add("k-bfq", 0, "dnf", 0, 1200, 1 << 20, 10);
  add("k-bfq", 1, "dnf", 0, 1200, 2 << 20, 21);
  add("k-bfq", 2, "dnf", 0, 1200, 3 << 20, 30);
  EXPECT_EQ(RenderProbes(doc),
            "(means of 3 repetitions)\n"
            "Cat kernel source during seq write\n"
            "BFQ - N/A\n"
            "MQ - 0.03user 0.10system 0:15.00elapsed\n"
            "* BFQ: 3 of 3 repetitions DNF after 20 minutes (on average read 2.1 of 139.3 MB of "
            "10^6 bytes, as --tree-size takes them, 20 of 11111 files)\n"
            "* MQ: 1 of 3 repetitions DNF after 20 minutes (read 3.1 of 139.3 MB of 10^6 bytes, "
            "as --tree-size takes them, 100 of 11111 files)\n");
  std::vector<ProbeRecord> records;
  std::string err;
  ASSERT_TRUE(ProbeRecordsFromDocument(doc, &records, &err)) << err;
  const nlohmann::json summary = ProbeSummaryToJson(AggregateProbeRows(records, doc.identifiers));
  ASSERT_EQ(summary.size(), 2u);
  EXPECT_EQ(summary[1]["identifier"], "k-mq");
  EXPECT_EQ(summary[1]["ok"], 2);
  EXPECT_EQ(summary[1]["dnf"], 1);
  EXPECT_DOUBLE_EQ(summary[1]["mean"]["elapsed_seconds"].get<double>(), 15);
  EXPECT_EQ(summary[0]["dnf_mean"]["files_read"], 20);  // (10 + 21 + 30) / 3, rounded
}

TEST(ProbesTextTest, RecordJsonRoundTripsWithItsLoad) {
  ProbeRecord r = BaseRecord("AS", "ls-during-read");
  r.entries_listed = 14000;
  r.major_faults = 3;
  r.minor_faults = 250;
  StreamResult s;
  s.name = "streaming-reader";
  s.direction = "read";
  s.bytes_read = 1 << 30;
  s.runtime_seconds = 21.5;
  s.cpu_seconds = 0.75;
  ASSERT_TRUE(s.latency.Record(80000, 1000));
  s.throughput_kib_s = {45000, 46000};
  s.throughput_interval_ms = 1000;
  r.load = {s};
  const nlohmann::json j = ProbeRecordToJson(r);
  for (const char* key :
       {"scheduler",       "identifier",   "label",        "repetition",     "probe",
        "status",          "exit_code",    "user_seconds", "system_seconds", "elapsed_seconds",
        "timeout_seconds", "major_faults", "minor_faults", "bytes_read",     "files_read",
        "entries_listed",  "files_total",  "bytes_total",  "warmup_seconds", "load"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j.size(), 20u);
  ProbeRecord back;
  std::string err;
  ASSERT_TRUE(ProbeRecordFromJson(nlohmann::json::parse(j.dump()), &back, &err)) << err;
  EXPECT_EQ(ProbeRecordToJson(back), j);
  ASSERT_EQ(back.load.size(), 1u);
  EXPECT_EQ(back.load[0].latency.count(), 1000u);
  EXPECT_EQ(back.entries_listed, 14000u);
}

TEST(ProbesTextTest, RefusesOtherFormatsAndForeignRecords) {
  std::string text, err;
  EXPECT_FALSE(RenderProbesReport(ProbesSeedDocument(), "json-ish", &text, &err));
  EXPECT_EQ(err, "probes results print as nick, not 'json-ish'");
  ResultsDocument doc = ProbesSeedDocument();
  doc.records[1]["probe"] = "dd-during-read";
  EXPECT_FALSE(RenderProbesReport(doc, "nick", &text, &err));
  EXPECT_EQ(err, "records[1]: probe: unknown probe 'dd-during-read'");
  doc = ProbesSeedDocument();
  doc.records[0]["status"] = "slow";
  EXPECT_FALSE(RenderProbesReport(doc, "nick", &text, &err));
  EXPECT_EQ(err, "records[0]: status: expected ok, dnf or failed, not 'slow'");
  doc = ProbesSeedDocument();
  doc.records[2]["load"] = {{{"name", 1}}};
  EXPECT_FALSE(RenderProbesReport(doc, "nick", &text, &err));
  EXPECT_EQ(err, "records[2]: load[0].name: expected a string");
  doc = ProbesSeedDocument();
  doc.records[3]["exit_code"] = 1.5;
  EXPECT_FALSE(RenderProbesReport(doc, "nick", &text, &err));
  EXPECT_EQ(err, "records[3]: exit_code: expected an integer");
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// The shipped DNF fixture is a run with --timeout 600: its DNF was cut at that timeout, as
// every other record's says (issue 45: it printed "DNF after 200 seconds").
TEST(ProbesTextTest, DnfFixtureIsCutAtTheRunsTimeout) {
  const NamedResults file = testing::LoadNamedResults("fixtures/report_probes_dnf.json");
  for (const nlohmann::json& r : file.doc.records) {
    EXPECT_EQ(r.at("timeout_seconds"), 600.0) << r.at("identifier") << " " << r.at("probe");
    if (r.at("status") == "dnf") {
      EXPECT_EQ(r.at("elapsed_seconds"), r.at("timeout_seconds"));
    }
  }
  std::string text;
  std::string err;
  ASSERT_TRUE(RenderProbesReport(file.doc, "nick", &text, &err)) << err;
  // #45: the tree's MB are --tree-size's (10^6 bytes): --tree-size 48 reads "of 48.0 MB", where
  // MiB made it "of 45.8 MB".
  EXPECT_NE(text.find("* DL: DNF after 10 minutes (read 24.0 of 48.0 MB of 10^6 bytes, as "
                      "--tree-size takes them, 1876 of 3752 files)\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace elevbench
