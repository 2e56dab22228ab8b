// Golden tests of the tiobench tables: every published row of Nick Piggin's AS/DL/CFQ post
// (seed 000, lkml 27 Mar 2003; its tiobench tables are in
// tests/fixtures/seed_000_tiobench_cfq_post.txt) is rendered from its numbers and must come out as
// published, in both layouts.

#include "reporters/tiobench_text.h"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>

#include "test_util.h"

namespace elevbench {
namespace {

using testing::ExpectMatchesGolden;
using testing::ReadTestFile;
using testing::TestDataPath;

struct SeedRow {
  TioPhase phase;
  std::string identifier;
  uint32_t threads;
  TioRowMetrics metrics;
  std::string collapsed;  // the published line (the archive collapsed runs of spaces)
};

std::string CollapseWhitespace(const std::string& s) {
  std::istringstream in(s);
  std::string word, out;
  while (in >> word) out += (out.empty() ? "" : " ") + word;
  return out;
}

// Parses the seed rows. tiotest's CPU% had more digits than Perl printed (it shows the first five
// characters of the number): any value in [x, x+0.001) prints as x, so 4e-5 is added to stand in
// for the lost digits ("2.500%" was a number like 2.50004, not 2.5, which Perl prints as "2.5").
std::vector<SeedRow> LoadSeedRows() {
  std::istringstream in(ReadTestFile(TestDataPath("fixtures/seed_000_tiobench_cfq_post.txt")));
  std::vector<SeedRow> rows;
  std::string line;
  TioPhase phase = TioPhase::kSeqRead;
  while (std::getline(in, line)) {
    bool is_title = false;
    for (TioPhase p : kTioReportOrder) {
      if (line == TioPhaseTitle(p)) {
        phase = p;
        is_title = true;
      }
    }
    if (is_title || line.rfind("2.5.", 0) != 0) continue;
    std::istringstream f(line);
    SeedRow r;
    std::string cpu;
    r.phase = phase;
    f >> r.identifier >> r.threads >> r.metrics.rate_mb_s >> cpu >> r.metrics.avg_latency_ms >>
        r.metrics.max_latency_ms >> r.metrics.lat_pct_over_2s >> r.metrics.lat_pct_over_10s >>
        r.metrics.cpu_eff;
    r.metrics.cpu_pct = std::stod(cpu.substr(0, cpu.size() - 1)) + 4e-5;
    r.collapsed = CollapseWhitespace(line);
    rows.push_back(r);
  }
  return rows;
}

// The seed's rows as a results document of the tiobench suite, rendered through the suite's
// renderer as `report` does.
ResultsDocument TiobenchSeedDocument() {
  ResultsDocument doc;
  doc.suite = "tiobench";
  TiobenchParams params;
  params.size_mb = 1024;
  params.block_bytes = 4096;
  doc.parameters = TiobenchParamsToJson(params);
  doc.identifiers = {"2.5.65-mm4-dl", "2.5.65-mm4-as", "2.5.65-mm4-cf"};
  for (const SeedRow& r : LoadSeedRows()) {
    TioRecord rec;
    rec.identifier = r.identifier;
    rec.measurement.phase = r.phase;
    rec.measurement.threads = r.threads;
    rec.metrics = r.metrics;
    doc.records.push_back(TioRecordToJson(rec));
  }
  return doc;
}

std::string RenderSeed(const std::string& format) {
  std::string text, err;
  EXPECT_TRUE(RenderTiobenchReport(TiobenchSeedDocument(), format, &text, &err)) << err;
  return text;
}

TEST(TiobenchTextTest, PerlCpuTextTruncatesToFiveCharacters) {
  EXPECT_EQ(PerlCpuText(11.0912), "11.09");
  EXPECT_EQ(PerlCpuText(2.50004), "2.500");
  EXPECT_EQ(PerlCpuText(0.48812), "0.488");
  EXPECT_EQ(PerlCpuText(2.5), "2.5");  // Perl prints 2.5 as "2.5": no padding zeros
  EXPECT_EQ(PerlCpuText(100), "100");
  EXPECT_EQ(PerlCpuText(123456.7), "12345");
}

// Where Perl printed '#' characters, the number is printed: fewer decimals, then wider.
TEST(TiobenchTextTest, NumericFieldOverflowPrintsTheNumber) {
  EXPECT_EQ(PerlNumericField(48.214, 6, 2), " 48.21");
  EXPECT_EQ(PerlNumericField(1234.5, 6, 2), "1234.5");
  EXPECT_EQ(PerlNumericField(12805.7, 6, 2), " 12806");
  EXPECT_EQ(PerlNumericField(1234567.8, 6, 2), "1234568");
  EXPECT_EQ(PerlNumericField(100, 5, 2), "100.0");
  EXPECT_EQ(PerlNumericField(std::numeric_limits<double>::infinity(), 6, 2), "   inf");
}

TEST(TiobenchTextTest, VerbatimSeedRowsAreByteIdentical) {
  // The three rows quoted with their original whitespace in docs/legacy-suites.md §1.5.
  TioRowMetrics a{48.21, 11.09004, 0.080, 36.49, 0.00, 0.00, 435};
  EXPECT_EQ(RenderNickRow("2.5.65-mm4-dl", 1, a),
            "2.5.65-mm4-dl     1   48.21 11.09%     0.080       36.49   0.00  0.00   435");
  TioRowMetrics b{10.32, 2.48904, 58.877, 69755.23, 0.09, 0.07, 414};
  EXPECT_EQ(RenderNickRow("2.5.65-mm4-dl", 256, b),
            "2.5.65-mm4-dl   256   10.32 2.489%    58.877    69755.23   0.09  0.07   414");
  TioRowMetrics c{0.85, 0.85204, 659.708, 14613.03, 13.15, 1.04, 99};
  EXPECT_EQ(RenderNickRow("2.5.65-mm4-as", 256, c),
            "2.5.65-mm4-as   256    0.85 0.852%   659.708    14613.03  13.15  1.04    99");
}

TEST(TiobenchTextTest, EveryPublishedSeedRowIsReproduced) {
  const std::vector<SeedRow> rows = LoadSeedRows();
  ASSERT_EQ(rows.size(), 40u);  // 4 sections × (4 DL + 4 AS + 2 CFQ rows)
  for (const SeedRow& r : rows) {
    const std::string rendered = RenderNickRow(r.identifier, r.threads, r.metrics);
    EXPECT_EQ(rendered.size(), 75u) << rendered;
    EXPECT_EQ(CollapseWhitespace(rendered), r.collapsed);
  }
}

TEST(TiobenchTextTest, NickLayoutTablesMatchGolden) {
  testing::ExpectPrintedMatchesGolden("tiobench_nick_seed.txt", TiobenchSeedDocument(), "nick",
                                      RenderSeed("nick"));
}

TEST(TiobenchTextTest, TiobenchPlLayoutTablesMatchGolden) {
  testing::ExpectPrintedMatchesGolden("tiobench_pl_seed.txt", TiobenchSeedDocument(), "tiobench",
                                      RenderSeed("tiobench"));
}

TEST(TiobenchTextTest, TiobenchPlRowFollowsThePicture) {
  // @<<<<<<<<<<<<<<<<<<<<<<<<<<< @||||| @|||| @>>  @##.## @>>>>% @####.### @#######.##
  //  @#.##### @#.##### @####
  TioRowMetrics m{48.21, 11.09004, 0.080, 36.49, 0.0, 0.0, 435};
  EXPECT_EQ(RenderTiobenchRow("2.5.65-mm4-dl", 1024, 4096, 1, m),
            "2.5.65-mm4-dl                 1024  4096    1   48.21 11.09%     0.080       36.49"
            "   0.00000  0.00000   435");
}

// CPU Eff is Rate ÷ CPU%: a row without CPU time has none, "-", not an efficiency of 0
// (issue 45: post-2003's "39.06     0% ... 0").
TEST(TiobenchTextTest, CpuEffIsADashWithoutCpuTime) {
  TioRowMetrics m{39.06, 0, 0.256, 1.34, 0.0, 0.0, 0};
  EXPECT_EQ(RenderNickRow("2.5.65-mm4-dl", 4, m),
            "2.5.65-mm4-dl     4   39.06     0%     0.256        1.34   0.00  0.00     -");
}

TEST(TiobenchTextTest, HeaderOnlyUnderTheFirstSection) {
  const std::string text = RenderSeed("nick");
  size_t first = text.find("Identifier");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(text.find("Identifier", first + 1), std::string::npos);
}

// The nick layout's identifier column widens to the longest identifier: two kernels
// "6.18.44-fc-v1272" and "6.18.44-fc-v1273" were both cut to "6.18.44-fc-v127" (issue 45).
TEST(TiobenchTextTest, NickIdentifierColumnFitsTheLongestIdentifier) {
  TioTableRow a;
  a.identifier = "6.18.44-fc-v1272";
  a.threads = 1;
  a.repetitions = 1;
  a.mean = {48.21, 11.09004, 0.080, 36.49, 0.0, 0.0, 435};
  TioTableRow b = a;
  b.identifier = "6.18.44-fc-v1273";
  TiobenchParams params;
  const std::string text =
      RenderTiobenchTables(nlohmann::json::object(), params, {a, b}, TioLayout::kNick);
  EXPECT_NE(text.find("\n6.18.44-fc-v1272   1   48.21 11.09%"), std::string::npos) << text;
  EXPECT_NE(text.find("\n6.18.44-fc-v1273   1   48.21 11.09%"), std::string::npos) << text;
  EXPECT_NE(text.find("\n                 Num                   Avg      Maximum     Lat%"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nIdentifier       Thr   Rate  (CPU%)"), std::string::npos) << text;
  EXPECT_NE(text.find("\n---------------- ---  ------ ------"), std::string::npos) << text;
}

}  // namespace
}  // namespace elevbench
