// Rendering for `report`: the generic formats for every suite, several files each in turn (text
// formats, json) or combined into one document (md, csv, csv-summary, html).

#include "reporters/render.h"

#include <gtest/gtest.h>

#include <sstream>

#include "app/suites.h"
#include "reporters/markdown.h"
#include "test_util.h"

namespace elevbench {
namespace {

std::string Report(const std::vector<NamedResults>& files, const std::string& format) {
  std::string text;
  std::string err;
  EXPECT_TRUE(RenderReport(files, format, ReportOptions{}, &text, &err)) << err;
  return text;
}

TEST(RenderTest, EverySuiteHasItsFormatsThenTheGenericOnes) {
  EXPECT_EQ(ReportFormatChoices("tiobench"), "nick, tiobench, md, csv, csv-summary, html, json");
  EXPECT_EQ(ReportFormatChoices("nickbench"), "nick, md, csv, csv-summary, html, json");
  EXPECT_EQ(ReportFormatChoices("probes"), "nick, md, csv, csv-summary, html, json");
  EXPECT_EQ(FormatChoices("probes"), "nick, json");  // what `run` prints is unchanged
}

TEST(RenderTest, OneFileInATextFormatIsWhatRenderResultsGives) {
  const NamedResults file = testing::LoadNamedResults("golden/nickbench_small.json");
  std::string expected;
  std::string err;
  ASSERT_TRUE(RenderResults(file.doc, "", ReportOptions{}, &expected, &err)) << err;
  EXPECT_EQ(Report({file}, ""), expected);
  EXPECT_EQ(Report({file}, "nick"), expected);
}

TEST(RenderTest, SeveralFilesInATextFormatPrintOneAfterTheOther) {
  const NamedResults tio = testing::LoadNamedResults("golden/results_small.json");
  const NamedResults nick = testing::LoadNamedResults("golden/nickbench_small.json");
  std::string tio_text;
  std::string nick_text;
  std::string err;
  ASSERT_TRUE(RenderResults(tio.doc, "nick", ReportOptions{}, &tio_text, &err)) << err;
  ASSERT_TRUE(RenderResults(nick.doc, "nick", ReportOptions{}, &nick_text, &err)) << err;
  EXPECT_EQ(Report({tio, nick}, "nick"), "==> results_small.json <==\n" + tio_text +
                                             "\n==> nickbench_small.json <==\n" + nick_text + "\n");
}

// Several files as json are one JSON array of the documents (issue 45: two documents back to
// back are not one JSON text).
TEST(RenderTest, SeveralFilesAsJsonAreOneArray) {
  const std::string text = Report({testing::LoadNamedResults("golden/results_small.json"),
                                   testing::LoadNamedResults("golden/nickbench_small.json")},
                                  "json");
  const nlohmann::json all = nlohmann::json::parse(text);  // throws on two texts back to back
  ASSERT_TRUE(all.is_array());
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]["suite"], "tiobench");
  EXPECT_EQ(all[1]["suite"], "nickbench");
  // One file stays the document itself.
  EXPECT_TRUE(nlohmann::json::parse(
                  Report({testing::LoadNamedResults("golden/results_small.json")}, "json"))
                  .is_object());
}

TEST(RenderTest, GenericFormatsCombineTheFiles) {
  const std::vector<NamedResults> files = {
      testing::LoadNamedResults("golden/results_small.json"),
      testing::LoadNamedResults("golden/nickbench_small.json")};
  const std::string md = RenderMarkdownReport(testing::WithMeasurements(files), true);
  EXPECT_EQ(Report(files, "md"), md);
  const std::string csv = Report(files, "csv");
  EXPECT_EQ(csv.rfind("file,suite,", 0), 0u);
  EXPECT_EQ(csv.find("file,suite,", 1), std::string::npos) << "one header for all files";
  EXPECT_NE(csv.find("\nresults_small.json,tiobench,"), std::string::npos);
  EXPECT_NE(csv.find("\nnickbench_small.json,nickbench,"), std::string::npos);
  EXPECT_EQ(Report(files, "csv-summary").rfind("file,suite,section,row,", 0), 0u);
}

