// The frame every suite's text renderer shares (reporters/suite_report.h): the format check's
// words, the labels taken from the document, and the order of reading, aggregating, rendering.

#include "reporters/suite_report.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace elevbench {
namespace {

struct SuiteReportTestRow {
  std::string identifier;
  std::string label;
};

bool SuiteReportTestRead(const ResultsDocument& doc, std::vector<std::string>* records,
                         std::string* err) {
  if (doc.records.empty()) {
    *err = "no records";
    return false;
  }
  for (const nlohmann::json& r : doc.records)
    records->push_back(r.at("identifier").get<std::string>());
  return true;
}

std::vector<SuiteReportTestRow> SuiteReportTestAggregate(const std::vector<std::string>& records,
                                                         const std::vector<std::string>& order) {
  std::vector<SuiteReportTestRow> rows;
  for (const std::string& id : order) {
    if (std::find(records.begin(), records.end(), id) != records.end()) rows.push_back({id, ""});
  }
  return rows;
}

TEST(SuiteReportTest, AFormatTheSuiteDoesNotPrintIsNamedWithTheOnesItDoes) {
  std::string err;
  EXPECT_TRUE(CheckSuiteFormat({"tiobench", {"nick", "tiobench"}}, "tiobench", &err));
  EXPECT_EQ(err, "");
  EXPECT_FALSE(CheckSuiteFormat({"tiobench", {"nick", "tiobench"}}, "akpm", &err));
  EXPECT_EQ(err, "tiobench results print as nick or tiobench, not 'akpm'");
  EXPECT_FALSE(CheckSuiteFormat({"fio", {"table"}}, "nick", &err));
  EXPECT_EQ(err, "fio results print as table, not 'nick'");
}

TEST(SuiteReportTest, RowsWithoutALabelTakeTheDocumentsLabelOfTheirIdentifier) {
  ResultsDocument doc;
  doc.identifiers = {"k-dl", "k-cfq", "k-as"};
  doc.labels = {"DL", "CF"};  // k-as has none
  for (const char* id : {"k-as", "k-cfq", "k-dl"}) doc.records.push_back({{"identifier", id}});
  std::string text, err;
  ASSERT_TRUE(RenderSuiteReport(
      doc, "nick", {"test", {"nick"}}, SuiteReportTestRead, SuiteReportTestAggregate,
      [](const std::vector<SuiteReportTestRow>& rows) {
        std::string out;
        for (const SuiteReportTestRow& r : rows) out += r.identifier + "=" + r.label + ";";
        return out;
      },
      &text, &err))
      << err;
  EXPECT_EQ(text, "k-dl=DL;k-cfq=CF;k-as=;");
  std::string label = "own";
  LabelFromDocument(doc, "k-dl", &label);
  EXPECT_EQ(label, "own");  // a row's own label stays
}

TEST(SuiteReportTest, NeitherAWrongFormatNorUnreadableRecordsRender) {
  ResultsDocument doc;
  std::string text = "untouched", err;
  auto render = [](const std::vector<SuiteReportTestRow>&) { return std::string("rendered"); };
  EXPECT_FALSE(RenderSuiteReport(doc, "lkml", {"test", {"nick"}}, SuiteReportTestRead,
                                 SuiteReportTestAggregate, render, &text, &err));
  EXPECT_EQ(err, "test results print as nick, not 'lkml'");
  EXPECT_FALSE(RenderSuiteReport(doc, "nick", {"test", {"nick"}}, SuiteReportTestRead,
                                 SuiteReportTestAggregate, render, &text, &err));
  EXPECT_EQ(err, "no records");
  EXPECT_EQ(text, "untouched");
}

}  // namespace
}  // namespace elevbench
