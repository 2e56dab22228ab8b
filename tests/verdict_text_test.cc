// The verdict block in every output kind, from the traced nickbench fixture (Bench 3, DL and AS,
// five repetitions, tests/fixtures/make_report_fixtures.py --traced): it ends the suite's text
// format after the unchanged tables, opens the Markdown and HTML reports, and `--no-verdict`
// leaves it out. Golden files for text, md, csv and html.

#include "reporters/verdict_text.h"

#include <gtest/gtest.h>

#include "app/suites.h"
#include "reporters/html.h"
#include "reporters/markdown.h"
#include "test_util.h"

namespace elevbench {
namespace {

NamedResults TracedFixture() {
  return testing::Measured(
      testing::LoadNamedResults("fixtures/report_nickbench_traced.json", "nb-traced.json"));
}

ReportOptions WithoutVerdict() {
  ReportOptions options;
  options.verdict = false;
  return options;
}

TEST(VerdictTextTest, TheSuitesTextEndsWithTheBlockAfterItsUnchangedTables) {
  const NamedResults file = TracedFixture();
  std::string text, tables, own, err;
  ASSERT_TRUE(RenderResults(file.doc, "", ReportOptions{}, &text, &err)) << err;
  ASSERT_TRUE(RenderResults(file.doc, "nick", WithoutVerdict(), &tables, &err)) << err;
  ASSERT_TRUE(FindSuite("nickbench")->render(file.doc, "nick", &own, &err)) << err;
  EXPECT_EQ(tables, own);
  ASSERT_EQ(text.rfind(tables, 0), 0u) << text;
  const std::string block = text.substr(tables.size());
  EXPECT_EQ(block.rfind("\nVerdict (headline rows; U test two-sided", 0), 0u) << block;
  EXPECT_NE(block.find("\nbench3 IO Rate: AS best, 1.86× DL (p=0.008, n=5) — read dispatch "
                       "run 47 vs 1.1; seeks 2.1 % vs 89 %\n"),
            std::string::npos)
      << block;
  testing::ExpectMatchesGolden("report_nickbench_traced.txt", text);
}

TEST(VerdictTextTest, MarkdownAndHtmlOpenWithTheBlock) {
  const std::vector<NamedResults> files = {TracedFixture()};
  const std::string md = RenderMarkdownReport(files, true);
  EXPECT_EQ(md.rfind("# elevbench report\n\n## Verdict\n\nVerdict (headline rows;", 0), 0u) << md;
  // Named as md's table names them, by identifier (issue 45: the same names as the table).
  EXPECT_NE(md.find("- bench3 IO Rate: 6.18.44-as best, 1.86× 6.18.44-dl"), std::string::npos)
      << md;
  EXPECT_LT(md.find("## Verdict"), md.find("## nickbench: nb-traced.json"));
  testing::ExpectMatchesGolden("report_nickbench_traced.md", md);
  const std::string without = RenderMarkdownReport(files, false);
  EXPECT_EQ(without.find("Verdict"), std::string::npos);
  EXPECT_EQ(md.substr(md.find("## nickbench: nb-traced.json")),
            without.substr(without.find("## nickbench: nb-traced.json")));

  GnuplotOptions none;
  none.program = "elevbench-test-no-such-gnuplot";
  std::string html = RenderHtmlReport(files, none, true);
  const size_t section = html.find("<section class=\"verdict\">\n<h2>Verdict</h2>\n<p>Verdict");
  ASSERT_NE(section, std::string::npos) << html;
  EXPECT_LT(section, html.find("<section class=\"results\">"));
  EXPECT_NE(
      html.find("<li>bench3 IO Rate: 6.18.44-as best, 1.86× 6.18.44-dl (p=0.008, n=5) — read"),
      std::string::npos);
  testing::ExpectMatchesGolden("report_nickbench_traced.html", html);
  html = RenderHtmlReport(files, none, false);
  EXPECT_EQ(html.find("class=\"verdict\""), std::string::npos);
}

TEST(VerdictTextTest, CsvHasTheTraceMetricsAndNoBlock) {
  std::string csv, err;
  ASSERT_TRUE(RenderReport({TracedFixture()}, "csv", ReportOptions{}, &csv, &err)) << err;
  EXPECT_EQ(csv.find("Verdict"), std::string::npos);
  EXPECT_NE(csv.find("nb-traced.json,nickbench,request trace,bench=3,6.18.44-as,AS,"
                     "bfq:low_latency=0,0,read_mean_dispatch_run,requests,neither,"),
            std::string::npos);
  testing::ExpectMatchesGolden("report_nickbench_traced.csv", csv);
}

TEST(VerdictTextTest, NoVerdictReportsAreTheTablesAlone) {
  std::string with, without, err;
  ASSERT_TRUE(RenderReport({TracedFixture()}, "nick", WithoutVerdict(), &without, &err)) << err;
  ASSERT_TRUE(RenderReport({TracedFixture()}, "nick", ReportOptions{}, &with, &err)) << err;
  EXPECT_EQ(without.find("Verdict"), std::string::npos);
  EXPECT_EQ(with.rfind(without, 0), 0u);
  ASSERT_TRUE(RenderReport({TracedFixture()}, "json", ReportOptions{}, &with, &err)) << err;
  EXPECT_EQ(with.find("Verdict ("), std::string::npos) << "json is the document alone";
}

}  // namespace
}  // namespace elevbench
