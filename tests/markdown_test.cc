// The Markdown report: one table per suite section with n, mean ± CI half-width, and marks for
// what was not measured (never a 0); golden files for a tiobench run with a failed and an
// incomplete configuration, nickbench, and probes with a DNF.

#include "reporters/markdown.h"

#include <gtest/gtest.h>

#include <sstream>

#include "reporters/html.h"
#include "test_util.h"

namespace elevbench {
namespace {

std::string RenderMarkdown(const std::vector<NamedResults>& files) {
  return RenderMarkdownReport(testing::WithMeasurements(files), true);
}

// The table line of `identifier` under the "### section" heading.
std::string RowOf(const std::string& md, const std::string& section,
                  const std::string& identifier) {
  const size_t start = md.find("### " + section + "\n");
  if (start == std::string::npos) return "";
  std::istringstream in(md.substr(start));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line) && line.rfind("###", 0) != 0) {
    if (line.find("| " + identifier + " |") != std::string::npos) return line;
  }
  return "";
}

// Table cells of a "| a | b |" line.
std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      cell += line.substr(i, 2);
      ++i;
    } else if (line[i] == '|') {
      cells.push_back(cell.substr(1, cell.size() - 2));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return cells;
}

TEST(MarkdownTest, EscapesWhatMarkdownWouldReadAsMarkup) {
  EXPECT_EQ(MarkdownEscape("rate_mb_s"), "rate_mb_s");
  EXPECT_EQ(MarkdownEscape("_x_ a|b <i>*[l](u)*</i> `c` #1 ~s~ &amp; \\"),
            "\\_x\\_ a\\|b \\<i\\>\\*\\[l\\](u)\\*\\</i\\> \\`c\\` \\#1 \\~s\\~ \\&amp; \\\\");
  EXPECT_EQ(MarkdownEscape("two\nlines"), "two lines");
}

TEST(MarkdownTest, FailedAndIncompleteConfigurationsAreMarkedNotZero) {
  const std::string md = RenderMarkdown(
      {testing::LoadNamedResults("fixtures/report_tiobench_mixed.json", "mixed.json")});
  // Three repetitions asked. dl has all three: mean ± half-width.
  const std::vector<std::string> dl = Cells(RowOf(md, "seq_read", "6.18.44-dl"));
  ASSERT_EQ(dl.size(), 11u);  // row, configuration, scheduler, n and seven metrics
  EXPECT_EQ(dl[3], "3");
  EXPECT_NE(dl[4].find(" ± "), std::string::npos) << dl[4];
  // bfq-ll0 has one of three: its single value, and the row says "1 of 3".
  const std::vector<std::string> ll0 = Cells(RowOf(md, "seq_read", "6.18.44-bfq-ll0"));
  ASSERT_EQ(ll0.size(), 11u);
  EXPECT_EQ(ll0[3], "1 of 3");
  EXPECT_EQ(ll0[4].find(" ± "), std::string::npos) << ll0[4];
  // ky failed every cell: it is listed, with "failed" in every metric and no number.
  const std::vector<std::string> ky = Cells(RowOf(md, "seq_read", "6.18.44-ky"));
  ASSERT_EQ(ky.size(), 11u);
  EXPECT_EQ(ky[2], "kyber");
  EXPECT_EQ(ky[3], "0 of 3");
  for (size_t i = 4; i < ky.size(); ++i) EXPECT_EQ(ky[i], "failed") << i;
  EXPECT_NE(md.find("\"k of N\": fewer numbers"), std::string::npos);
  testing::ExpectMatchesGolden("report_tiobench_mixed.md", md);
}

TEST(MarkdownTest, ProbeThatDidNotFinishIsDnfAndOtherMetricsKeepTheirCount) {
  const std::string md =
      RenderMarkdown({testing::LoadNamedResults("fixtures/report_probes_dnf.json", "probes.json")});
  const std::vector<std::string> dl = Cells(RowOf(md, "cat-during-write", "6.18.44-DL"));
  ASSERT_EQ(dl.size(), 7u);  // configuration, scheduler, n, elapsed, user, system, load
  EXPECT_EQ(dl[2], "0 of 1");
  EXPECT_EQ(dl[3], "DNF");
  // The load ran on: its throughput was measured, and the cell says from how many numbers.
  EXPECT_NE(dl[6].find("(n=1)"), std::string::npos) << dl[6];
  EXPECT_NE(md.find("DNF: did not finish"), std::string::npos);
  testing::ExpectMatchesGolden("report_probes_dnf.md", md);
}

