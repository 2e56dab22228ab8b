// The protection report of `run --controls` (harness/stats/protection.h,
// reporters/protection_text.h): each controlled row against its scheduler's row without a
// control, judged by the verdict's rules; the best protection and, among the rows the U test
// cannot tell from it, the one whose load kept the most; nothing for a run without controls; the
// text, Markdown and HTML forms against golden files.

#include "harness/stats/protection.h"

#include <gtest/gtest.h>

#include "app/suites.h"
#include "reporters/html.h"
#include "reporters/markdown.h"
#include "reporters/protection_text.h"
#include "scenarios/nickbench/nickbench_records.h"
#include "scenarios/probes/probe_records.h"
#include "scenarios/visave/visave_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

struct Control {
  std::string label;       // "DL+idle"
  std::string identifier;  // "6.18.44-dl-idle"
  std::string scheduler;
  std::string control;  // "" in a run without controls
};

const Control kNone{"DL", "6.18.44-dl", "mq-deadline", "none"};
const Control kIdle{"DL+idle", "6.18.44-dl-idle", "mq-deadline", "ionice:load=idle"};
const Control kThrottle{"DL+thr10M", "6.18.44-dl-thr10m", "mq-deadline", "throttle:load=10M"};

// The protection tables of `doc`, from its measurements and the default verdict settings.
std::vector<ProtectionTable> ProtectionOf(const ResultsDocument& doc) {
  std::vector<Measurement> measurements;
  std::string err;
  EXPECT_TRUE(MeasurementsOf(doc, &measurements, &err)) << err;
  return ComputeProtection(doc, measurements, VerdictSettings{});
}

// A probes document: per control, one cat-during-write record per time, its load moving
// `load_mb_s[i]` MiB/s over 100 s.
struct ProtectionFixture {
  ResultsDocument doc;

  ProtectionFixture() {
    doc.suite = "probes";
    doc.context["repetitions"] = 4;
  }

  void Add(const Control& c, const std::vector<double>& times, const std::vector<double>& load_mb_s,
           const std::string& status = "ok", const RowKernel& kernel = {}) {
    doc.identifiers.push_back(c.identifier);
    doc.labels.push_back(c.label);
    for (size_t i = 0; i < times.size(); ++i) {
      ProbeRecord r;
      r.identifier = c.identifier;
      r.label = c.label;
      r.scheduler = c.scheduler;
      r.control = c.control;
      r.kernel = kernel;
      r.repetition = static_cast<uint32_t>(i);
      r.probe = "cat-during-write";
      r.status = status;
      r.elapsed_seconds = times[i];
      r.timeout_seconds = 300;
      StreamResult s;
      s.direction = "write";
      s.runtime_seconds = 100;
      s.bytes_written = static_cast<uint64_t>(load_mb_s[i] * 100 * (1 << 20));
      r.load.push_back(s);
      doc.records.push_back(ProbeRecordToJson(r));
    }
  }

  std::vector<ProtectionTable> Compute() const { return ProtectionOf(doc); }
};

