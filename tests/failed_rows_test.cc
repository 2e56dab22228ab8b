// A configuration whose every cell failed is a row of every table, and the cells' reasons are
// printed beside the tables, in every suite's text formats and in md, csv, csv-summary and html
// (issue 45, item 3).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/suites.h"
#include "reporters/render.h"
#include "test_util.h"

namespace elevbench {
namespace {

constexpr char kReason[] = "fio failed (exit 1): planted failure";

std::string Render(const NamedResults& file, const std::string& format) {
  std::string text;
  std::string err;
  EXPECT_TRUE(RenderReport({file}, format, ReportOptions{}, &text, &err)) << err;
  return text;
}

// `relative` with a configuration "6.18.44-ky" (label KY) whose cells, one for each of the first
// configuration's, all failed.
NamedResults WithFailedConfiguration(const std::string& relative) {
  NamedResults file = testing::LoadNamedResults(relative, "f.json");
  const std::string first = file.doc.cells.front().identifier;
  std::vector<CellRecord> failed;
  for (const CellRecord& cell : file.doc.cells) {
    if (cell.identifier != first) continue;
    CellRecord c = cell;
    c.identifier = "6.18.44-ky";
    c.label = "";
    c.scheduler = "kyber";
    c.status = "failed";
    c.error = kReason;
    failed.push_back(c);
  }
  file.doc.cells.insert(file.doc.cells.end(), failed.begin(), failed.end());
  file.doc.identifiers.push_back("6.18.44-ky");
  if (!file.doc.labels.empty()) file.doc.labels.push_back("KY");
  return file;
}

TEST(FailedRowsTest, TiobenchTextFormatsKeepTheFailedConfigurationWithItsReason) {
  const NamedResults file = testing::LoadNamedResults("fixtures/report_tiobench_mixed.json");
  const std::string nick = Render(file, "nick");
  size_t rows = 0;
  for (size_t at = nick.find("\n6.18.44-ky        1  failed\n"); at != std::string::npos;
       at = nick.find("\n6.18.44-ky        1  failed\n", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, 4u) << nick;  // one in each of the four sections
  EXPECT_NE(
      nick.find("\nFailed cells:\n6.18.44-bfq-ll0: 2 of 3 cells failed (" + std::string(kReason) +
                ")\n6.18.44-ky: 3 of 3 cells failed (" + kReason + ")\n"),
      std::string::npos)
      << nick;
  const std::string tiobench = Render(file, "tiobench");
  EXPECT_NE(tiobench.find("\n6.18.44-ky                     64   4096    1  failed\n"),
            std::string::npos)
      << tiobench;
  EXPECT_NE(tiobench.find("6.18.44-ky: 3 of 3 cells failed (" + std::string(kReason)),
            std::string::npos);
}

TEST(FailedRowsTest, EverySuitesTextFormatHasTheFailedRow) {
  struct Case {
    const char* fixture;
    const char* row;  // the failed configuration's line
  };
  for (const Case& c : {Case{"fixtures/report_nickbench_5cfg.json", "\nKY - failed\n"},
                        Case{"fixtures/report_probes_dnf.json", "\nKY - failed\n"},
                        Case{"fixtures/report_morton_small.json", "\nKY: failed\n"},
                        Case{"fixtures/report_visave_small.json", "\nKY failed\n"}}) {
    const std::string text = Render(WithFailedConfiguration(c.fixture), "");
    EXPECT_NE(text.find(c.row), std::string::npos) << c.fixture << "\n" << text;
    EXPECT_NE(text.find("\nFailed cells:\nKY (6.18.44-ky): "), std::string::npos) << c.fixture;
    EXPECT_NE(text.find(kReason), std::string::npos) << c.fixture;
  }
}

TEST(FailedRowsTest, GenericFormatsGiveTheReason) {
  const NamedResults file = testing::LoadNamedResults("fixtures/report_tiobench_mixed.json");
  for (const char* format : {"md", "html", "csv", "csv-summary"}) {
    const std::string text = Render(file, format);
    EXPECT_NE(text.find(kReason), std::string::npos) << format;
  }
  // The long CSV has the failed configuration's rows, status failed, with the reason.
  const std::string csv = Render(file, "csv");
  EXPECT_NE(csv.find(",6.18.44-ky,,kyber,0,rate_mb_s,MiB/s,higher,,failed,fio failed (exit 1): "
                     "planted failure,no\n"),
            std::string::npos)
      << csv;
}

// A DNF cell has its reason, the words the nick layout prints, in md, html, csv and csv-summary
// too (issue 45: they showed only "DNF", and the reason columns were empty).
TEST(FailedRowsTest, GenericFormatsGiveTheDnfReason) {
  const NamedResults file = testing::LoadNamedResults("fixtures/report_probes_dnf.json");
  const std::string reason =
      "DNF after 10 minutes (read 24.0 of 48.0 MB of 10^6 bytes, as --tree-size takes them, 1876 "
      "of 3752 files)";
  EXPECT_NE(Render(file, "nick").find("* DL: " + reason + "\n"), std::string::npos);
  const std::string md = Render(file, "md");
  EXPECT_NE(md.find("Did not finish:\n\n- DL (6.18.44-DL), cat-during-write: " + reason + "\n"),
            std::string::npos)
      << md;
  EXPECT_NE(Render(file, "html").find("<li>DL (6.18.44-DL), cat-during-write: " + reason),
            std::string::npos);
  const std::string csv = Render(file, "csv");
  EXPECT_NE(csv.find(",elapsed_seconds,s,lower,,dnf,\"" + reason + "\""), std::string::npos) << csv;
  const std::string summary = Render(file, "csv-summary");
  EXPECT_NE(summary.find(",\"" + reason + "\""), std::string::npos) << summary;
}

}  // namespace
}  // namespace elevbench