TEST(RenderTest, AFormatTheSuiteDoesNotPrintNamesTheFileAndTheChoices) {
  std::string text;
  std::string err;
  EXPECT_FALSE(RenderReport({testing::LoadNamedResults("golden/results_small.json"),
                             testing::LoadNamedResults("golden/nickbench_small.json")},
                            "tiobench", ReportOptions{}, &text, &err));
  EXPECT_EQ(err.rfind("nickbench_small.json: unknown --format 'tiobench'", 0), 0u) << err;
  EXPECT_NE(err.find("nick, md, csv, csv-summary, html, json"), std::string::npos) << err;
}

// #45, fourth pass: `--format text`, as every other command takes it, is the suite's default
// text layout, where it was refused for every suite.
TEST(RenderTest, TextIsTheSuitesDefaultTextLayout) {
  for (const char* file : {"golden/results_small.json", "golden/nickbench_small.json"}) {
    SCOPED_TRACE(file);
    std::string text, plain, err;
    ASSERT_TRUE(
        RenderReport({testing::LoadNamedResults(file)}, "text", ReportOptions{}, &text, &err))
        << err;
    ASSERT_TRUE(RenderReport({testing::LoadNamedResults(file)}, "", ReportOptions{}, &plain, &err))
        << err;
    EXPECT_EQ(text, plain);
  }
}

// Issue #18: numbers of a results file that are floats (or strings, or past their type) where
// an integer belongs are read through GetJsonField, not get<int64_t>() (undefined for 1e300):
// the fuzz corpus's regression files render in every format, without those facts.
TEST(RenderTest, FloatsWhereIntegersBelongAreLeftOutNotConverted) {
  for (const char* name : {"float_cpus_in_context.json", "float_emulated_machine_and_tags.json",
                           "float_repetitions.json"}) {
    SCOPED_TRACE(name);
    const NamedResults file =
        testing::LoadNamedResults(std::string("../fuzz/corpus/report_render_fuzz/") + name);
    for (const char* format : {"", "md", "csv", "csv-summary", "json"}) {
      std::string text, err;
      EXPECT_NO_THROW(EXPECT_TRUE(RenderReport({file}, format, ReportOptions{}, &text, &err))
                      << format << ": " << err);
    }
    const std::string md = Report({file}, "md");
    EXPECT_EQ(md.find("9223372036854775807"), std::string::npos) << "a float read as int64_t";
    EXPECT_EQ(md.find("driver tags -"), std::string::npos);
  }
  const NamedResults tags = testing::LoadNamedResults(
      "../fuzz/corpus/report_render_fuzz/float_emulated_machine_and_tags.json");
  EXPECT_NE(Report({tags}, "").find("driver tags unknown"), std::string::npos);
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// The verdict under a table names the configurations as the table does and comes in its order
// (issue 45: "KY" under tiobench's "6.18.44-ky", seq_write first under Sequential Reads first).
TEST(RenderTest, TheVerdictFollowsTheTablesNamesAndOrder) {
  const NamedResults file = testing::LoadNamedResults("fixtures/report_tiobench_5cfg.json");
  ASSERT_FALSE(file.doc.labels.empty());
  const std::string text = Report({file}, "nick");
  const size_t verdict = text.find("\nVerdict (");
  ASSERT_NE(verdict, std::string::npos);
  const std::string block = text.substr(verdict);
  EXPECT_NE(block.find("6.18.44-ky"), std::string::npos) << block;
  EXPECT_EQ(block.find(" KY"), std::string::npos) << block;
  const size_t first_line = block.find('\n', 1) + 1;
  EXPECT_EQ(block.compare(first_line, 9, "seq_read "), 0) << block;
  EXPECT_LT(block.find("\nrandom_read "), block.find("\nseq_write ")) << block;
  // A suite whose tables print labels keeps them.
  const std::string nick =
      Report({testing::LoadNamedResults("fixtures/report_nickbench_5cfg.json")}, "nick");
  EXPECT_NE(nick.substr(nick.find("\nVerdict (")).find(" KY"), std::string::npos);
}

}  // namespace
}  // namespace elevbench