// nickbench's bench 2 under controls: what is protected is the readers' rate, so the best row is
// the fastest reader and the tail column is p1, the slow end of a rate.
TEST(ProtectionTest, ARateIsProtectedUpwardsWithItsSlowEndAsTheTail) {
  ResultsDocument doc;
  doc.suite = "nickbench";
  const auto add = [&](const Control& c, const std::vector<double>& read_mb) {
    doc.identifiers.push_back(c.identifier);
    doc.labels.push_back(c.label);
    for (size_t i = 0; i < read_mb.size(); ++i) {
      NickbenchRecord r;
      static_cast<RecordHeader&>(r) = {c.scheduler, c.identifier, c.label, static_cast<uint32_t>(i),
                                       c.control};
      r.bench = 2;
      r.elapsed_seconds = 10;
      StreamResult reader, writer;
      reader.direction = "read";
      reader.bytes_read = static_cast<uint64_t>(read_mb[i] * 10) << 20;
      writer.direction = "write";
      writer.bytes_written = 300ULL << 20;  // 30 MiB/s everywhere: no cost
      r.streams = {reader, writer};
      doc.records.push_back(NickbenchRecordToJson(r));
    }
  };
  add(kNone, {2, 2.1, 2.2, 2.3});
  add(kIdle, {9, 10, 11, 12});
  const std::vector<ProtectionTable> tables = ProtectionOf(doc);
  ASSERT_EQ(tables.size(), 1u);
  const ProtectionTable& t = tables[0];
  EXPECT_EQ(t.protected_metric.name, "readers_mb_s");
  EXPECT_EQ(t.load_metric.name, "writers_mb_s");
  EXPECT_EQ(t.tail_percentile, 1);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_NEAR(t.rows[1].tail, 9.03, 1e-9);  // 9 + 0.03 × (10 − 9)
  EXPECT_EQ(t.best, "DL+idle");
  EXPECT_EQ(t.rows[1].protection.kind, VerdictKind::kBetter);
  EXPECT_GT(t.rows[1].protection.change_pct, 300);
  EXPECT_EQ(ProtectionCells(t, VerdictSettings{})[0][4], "p1 MB/s");
  EXPECT_EQ(ProtectionCells(t, VerdictSettings{})[0][6], "rate vs none");
}

// visave's saves beside its buffered writer: the writer's rate is the page cache's, and the
// heading says so.
TEST(ProtectionTest, VisavesSavesAreProtectedAndItsPageCacheLoadIsSaidToBeOne) {
  ResultsDocument doc;
  doc.suite = "visave";
  const auto add = [&](const Control& c, double save_seconds) {
    doc.identifiers.push_back(c.identifier);
    doc.labels.push_back(c.label);
    for (uint32_t i = 0; i < 4; ++i) {
      VisaveRecord r;
      static_cast<RecordHeader&>(r) = {c.scheduler, c.identifier, c.label, i, c.control};
      VisaveSave save;
      save.timing.wall_seconds = save_seconds + 0.01 * i;
      r.saves = {save};
      StreamResult writer;
      writer.direction = "write";
      writer.runtime_seconds = 10;
      writer.bytes_written = 440ULL << 20;
      r.load = {writer};
      doc.records.push_back(VisaveRecordToJson(r));
    }
  };
  add(kNone, 3.8);
  add(kIdle, 2.1);
  const std::vector<ProtectionTable> tables = ProtectionOf(doc);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].protected_metric.name, "mean_save_seconds");
  EXPECT_TRUE(tables[0].load_metric.page_cache);
  EXPECT_EQ(tables[0].best, "DL+idle");
  EXPECT_NE(ProtectionHeading(tables[0], VerdictSettings{})
                .find("the load in MB/s into the page cache, not the disk's"),
            std::string::npos);
}

TEST(ProtectionTest, ARunWithoutControlsHasNoTable) {
  ProtectionFixture f;
  Control plain = kNone;
  plain.control = "";
  f.Add(plain, {60, 61, 62, 63}, {40, 40, 40, 40});
  EXPECT_TRUE(f.Compute().empty());
}

TEST(ProtectionTest, EachControlIsJudgedAgainstItsSchedulersRowWithout) {
  ProtectionFixture f;
  f.Add(kNone, {230, 231, 232, 233}, {38, 38.5, 39, 39.5});
  f.Add(kIdle, {229, 232, 230, 234}, {38.2, 39, 38.7, 39.1});
  f.Add(kThrottle, {12, 12.5, 13, 13.5}, {10, 9.9, 10.1, 10});
  const std::vector<ProtectionTable> tables = f.Compute();
  ASSERT_EQ(tables.size(), 1u);
  const ProtectionTable& t = tables.front();
  EXPECT_EQ(t.section, "cat-during-write");
  EXPECT_EQ(t.protected_metric.name, "elapsed_seconds");
  EXPECT_EQ(t.load_metric.name, "load_mb_s");
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_FALSE(t.rows[0].has_baseline);
  EXPECT_EQ(t.rows[0].control, "none");
  EXPECT_TRUE(t.rows[1].has_baseline);
  EXPECT_EQ(t.rows[1].baseline, "DL");
  EXPECT_EQ(t.rows[1].protection.kind, VerdictKind::kNoDifference);
  EXPECT_EQ(t.rows[2].protection.kind, VerdictKind::kBetter);
  EXPECT_LT(t.rows[2].protection.change_pct, -90);
  EXPECT_NEAR(t.rows[2].protection.p_value, 0.0286, 0.001);
  EXPECT_EQ(t.rows[2].cost.kind, VerdictKind::kBetter);  // a real loss, beyond the threshold
  EXPECT_LT(t.rows[2].cost.change_pct, -70);
  EXPECT_DOUBLE_EQ(t.rows[2].p50, 12.75);
  EXPECT_NEAR(t.rows[2].tail, 13.485, 1e-9);
  EXPECT_EQ(t.best, "DL+thr10M");
  EXPECT_EQ(t.least_cost, "DL+thr10M");
}

