// The HTML report: one self-contained page (no script, no URL), text escaped, plots drawn by
// gnuplot as inline SVG, and without gnuplot the tables and a note. The report of a
// five-configuration tiobench + nickbench run (fixtures made from real runs by
// tests/fixtures/make_report_fixtures.py) is loaded in headless Chromium: no console message,
// and every plot is in the DOM as an SVG with drawn paths.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "harness/process/subprocess.h"
#include "reporters/gnuplot.h"
#include "reporters/html.h"
#include "reporters/plots.h"
#include "test_util.h"

namespace elevbench {
namespace {

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) {
    ++n;
  }
  return n;
}

// The <figure class="plot"> elements of a page, each as its text.
std::vector<std::string> Figures(const std::string& html) {
  std::vector<std::string> figures;
  size_t pos = 0;
  while ((pos = html.find("<figure class=\"plot\"", pos)) != std::string::npos) {
    const size_t end = html.find("</figure>", pos);
    if (end == std::string::npos) break;
    figures.push_back(html.substr(pos, end - pos));
    pos = end;
  }
  return figures;
}

TEST(HtmlReportTest, GnuplotStringsCannotEscapeTheirQuotesOrCarryMarkup) {
  EXPECT_EQ(GnuplotString("6.18.44-bfq-ll0"), "'6.18.44-bfq-ll0'");
  EXPECT_EQ(GnuplotString("it's"), "'it''s'");
  EXPECT_EQ(GnuplotString("<b>&\"\\\n"),
            "'?b?????"
            "'");  // split: no trigraph
  EXPECT_EQ(GnuplotDataString("a \"b\" 'c'"), "\"a ?b? ?c?\"");
  EXPECT_EQ(GnuplotNumber(0.0 / 0.0), "NaN");
}

TEST(HtmlReportTest, InlineSvgDropsTheProlog_PrefixesIdsAndNamesNoUrl) {
  const std::string svg =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg \n viewBox=\"0 0 10 10\"\n "
      "xmlns=\"http://www.w3.org/2000/svg\"\n xmlns:xlink=\"http://www.w3.org/1999/xlink\"\n>\n"
      "<title>Gnuplot</title><g id=\"gnuplot_canvas\"><defs><path id='gpPt0' d='M0,0'/></defs>"
      "<use xlink:href='#gpPt0'/><g clip-path=\"url(#gpclip1)\"/></g></svg>\n";
  const std::string out = InlineSvg(svg, "p3-", "a <title>");
  EXPECT_EQ(out.rfind("<svg", 0), 0u);
  EXPECT_EQ(out.find("http"), std::string::npos);
  EXPECT_NE(out.find("viewBox=\"0 0 10 10\""), std::string::npos);
  EXPECT_NE(out.find("id=\"p3-gnuplot_canvas\""), std::string::npos);
  EXPECT_NE(out.find("id='p3-gpPt0'"), std::string::npos);
  EXPECT_NE(out.find("href='#p3-gpPt0'"), std::string::npos);
  EXPECT_NE(out.find("url(#p3-gpclip1)"), std::string::npos);
  EXPECT_NE(out.find("<title>a &lt;title&gt;</title>"), std::string::npos);
  EXPECT_EQ(out.substr(out.size() - 6), "</svg>");
}

TEST(HtmlReportTest, WithoutGnuplotTheTablesAndOneNotePerPlot) {
  GnuplotOptions none;
  none.program = "elevbench-test-no-such-gnuplot";
  const std::string html = RenderHtmlReport(
      testing::WithMeasurements({testing::LoadNamedResults("fixtures/report_probes_dnf.json")}),
      none, true);
  EXPECT_NE(html.find("gnuplot-nox"), std::string::npos);
  EXPECT_EQ(html.find("<svg"), std::string::npos);
  // Every plot keeps its place, with one note saying why it is not drawn (issue #18).
  const size_t figures = Count(html, "<figure");
  EXPECT_GT(figures, 0u);
  EXPECT_EQ(Count(html, "(gnuplot) is not in PATH</p>") + Count(html, "Nothing to plot"), figures);
  EXPECT_GT(Count(html, "(gnuplot) is not in PATH</p>"), 0u);
  EXPECT_EQ(Count(html, "<table class=\"metrics\">"), 4u);  // one per probe
  EXPECT_NE(html.find("<td class=\"num missing\">DNF</td>"), std::string::npos);
}

