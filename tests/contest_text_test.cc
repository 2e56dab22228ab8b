// contest's report: every contest row of Nick Piggin's AS/DL/CFQ post (seed 000, 27 Mar 2003)
// is rendered from records made to give its values and must come out byte for byte, tabs
// included (the raw mail; the seed file shows them collapsed); contest's own layout; the
// metrics (CPU%, LCPU%, Ratio from unrounded means); notes; JSON round trip; measurements.

#include "reporters/contest_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "app/suites.h"
#include "harness/stats/measurement.h"
#include "reporters/render.h"
#include "scenarios/contest/contest_loads.h"
#include "scenarios/contest/contest_measurements.h"
#include "scenarios/contest/contest_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::ExpectMatchesGolden;

// The contest block of <20030327042134.GA330@didi>, verbatim (tabs as sent).
const char kContestSeedBlock[] =
    "Contest\n"
    "no_load:\n"
    "Kernel     [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio\n"
    "2.5.65-mm4-dl      1\t69\t95.7\t0.0\t0.0\t1.00\n"
    "2.5.65-mm4-as      1\t69\t95.7\t0.0\t0.0\t1.00\n"
    "2.5.65-mm4-cf      1\t69\t95.7\t0.0\t0.0\t1.00\n"
    "io_load:\n"
    "Kernel     [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio\n"
    "2.5.65-mm4-dl      1\t149\t46.3\t121.0\t22.8\t2.16\n"
    "2.5.65-mm4-as      1\t100\t70.0\t81.2\t22.0\t1.45\n"
    "2.5.65-mm4-cf      1\t121\t57.9\t77.8\t18.0\t1.75\n"
    "read_load:\n"
    "Kernel     [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio\n"
    "2.5.65-mm4-dl      1\t91\t78.0\t12.8\t6.6\t1.32\n"
    "2.5.65-mm4-as      1\t100\t72.0\t15.6\t8.0\t1.45\n"
    "2.5.65-mm4-cf      1\t92\t76.1\t12.5\t6.5\t1.33\n"
    "list_load:\n"
    "Kernel     [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio\n"
    "2.5.65-mm4-dl      1\t87\t78.2\t5.0\t18.4\t1.26\n"
    "2.5.65-mm4-as      1\t94\t72.3\t6.0\t19.1\t1.36\n"
    "2.5.65-mm4-cf      1\t89\t76.4\t5.0\t18.0\t1.29\n";

// The same lines as seed 000 shows them (lkml, 27 Mar 2003; whitespace runs collapsed to one
// space).
const char kSeedCollapsed[] =
    "Contest\nno_load:\nKernel [runs] Time CPU% Loads LCPU% Ratio\n"
    "2.5.65-mm4-dl 1 69 95.7 0.0 0.0 1.00\n2.5.65-mm4-as 1 69 95.7 0.0 0.0 1.00\n"
    "2.5.65-mm4-cf 1 69 95.7 0.0 0.0 1.00\nio_load:\nKernel [runs] Time CPU% Loads LCPU% Ratio\n"
    "2.5.65-mm4-dl 1 149 46.3 121.0 22.8 2.16\n2.5.65-mm4-as 1 100 70.0 81.2 22.0 1.45\n"
    "2.5.65-mm4-cf 1 121 57.9 77.8 18.0 1.75\nread_load:\n"
    "Kernel [runs] Time CPU% Loads LCPU% Ratio\n2.5.65-mm4-dl 1 91 78.0 12.8 6.6 1.32\n"
    "2.5.65-mm4-as 1 100 72.0 15.6 8.0 1.45\n2.5.65-mm4-cf 1 92 76.1 12.5 6.5 1.33\n"
    "list_load:\nKernel [runs] Time CPU% Loads LCPU% Ratio\n"
    "2.5.65-mm4-dl 1 87 78.2 5.0 18.4 1.26\n2.5.65-mm4-as 1 94 72.3 6.0 19.1 1.36\n"
    "2.5.65-mm4-cf 1 89 76.4 5.0 18.0 1.29\n";