TEST(ProtectionTest, TheLeastCostIsTheRowTheTestCannotTellFromTheBestWithTheMostLoad) {
  ProtectionFixture f;
  f.Add(kNone, {230, 231, 232, 233}, {38, 38.5, 39, 39.5});
  f.Add(kIdle, {12.2, 13.6, 12.4, 13.2}, {30, 31, 30, 31});
  f.Add(kThrottle, {12, 12.5, 13, 13.5}, {10, 9.9, 10.1, 10});
  const std::vector<ProtectionTable> tables = f.Compute();
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].best, "DL+thr10M");
  EXPECT_EQ(tables[0].least_cost, "DL+idle");
  EXPECT_EQ(tables[0].least_cost_vs_best.kind, VerdictKind::kNoDifference);
  EXPECT_EQ(ProtectionBestText(tables[0]),
            "Best protection: DL+thr10M (p50 12.75 s, load 10.00 MB/s); at the least cost: "
            "DL+idle (p50 12.80 s, load 30.49 MB/s; no difference in time from it, p=0.886).");
}

// A row as fast as the best whose load kept no more than the best's (no difference, or within
// the threshold) is no cheaper: the best stays the least cost too.
TEST(ProtectionTest, ALoadNoBetterByTheTestDoesNotMakeARowCheaper) {
  ProtectionFixture f;
  f.Add(kNone, {1.00, 1.03, 1.03, 1.04}, {37.5, 37.5, 37.6, 37.5});
  f.Add(kIdle, {1.03, 1.04, 1.05, 1.02}, {37.55, 37.6, 37.5, 37.55});
  const std::vector<ProtectionTable> tables = f.Compute();
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].best, "DL");
  EXPECT_EQ(tables[0].least_cost, "DL");
}

TEST(ProtectionTest, FewRepetitionsAreNotTestedAndDoNotDisplaceTheBest) {
  ProtectionFixture f;
  f.Add(kNone, {230, 231}, {38, 39});
  f.Add(kIdle, {12.4, 12.6}, {30, 31});
  f.Add(kThrottle, {12, 12.5}, {10, 10});
  const std::vector<ProtectionTable> tables = f.Compute();
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].rows[1].protection.kind, VerdictKind::kUntested);
  EXPECT_EQ(ProtectionChangeText(tables[0].rows[1], tables[0].rows[1].protection, {}),
            "-94.6 % (not tested: n<4)");
  EXPECT_EQ(tables[0].least_cost, tables[0].best);
}

TEST(ProtectionTest, AProbeThatDidNotFinishIsCountedNotTimed) {
  ProtectionFixture f;
  f.Add(kNone, {300, 300, 300, 300}, {38, 38.5, 39, 39.5}, "dnf");
  f.Add(kThrottle, {12, 12.5, 13, 13.5}, {10, 9.9, 10.1, 10});
  const std::vector<ProtectionTable> tables = f.Compute();
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].rows[0].n, 0u);
  EXPECT_EQ(tables[0].rows[0].dnf, 4u);
  EXPECT_EQ(tables[0].rows[1].protection.kind, VerdictKind::kNotMeasured);
  EXPECT_EQ(ProtectionChangeText(tables[0].rows[1], tables[0].rows[1].protection, {}),
            "not measured");
  EXPECT_EQ(tables[0].best, "DL+thr10M");
}

