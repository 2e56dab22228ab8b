// The lines beside every format's tables that say what did not finish (reporters/failures_text.h):
// an unfinished run's line in the text formats (issue 45: a killed run's file read as complete).

#include "reporters/failures_text.h"

#include <gtest/gtest.h>

#include <string>

#include "app/suites.h"
#include "test_util.h"

namespace elevbench {
namespace {

// The probes fixture as a killed run left it: AS's four cells never ran.
NamedResults KilledProbesRun() {
  NamedResults file = testing::LoadNamedResults("fixtures/report_probes_dnf.json");
  file.doc.complete = false;
  std::erase_if(file.doc.cells, [](const CellRecord& c) { return c.identifier == "6.18.44-AS"; });
  std::erase_if(file.doc.records, [](const nlohmann::json& r) {
    return r.value("identifier", std::string()) == "6.18.44-AS";
  });
  return file;
}

TEST(FailuresTextTest, UnfinishedRunSaysHowManyCellsRan) {
  const NamedResults file = KilledProbesRun();
  // A file that does not say its plan's variants: those its cells reached, a lower bound.
  EXPECT_EQ(UnfinishedRunLine(file.doc),
            "Unfinished run: 4 of at least 8 cells ran; rows below are only those");
  ResultsDocument planned = file.doc;
  planned.context["variants"] = 5;  // one variant no cell reached
  EXPECT_EQ(UnfinishedRunLine(planned),
            "Unfinished run: 4 of 10 cells ran; rows below are only those");
  ResultsDocument complete = file.doc;
  complete.complete = true;
  EXPECT_EQ(UnfinishedRunLine(complete), "");
  EXPECT_EQ(WithUnfinishedRunLine(complete, "text\n\nrows\n"), "text\n\nrows\n");
}

TEST(FailuresTextTest, TextReportOfAnUnfinishedRunSaysSoUnderItsHeader) {
  const NamedResults file = KilledProbesRun();
  std::string text;
  std::string err;
  ASSERT_TRUE(RenderReport({file}, "nick", ReportOptions{}, &text, &err)) << err;
  EXPECT_NE(
      text.find("Units: MB = 2^20 bytes (MiB)\nUnfinished run: 4 of at least 8 cells ran; rows "
                "below are only those\n\n"),
      std::string::npos)
      << text;
  // A complete file's report has no such line.
  const NamedResults whole = testing::LoadNamedResults("fixtures/report_probes_dnf.json");
  ASSERT_TRUE(RenderReport({whole}, "nick", ReportOptions{}, &text, &err)) << err;
  EXPECT_EQ(text.find("Unfinished run"), std::string::npos);
}

}  // namespace
}  // namespace elevbench