std::string CollapseBlanks(const std::string& text) {
  std::string out;
  bool blank = false;
  for (char c : text) {
    if (c == ' ' || c == '\t') {
      blank = true;
      continue;
    }
    if (blank && c != '\n' && !out.empty() && out.back() != '\n') out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

std::vector<std::string> Split(const std::string& line, char sep) {
  std::vector<std::string> parts;
  std::stringstream ss(line);
  std::string p;
  while (std::getline(ss, p, sep)) parts.push_back(p);
  return parts;
}

// A record that gives a published row: the compile ran `time` s at `cpu` %; the load did
// `loads` and used `lcpu` % of its own elapsed time, which ran 3 s longer (its warm-up).
ContestRecord RecordOf(const std::string& id, const std::string& load, double time, double cpu,
                       double loads, double lcpu, uint32_t repetition = 0) {
  ContestRecord r;
  r.identifier = id;
  r.scheduler = id.substr(id.size() - 2);
  r.label = r.scheduler == "dl" ? "DL" : r.scheduler == "as" ? "AS" : "CF";
  r.repetition = repetition;
  r.load = load;
  r.status = "ok";
  r.timeout_seconds = 3600;
  r.compile.elapsed_seconds = time;
  r.compile.user_seconds = cpu * time / 100 * 0.9;
  r.compile.system_seconds = cpu * time / 100 * 0.1;
  const bool none = load == "no_load" || load == "cacherun";
  r.load_kind = none ? "none" : "fio";
  if (!none) {
    r.warmup_seconds = 3;
    r.load_usage.elapsed_seconds = time + 3;
    r.load_usage.user_seconds = lcpu * (time + 3) / 100;
    r.loads = loads;
    r.load_work = loads * FindContestLoad(load)->divisor;
    r.load_work_unit = FindContestLoad(load)->work_unit;
  }
  return r;
}

// One record per published row, added in an order the report must not keep (last load first).
ResultsDocument ContestSeedDocument() {
  ResultsDocument doc;
  doc.suite = "contest";
  doc.identifiers = {"2.5.65-mm4-dl", "2.5.65-mm4-as", "2.5.65-mm4-cf"};
  std::istringstream in(kContestSeedBlock);
  std::string line, load;
  std::vector<nlohmann::json> records;
  while (std::getline(in, line)) {
    if (line.back() == ':') {
      load = line.substr(0, line.size() - 1);
      continue;
    }
    if (line.rfind("2.5", 0) != 0) continue;
    const std::vector<std::string> f = Split(line, '\t');
    const std::string id = f[0].substr(0, f[0].find(' '));
    records.insert(records.begin(),
                   ContestRecordToJson(RecordOf(id, load, std::stod(f[1]), std::stod(f[2]),
                                                std::stod(f[3]), std::stod(f[4]))));
  }
  doc.records = records;
  return doc;
}

TEST(ContestTextTest, NickFormatReproducesTheSeedByteForByte) {
  std::string text, err;
  ASSERT_TRUE(RenderContestReport(ContestSeedDocument(), "nick", &text, &err)) << err;
  EXPECT_EQ(text, kContestSeedBlock);
  EXPECT_EQ(CollapseBlanks(text), kSeedCollapsed);
  testing::ExpectPrintedMatchesGolden("contest_seed_nick.txt", ContestSeedDocument(), "nick", text);
}

TEST(ContestTextTest, ContestFormatIsContestsOwnPrintf) {
  std::string text, err;
  ASSERT_TRUE(RenderContestReport(ContestSeedDocument(), "contest", &text, &err)) << err;
  // printf("%-15s%6d\t%d\t%.1f\t%.1f\t%.1f\t%.2f\n") and its 21-column header.
  EXPECT_NE(text.find("io_load:\nKernel         [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio\n"
                      "2.5.65-mm4-dl       1\t149\t46.3\t121.0\t22.8\t2.16\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Contest\n"), std::string::npos);
  // Only the label/runs spacing differs from Nick's.
  EXPECT_EQ(CollapseBlanks(text), std::string(kSeedCollapsed).substr(8));
  testing::ExpectPrintedMatchesGolden("contest_seed.txt", ContestSeedDocument(), "contest", text);
  EXPECT_FALSE(RenderContestReport(ContestSeedDocument(), "tiobench", &text, &err));
}

// #45: a run of a few seconds printed "1" beside "1" with Ratio 1.47; under 10 s Time has two
// decimals, so the Ratio agrees with the Times shown; from 10 s up the seed's whole seconds.
TEST(ContestTextTest, ShortTimesKeepTheirDecimals) {
  EXPECT_EQ(ContestTimeText(149.4), "149");
  EXPECT_EQ(ContestTimeText(69), "69");
  EXPECT_EQ(ContestTimeText(10.2), "10");
  EXPECT_EQ(ContestTimeText(9.996), "10");
  EXPECT_EQ(ContestTimeText(9.5), "9.50");
  EXPECT_EQ(ContestTimeText(1.0833782590052579), "1.08");
  EXPECT_EQ(ContestTimeText(0.7390546969982097), "0.74");
  ContestRow row;
  row.label = "DL";
  row.runs = 1;
  row.time_seconds = 1.0833782590052579;
  row.ratio = 1.0833782590052579 / 0.7390546969982097;
  EXPECT_EQ(RenderContestRow("contest", row), "DL                  1\t1.08\t0.0\t0.0\t0.0\t1.47");
}

TEST(ContestReportTest, GenericFormatsComeFromTheMeasurements) {
  NamedResults file{"contest.json", ContestSeedDocument(), {}, {}};
  // In run order, as a real run saves them (SeedDocument shuffles them for the renderer).
  std::reverse(file.doc.records.begin(), file.doc.records.end());
  file.doc.labels = {"DL", "AS", "CF"};
  file.doc.context = {{"repetitions", 1}};
  file.doc.complete = true;
  std::string md, csv, err;
  ASSERT_TRUE(RenderReport({file}, "md", ReportOptions{}, &md, &err)) << err;
  EXPECT_NE(md.find("### io_load"), std::string::npos) << md;
  EXPECT_NE(md.find("**Time** (time_seconds, s, ↓)"), std::string::npos) << md;
  ExpectMatchesGolden("report_contest_seed.md", md);
  ASSERT_TRUE(RenderReport({file}, "csv", ReportOptions{}, &csv, &err)) << err;
  EXPECT_NE(csv.find("contest,io_load,"), std::string::npos) << csv;
  ExpectMatchesGolden("report_contest_seed.csv", csv);
}

TEST(ContestMetricsTest, CpuAndLoadCpuAreOverTheirOwnElapsedTimes) {
  ContestRecord r;
  r.compile.elapsed_seconds = 69;
  r.compile.user_seconds = 60;
  r.compile.system_seconds = 6;
  EXPECT_NEAR(r.CpuPercent(), 95.65, 0.01);  // 66/69: the seed's 95.7
  // CFQ's io_load: 22 s of CPU over the load's own 122 s, not the compile's 121 s.
  r.load_usage.elapsed_seconds = 122;
  r.load_usage.user_seconds = 2;
  r.load_usage.system_seconds = 20;
  EXPECT_NEAR(r.LoadCpuPercent(), 18.03, 0.01);
  ContestRecord none;
  EXPECT_EQ(none.CpuPercent(), 0);
  EXPECT_EQ(none.LoadCpuPercent(), 0);
}

TEST(ContestMetricsTest, RatioIsOfTheUnroundedMeansOfTheSameConfiguration) {
  std::vector<ContestRecord> recs = {RecordOf("k-dl", "no_load", 69.4, 95, 0, 0, 0),
                                     RecordOf("k-dl", "no_load", 70.4, 95, 0, 0, 1),
                                     RecordOf("k-dl", "io_load", 140.2, 50, 100, 20, 0),
                                     RecordOf("k-dl", "io_load", 150.2, 50, 120, 22, 1),
                                     RecordOf("k-as", "no_load", 80, 95, 0, 0, 0),
                                     RecordOf("k-as", "io_load", 100, 70, 80, 20, 0)};
  const std::vector<ContestRow> rows = AggregateContestRows(recs, {"k-dl", "k-as"});
  ASSERT_EQ(rows.size(), 4u);
  const ContestRow& dl_io = rows[2];
  EXPECT_EQ(dl_io.load, "io_load");
  EXPECT_EQ(dl_io.identifier, "k-dl");
  EXPECT_EQ(dl_io.runs, 2u);
  EXPECT_NEAR(dl_io.time_seconds, 145.2, 1e-9);
  EXPECT_DOUBLE_EQ(dl_io.loads, 110);
  EXPECT_NEAR(dl_io.lcpu_percent, 21, 1e-9);
  EXPECT_NEAR(dl_io.ratio, 145.2 / 69.9, 1e-12);  // not 145/70 from rounded times
  EXPECT_DOUBLE_EQ(rows[3].ratio, 100.0 / 80);    // k-as against its own no_load
  EXPECT_DOUBLE_EQ(rows[0].ratio, 1.0);
  // Printed: Time rounded, Ratio from the unrounded means.
  EXPECT_EQ(RenderContestRow("contest", dl_io),
            "k-dl                2\t145\t50.0\t110.0\t21.0\t2.08");
}

TEST(ContestTextTest, UnfinishedRunsAndAnAbsentLoadAreNoted) {
  std::vector<ContestRecord> recs = {RecordOf("k-dl", "io_load", 100, 50, 10, 10, 0),
                                     RecordOf("k-dl", "io_load", 3600, 10, 10, 10, 1),
                                     RecordOf("k-as", "io_load", 1, 1, 1, 1, 0),
                                     RecordOf("k-dl", "io_other", 70, 95, 0, 0, 0)};
  recs[1].status = "dnf";
  recs[2].status = "failed";
  recs[2].exit_code = 2;
  recs[3].load_absent = true;
  recs[3].load_kind = "none";
  recs[3].loads = 0;
  recs[3].load_usage = {};
  const std::vector<ContestRow> rows = AggregateContestRows(recs, {"k-dl", "k-as"});
  const std::string text = RenderContestText(nlohmann::json::object(), rows, "contest");
  EXPECT_EQ(text,
            "io_load:\n"
            "Kernel         [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio\n"
            "k-dl                1\t100\t50.0\t10.0\t10.0\t-\n"
            "k-as                0\tfailed\n"
            "* k-dl: 1 of 2 runs DNF (compile stopped after 3600 s)\n"
            "* k-as: failed (compile exit 2)\n"
            "io_other:\n"
            "Kernel         [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio\n"
            "k-dl                1\t70\t95.0\t0.0\t0.0\t-\n"
            "* io_other: no --other-dir given, so no load ran (as contest without -o)\n");
}

TEST(ContestRecordsTest, RoundTripKeepsEveryField) {
  ContestRecord r = RecordOf("k-dl", "io_load", 149, 46.3, 121, 22.8);
  r.label = "DL";
  r.compile.major_faults = 7;
  r.compile.block_output_ops = 9000;
  r.load_iterations_started = 4;
  r.load_last_failure = "exit 2: x";
  StreamResult s;
  s.name = "io_load";
  s.direction = "write";
  s.bytes_written = 12100ULL << 20;
  s.runtime_seconds = 152;
  s.latency.Record(1000, 5);
  r.streams = {s};
  const nlohmann::json j = ContestRecordToJson(r);
  EXPECT_NEAR(j.at("cpu_percent").get<double>(), 46.3, 1e-9);
  ContestRecord back;
  std::string err;
  ASSERT_TRUE(ContestRecordFromJson(j, &back, &err)) << err;
  EXPECT_EQ(ContestRecordToJson(back), j);
  nlohmann::json bad = j;
  bad["load"] = "nonsense_load";
  EXPECT_FALSE(ContestRecordFromJson(bad, &back, &err));
  EXPECT_NE(err.find("unknown load"), std::string::npos);
  bad = j;
  bad["compile"].erase("user_seconds");
  EXPECT_FALSE(ContestRecordFromJson(bad, &back, &err));
  EXPECT_EQ(err, "compile.user_seconds: missing");
}

TEST(ContestMeasurementsTest, DirectionsAndPerRepetitionRatios) {
  ResultsDocument doc;
  doc.suite = "contest";
  doc.identifiers = {"k-dl"};
  for (const ContestRecord& r :
       {RecordOf("k-dl", "no_load", 70, 95, 0, 0, 0), RecordOf("k-dl", "no_load", 72, 95, 0, 0, 1),
        RecordOf("k-dl", "io_load", 140, 50, 100, 20, 0),
        RecordOf("k-dl", "io_load", 144, 50, 120, 22, 1)}) {
    doc.records.push_back(ContestRecordToJson(r));
  }
  std::vector<Measurement> m;
  std::string err;
  ASSERT_TRUE(MeasurementsOf(doc, &m, &err)) << err;
  auto find = [&](const std::string& section, const std::string& metric, uint32_t rep) {
    for (const Measurement& x : m) {
      if (x.section == section && x.metric.name == metric && x.repetition == rep) return x;
    }
    ADD_FAILURE() << section << " " << metric;
    return Measurement{};
  };
  const Measurement time = find("io_load", "time_seconds", 1);
  EXPECT_TRUE(time.metric.headline);
  EXPECT_EQ(time.metric.direction, Direction::kLowerIsBetter);
  EXPECT_DOUBLE_EQ(time.value, 144);
  EXPECT_DOUBLE_EQ(find("io_load", "ratio", 0).value, 2.0);
  EXPECT_DOUBLE_EQ(find("io_load", "ratio", 1).value, 2.0);
  EXPECT_EQ(find("io_load", "ratio", 1).metric.direction, Direction::kLowerIsBetter);
  EXPECT_EQ(find("io_load", "loads", 0).metric.direction, Direction::kHigherIsBetter);
  EXPECT_DOUBLE_EQ(find("io_load", "loads", 1).value, 120);
  for (const Measurement& x : m) {
    // no_load has no ratio to itself and no load to count.
    if (x.section == "no_load") {
      EXPECT_TRUE(x.metric.name == "time_seconds" || x.metric.name == "cpu_percent")
          << x.metric.name;
    }
  }
}

TEST(ContestLoadsTest, ParsesLoadsInContestsOrderAndRefusesBadLists) {
  std::vector<std::string> loads;
  std::string err;
  ASSERT_TRUE(ParseContestLoads("", &loads, &err)) << err;
  ASSERT_EQ(loads.size(), 11u);
  EXPECT_EQ(loads.front(), "no_load");
  EXPECT_EQ(loads[1], "cacherun");
  EXPECT_EQ(loads.back(), "dbench_load");
  ASSERT_TRUE(ParseContestLoads("io_load,no_load,cacherun", &loads, &err)) << err;
  EXPECT_FALSE(ParseContestLoads("no_load,disk_load", &loads, &err));
  EXPECT_NE(err.find("unknown load 'disk_load'"), std::string::npos) << err;
  EXPECT_FALSE(ParseContestLoads("cacherun,no_load", &loads, &err));
  EXPECT_NE(err.find("directly follow no_load"), std::string::npos) << err;
  EXPECT_FALSE(ParseContestLoads("io_load,io_load", &loads, &err));
}

TEST(ContestLoadsTest, SizesFollowRamAndCpus) {
  ContestLoadContext c;
  c.load_dir = "/t/contest-load";
  c.tree_root = "/t/contest-tree";
  c.list_dir = "/t";
  c.self_exe = "/bin/elevbench";
  c.memory_bytes = 256ULL << 20;
  c.cpus = 2;
  const ContestLoadPlan io = PlanContestLoad("io_load", c);
  ASSERT_EQ(io.kind, ContestLoadKind::kFio);
  ASSERT_EQ(io.fio.streams.size(), 1u);
  EXPECT_EQ(io.fio.streams[0].file_size_bytes, 256ULL << 20);
  EXPECT_EQ(io.fio.streams[0].rw, "write");
  EXPECT_GT(io.fio.streams[0].runtime_ms, 0u);  // until stopped
  const ContestLoadPlan mem = PlanContestLoad("mem_load", c);
  EXPECT_EQ(mem.command.argv.back(), std::to_string((256ULL << 20) + (256ULL << 20) / 10));
  EXPECT_NEAR(mem.work_per_iteration, 281.6, 1e-5);  // MiB: 1.1 x 256
  const ContestLoadPlan ring = PlanContestLoad("process_load", c);
  EXPECT_EQ(ring.command.argv[4], "8");  // 4 x cpus processes
  const ContestLoadPlan dbench = PlanContestLoad("dbench_load", c);
  EXPECT_EQ(dbench.command.argv.back(), "32");  // 16 x cpus clients
  const ContestLoadPlan list = PlanContestLoad("list_load", c);
  EXPECT_EQ(list.command.argv, (std::vector<std::string>{"ls", "-lRa", "/t"}));
  const ContestLoadPlan other = PlanContestLoad("io_other", c);
  EXPECT_TRUE(other.absent);
  EXPECT_EQ(other.kind, ContestLoadKind::kNone);
  c.other_dir = "/o";
  EXPECT_EQ(PlanContestLoad("io_other", c).fio.streams.at(0).filename,
            "/o/elevbench-contest-io_other");
}

}  // namespace
}  // namespace elevbench