TEST(HtmlReportTest, UntrustedTextIsEscaped) {
  GnuplotOptions none;
  none.program = "elevbench-test-no-such-gnuplot";
  NamedResults file = testing::LoadNamedResults("golden/results_small.json");
  file.name = "<i>name</i>.json";
  for (nlohmann::json& r : file.doc.records) r["identifier"] = "<script>alert(1)</script>";
  file.doc.context["hostname"] = "host\"><img src=x>";
  const std::string html = RenderHtmlReport(testing::WithMeasurements({file}), none, true);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<i>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

// Plots expected of the five-configuration fixtures, by kind.
TEST(HtmlReportTest, PlotsOfTheFiveConfigurationRun) {
  const std::vector<Plot> tio =
      PlotsOf(testing::Measured(testing::LoadNamedResults("fixtures/report_tiobench_5cfg.json")));
  std::map<std::string, size_t> kinds;
  for (const Plot& p : tio) ++kinds[p.kind];
  EXPECT_EQ(kinds["throughput"], 4u);   // one per phase: 2 thread counts × 5 configurations
  EXPECT_EQ(kinds["latency-cdf"], 8u);  // phase × thread count
  EXPECT_EQ(kinds["stream-throughput"], 0u);
  const std::vector<Plot> nick =
      PlotsOf(testing::Measured(testing::LoadNamedResults("fixtures/report_nickbench_5cfg.json")));
  kinds.clear();
  for (const Plot& p : nick) ++kinds[p.kind];
  EXPECT_EQ(kinds["throughput"], 1u);         // the benches side by side
  EXPECT_EQ(kinds["latency-cdf"], 6u);        // bench × stream direction
  EXPECT_EQ(kinds["stream-throughput"], 4u);  // benches 2, 3, 4 and 6 have several streams
  for (const Plot& p : nick) {
    if (p.kind != "stream-throughput") continue;
    EXPECT_EQ(Count(p.script, "\nplot "), 5u) << "one panel per configuration: " << p.title;
  }
  const std::vector<Plot> probes =
      PlotsOf(testing::Measured(testing::LoadNamedResults("fixtures/report_probes_dnf.json")));
  ASSERT_FALSE(probes.empty());
  EXPECT_EQ(probes[0].kind, "times");
  EXPECT_NE(probes[0].script.find("$dnf"), std::string::npos);
}

TEST(HtmlReportRootTest, FiveConfigurationReportRendersInHeadlessChromium) {
  if (!GnuplotAvailable(GnuplotOptions{})) {
    GTEST_SKIP() << "gnuplot is not installed (Debian gnuplot-nox; scripts/install-deps)";
  }
  if (!ProgramInPath("chromium")) {
    GTEST_SKIP() << "chromium is not installed (Debian chromium; scripts/install-deps)";
  }
  const std::vector<NamedResults> files = {
      testing::LoadNamedResults("fixtures/report_tiobench_5cfg.json"),
      testing::LoadNamedResults("fixtures/report_nickbench_5cfg.json")};
  const std::string html =
      RenderHtmlReport(testing::WithMeasurements(files), GnuplotOptions{}, true);
  // Self-contained: no script, no reference to anything outside the page.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http:"), std::string::npos);
  EXPECT_EQ(html.find("https:"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  const size_t expected_plots = 12 + 11;  // tiobench 4 + 8, nickbench 1 + 6 + 4
  ASSERT_EQ(Figures(html).size(), expected_plots);
  EXPECT_EQ(html.find("could not be drawn"), std::string::npos);

  testing::ScopedTempDir temp;
  const std::string page = temp.path() + "/report.html";
  const std::string dom = temp.path() + "/dom.html";
  {
    std::ofstream out(page);
    out << html;
  }
  ProcessOptions po;
  po.stdout_path = dom;
  po.timeout_seconds = 180;
  ProcessResult run;
  std::string err;
  ASSERT_TRUE(RunProcess({"chromium", "--headless", "--no-sandbox", "--disable-gpu",
                          "--user-data-dir=" + temp.path() + "/profile", "--enable-logging=stderr",
                          "--v=0", "--dump-dom", "file://" + page},
                         po, &run, &err))
      << err;
  ASSERT_FALSE(run.timed_out);
  ASSERT_EQ(run.exit_code, 0) << LastLine(run.error_output);
  // Console messages of the page (errors, failed loads) are logged as "...:CONSOLE(...)".
  std::istringstream log(run.error_output);
  for (std::string line; std::getline(log, line);) {
    EXPECT_EQ(line.find(":CONSOLE"), std::string::npos) << line;
  }
  // Every plot is in the parsed DOM as an SVG with drawn paths and its caption.
  const std::string parsed = testing::ReadTestFile(dom);
  const std::vector<std::string> figures = Figures(parsed);
  ASSERT_EQ(figures.size(), expected_plots);
  const std::regex drawn_path("<path[^>]* d=\"M[0-9.]+,[0-9.]+ L");
  for (size_t i = 0; i < figures.size(); ++i) {
    SCOPED_TRACE("figure " + std::to_string(i));
    EXPECT_EQ(Count(figures[i], "<svg"), 1u);
    EXPECT_NE(figures[i].find("viewBox=\""), std::string::npos);
    EXPECT_TRUE(std::regex_search(figures[i], drawn_path));
    EXPECT_NE(figures[i].find("<figcaption>"), std::string::npos);
  }
  // And the tables: one per tiobench phase and nickbench bench.
  EXPECT_EQ(Count(parsed, "<table class=\"metrics\">"), 4u + 5u);
}

TEST(HtmlReportTest, MortonAndVisaveRunsHaveTheirTables) {
  GnuplotOptions none;
  none.program = "elevbench-test-no-such-gnuplot";
  const std::string html = RenderHtmlReport(
      testing::WithMeasurements({testing::LoadNamedResults("fixtures/report_morton_small.json"),
                                 testing::LoadNamedResults("fixtures/report_visave_small.json")}),
      none, true);
  EXPECT_EQ(Count(html, "<table class=\"metrics\">"), 10u);  // nine tests and the saves
  EXPECT_NE(html.find("slowest_seconds"), std::string::npos);
  EXPECT_NE(html.find("mean_save_seconds"), std::string::npos);
}

}  // namespace
}  // namespace elevbench
