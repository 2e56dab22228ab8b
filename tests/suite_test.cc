// The suites' shared helpers (harness/run/suite.h). SummarizeRows: the rows come in the
// document's identifier order, and records that do not read give an empty array rather than a
// summary of part of them. LayOutWithFio: one fio run of the given streams, named and limited
// as asked, its failure prefixed with what it was laying out.

#include "harness/run/suite.h"

#include <gtest/gtest.h>

#include "fakes.h"

namespace elevbench {
namespace {

using testing::FakeFio;

struct FakeSummaryRecord {
  std::string identifier;
};

struct FakeSummaryRow {
  std::string identifier;
  size_t records = 0;
};

bool FakeSummaryRecordsFromDocument(const ResultsDocument& doc, std::vector<FakeSummaryRecord>* out,
                                    std::string* err) {
  for (const nlohmann::json& r : doc.records) {
    if (!r.contains("identifier")) {
      *err = "no identifier";
      return false;
    }
    out->push_back({r["identifier"].get<std::string>()});
  }
  return true;
}

std::vector<FakeSummaryRow> AggregateFakeSummaryRows(const std::vector<FakeSummaryRecord>& records,
                                                     const std::vector<std::string>& order) {
  std::vector<FakeSummaryRow> rows;
  for (const std::string& id : order) {
    FakeSummaryRow row{id, 0};
    for (const FakeSummaryRecord& r : records) row.records += r.identifier == id ? 1 : 0;
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json FakeSummaryToJson(const std::vector<FakeSummaryRow>& rows) {
  nlohmann::json j = nlohmann::json::array();
  for (const FakeSummaryRow& r : rows)
    j.push_back({{"identifier", r.identifier}, {"n", r.records}});
  return j;
}

TEST(SummarizeRowsTest, AggregatesTheRecordsInTheDocumentsOrder) {
  ResultsDocument doc;
  doc.identifiers = {"b", "a"};
  doc.records = {{{"identifier", "a"}}, {{"identifier", "b"}}, {{"identifier", "a"}}};
  EXPECT_EQ(SummarizeRows(doc, FakeSummaryRecordsFromDocument, AggregateFakeSummaryRows,
                          FakeSummaryToJson),
            nlohmann::json::parse(R"([{"identifier":"b","n":1},{"identifier":"a","n":2}])"));
}

TEST(SummarizeRowsTest, RecordsThatDoNotReadGiveAnEmptyArray) {
  ResultsDocument doc;
  doc.identifiers = {"a"};
  doc.records = {{{"identifier", "a"}}, {{"scheduler", "bfq"}}};
  EXPECT_EQ(SummarizeRows(doc, FakeSummaryRecordsFromDocument, AggregateFakeSummaryRows,
                          FakeSummaryToJson),
            nlohmann::json::array());
}

CellEnvironment LayoutEnvironment(FakeFio* fio) {
  CellEnvironment env;
  env.fio = fio;
  env.work_dir = "/work";
  env.label_prefix = "cell003-";
  return env;
}

TEST(LayOutWithFioTest, RunsTheStreamsOnceAsOneNamedJobFile) {
  FakeFio fio;
  StreamSpec s;
  s.name = "layout";
  s.rw = "write";
  std::string err;
  ASSERT_TRUE(LayOutWithFio(LayoutEnvironment(&fio), LegacyToolFioGlobal(), {s, s}, "suite-layout",
                            30, "laying out the files", &err))
      << err;
  ASSERT_EQ(fio.runs.size(), 1u);
  EXPECT_EQ(fio.runs[0].streams.size(), 2u);
  EXPECT_EQ(fio.runs[0].global.extra, LegacyToolFioGlobal().extra);
  EXPECT_EQ(fio.runs[0].work_dir, "/work");
  EXPECT_EQ(fio.runs[0].label, "cell003-suite-layout");
  EXPECT_EQ(fio.runs[0].timeout_seconds, 30);
}

TEST(LayOutWithFioTest, AFailureSaysWhatWasBeingLaidOut) {
  FakeFio fio;
  fio.failing_runs = {1};
  std::string err;
  EXPECT_FALSE(LayOutWithFio(LayoutEnvironment(&fio), FioGlobalSpec(), {StreamSpec()}, "layout", 0,
                             "laying out the data file", &err));
  EXPECT_EQ(err, std::string("laying out the data file: ") + FakeFio::kRunError);
}

}  // namespace
}  // namespace elevbench