TEST(MarkdownTest, SeveralFilesMakeOneDocumentWithAHeaderEach) {
  const std::string md = RenderMarkdown(
      {testing::LoadNamedResults("golden/results_small.json", "results_small.json"),
       testing::LoadNamedResults("golden/nickbench_small.json", "nickbench_small.json")});
  EXPECT_EQ(md.rfind("# elevbench report\n", 0), 0u);
  const size_t tio = md.find("## tiobench: results_small.json");
  const size_t nick = md.find("## nickbench: nickbench_small.json");
  ASSERT_NE(tio, std::string::npos);
  ASSERT_NE(nick, std::string::npos);
  EXPECT_LT(tio, nick);
  EXPECT_NE(md.find("| fio | fio-3.33 |"), std::string::npos);
  // Headline metrics first, in bold: nickbench's IO rate before its fairness index.
  const std::string bench2 = md.substr(md.find("### bench2"));
  EXPECT_LT(bench2.find("**IO Rate** (io_rate_mb_s,"), bench2.find("cpu_seconds"));
  testing::ExpectMatchesGolden("report_small.md", md);
}

TEST(MarkdownTest, UntrustedTextCannotBreakTheTable) {
  NamedResults file = testing::LoadNamedResults("golden/results_small.json", "a|b.json");
  for (nlohmann::json& r : file.doc.records) {
    if (r["identifier"] == "6.18.44-dl") r["identifier"] = "x|<b>y</b>";
  }
  const std::string md = RenderMarkdown({file});
  EXPECT_EQ(md.find("<b>"), std::string::npos);
  const std::vector<std::string> row = Cells(RowOf(md, "seq_read", "x\\|\\<b\\>y\\</b\\>"));
  EXPECT_EQ(row.size(), 11u);
}

TEST(MarkdownTest, UnknownSuiteIsAnErrorNamingTheFile) {
  NamedResults file;
  file.name = "odd.json";
  file.doc.suite = "no-such-suite";
  std::string text;
  std::string err;
  EXPECT_FALSE(RenderReport({file}, "md", ReportOptions{}, &text, &err));
  EXPECT_EQ(err.rfind("odd.json: ", 0), 0u) << err;
}

// A real morton run (nine tests, two repetitions) and a real visave run on a plain directory
// (tests/fixtures/report_morton_small.json, report_visave_small.json): one table per test, the
// headline first.
// A buffered load's rate is marked as the page cache's in the tables, as the text layouts say
// "into the page cache" (issue 45: visave's 5240 MB/s read as a plain load_mb_s).
TEST(MarkdownTest, PageCacheRatesAreMarked) {
  const std::vector<NamedResults> files = testing::WithMeasurements(
      {testing::LoadNamedResults("fixtures/report_visave_small.json", "visave.json")});
  const std::string md = RenderMarkdownReport(files, true);
  const std::vector<std::string> row = Cells(RowOf(md, "vi-save", "6.18.44-fc-v782"));
  ASSERT_FALSE(row.empty()) << md;
  EXPECT_NE(row.back().find(" (page cache)"), std::string::npos) << row.back();
  EXPECT_EQ(row[row.size() - 2].find("page cache"), std::string::npos);
  EXPECT_NE(md.find("- (page cache) after a rate: a buffered load's"), std::string::npos) << md;
  const std::string html = RenderHtmlReport(files, GnuplotOptions{"no-such-gnuplot"}, true);
  EXPECT_NE(html.find(" (page cache)</td>"), std::string::npos);
}

TEST(MarkdownTest, MortonAndVisaveRuns) {
  const std::string md = RenderMarkdown(
      {testing::LoadNamedResults("fixtures/report_morton_small.json", "morton.json"),
       testing::LoadNamedResults("fixtures/report_visave_small.json", "visave.json")});
  for (int t = 1; t <= 9; ++t) {
    EXPECT_NE(md.find("### test" + std::to_string(t) + "\n"), std::string::npos) << t;
  }
  EXPECT_NE(md.find("### vi-save\n"), std::string::npos);
  const std::vector<std::string> row = Cells(RowOf(md, "test1", "6.18.44-fc-v782"));
  ASSERT_GE(row.size(), 3u);
  EXPECT_EQ(row[1], "2");  // n: both repetitions
  // Two widely spread repetitions: test1's slowest is 0.1776 ± 0.4325 s, which would reach
  // below 0, so it is given by its cut interval's ends; the aggregate rate's harmonic interval
  // is unbounded, which the cell says plainly (issue #29).
  ASSERT_GE(row.size(), 6u);
  EXPECT_EQ(row[2], "0.1776 (0 – 0.6101)");
  EXPECT_EQ(row[5], "281.5 (n=2: no interval)");
  EXPECT_EQ(md.find("± inf"), std::string::npos);
  testing::ExpectMatchesGolden("report_morton_visave.md", md);
}

}  // namespace
}  // namespace elevbench