TEST(ProtectionTest, PercentilesInterpolateBetweenRanks) {
  EXPECT_EQ(PercentileOf({}, 50), 0);
  EXPECT_DOUBLE_EQ(PercentileOf({3, 1, 2}, 50), 2);
  EXPECT_DOUBLE_EQ(PercentileOf({1, 2, 3, 4}, 50), 2.5);
  EXPECT_DOUBLE_EQ(PercentileOf({1, 2, 3, 4}, 100), 4);
  EXPECT_DOUBLE_EQ(PercentileOf({5}, 99), 5);
}

// The three forms: the text layouts end with the tables and then the verdict; Markdown and HTML
// have a Protection section after the verdict.
TEST(ProtectionTest, TextMarkdownAndHtmlMatchTheirGoldenFiles) {
  ProtectionFixture f;
  f.Add(kNone, {230, 231, 232, 233}, {38, 38.5, 39, 39.5});
  f.Add(kIdle, {229, 232, 230, 234}, {38.2, 39, 38.7, 39.1});
  f.Add(kThrottle, {12, 12.5, 13, 13.5}, {10, 9.9, 10.1, 10});
  std::string text, err;
  ASSERT_TRUE(RenderResults(f.doc, "", ReportOptions{}, &text, &err)) << err;
  const size_t protection = text.find("\nProtection, cat-during-write (");
  ASSERT_NE(protection, std::string::npos) << text;
  EXPECT_LT(protection, text.find("\nVerdict (")) << text;
  testing::ExpectMatchesGolden("protection_probes.txt", text);
  NamedResults file;
  file.doc = f.doc;
  const std::vector<NamedResults> files = testing::WithMeasurements({file});
  testing::ExpectMatchesGolden("protection_probes.md", RenderMarkdownReport(files, true));
  const std::string html = RenderHtmlReport(files, GnuplotOptions{"no-such-gnuplot"}, true);
  EXPECT_NE(html.find("<section class=\"protection\">"), std::string::npos);
  testing::ExpectMatchesGolden("protection_probes.html", html);
}

// Issue 57 §3: `run --kernels --controls` gives a table per kernel, its rows found by their
// "kernel" field, not by their labels (which here do not start with the kernel): before, the
// labels were searched for context.kernels' rows, none matched, and one table mixed both
// kernels, each controlled row judged against the first kernel's row without a control.
TEST(ProtectionTest, AKernelsRowsAreFoundByTheirFieldNotTheirLabel) {
  ProtectionFixture f;
  f.doc.context["kernels"] = {{{"label", "6.1"}}, {{"label", "6.12"}}};
  const RowKernel k61{"6.1", "6.1.0-50-cloud-amd64", "debian"};
  const RowKernel k612{"6.12", "6.12.118+deb12-cloud-amd64", "debian"};
  f.Add({"a-DL", "a-dl", "mq-deadline", "none"}, {10, 11, 12, 13}, {5, 5, 5, 5}, "ok", k61);
  f.Add({"a-DL+idle", "a-dl-idle", "mq-deadline", "ionice:load=idle"}, {2, 2.1, 2.2, 2.3},
        {3, 3, 3, 3}, "ok", k61);
  f.Add({"b-DL", "b-dl", "mq-deadline", "none"}, {20, 21, 22, 23}, {6, 6, 6, 6}, "ok", k612);
  f.Add({"b-DL+idle", "b-dl-idle", "mq-deadline", "ionice:load=idle"}, {4, 4.1, 4.2, 4.3},
        {4, 4, 4, 4}, "ok", k612);
  const std::vector<ProtectionTable> tables = f.Compute();
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0].group, "6.1");
  ASSERT_EQ(tables[0].rows.size(), 2u);
  EXPECT_EQ(tables[0].rows[1].name, "a-DL+idle");
  EXPECT_EQ(tables[0].rows[1].baseline, "a-DL");
  EXPECT_EQ(tables[1].group, "6.12");
  ASSERT_EQ(tables[1].rows.size(), 2u);
  EXPECT_EQ(tables[1].rows[1].baseline, "b-DL");
}

}  // namespace
}  // namespace elevbench
