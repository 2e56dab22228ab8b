// A composite suite (post-2003's machinery) on a fake fio: its variants chain the parts' in
// order, a cell runs in its own part and its records carry the part, a composite results
// document projects back onto each part exactly, and the measurements are the parts'.

#include "scenarios/composite/composite_suite.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include "fakes.h"
#include "harness/stats/measurement.h"
#include "test_util.h"

namespace elevbench {
namespace {

std::unique_ptr<Suite> Composite(const std::string& args, std::string* err) {
  std::unique_ptr<Suite> suite = MakeCompositeSuite(
      "combo", {{"tiobench", "--size 8 --random 10 --threads 1,2"}, {"orasim", "--runs 2"}},
      PartSuiteOfTable, {{"what", "a test"}}, {{"--shout", "shout", "a flag"}});
  CLI::App app;
  suite->AddOptions(&app);
  app.parse(args, false);
  if (!suite->Prepare(MachineInfo{}, err)) return nullptr;
  return suite;
}

TEST(CompositeSuiteTest, VariantsChainThePartsAndRecordsCarryTheirPart) {
  std::string err;
  auto suite = Composite("--part-args 'orasim=--size 16 --runtime 1 --runs 1' --shout", &err);
  ASSERT_NE(suite, nullptr) << err;
  const std::vector<SuiteVariant> variants = suite->Variants();
  ASSERT_EQ(variants.size(), 3u);  // tiobench threads 1 and 2, orasim run 1
  EXPECT_EQ(variants[0].label, "tiobench threads=1");
  EXPECT_EQ(variants[0].key["part"], "tiobench");
  EXPECT_EQ(variants[2].key["part"], "orasim");
  EXPECT_EQ(variants[2].key["run"], 1);
  const nlohmann::json params = suite->Parameters();
  EXPECT_EQ(params["parts"], nlohmann::json::array({"tiobench", "orasim"}));
  EXPECT_EQ(params["part_arguments"]["orasim"], "--size 16 --runtime 1 --runs 1");
  EXPECT_EQ(params["part_parameters"]["orasim"]["size_mb"], 16);
  EXPECT_EQ(params["shout"], true);
  EXPECT_EQ(params["what"], "a test");

  testing::ScopedTempDir dir;
  testing::FakeFio fio;  // every stream moves its file (800 KiB when time-based) in 1 s
  CellEnvironment env;
  env.directory = dir.path();
  env.fio = &fio;
  env.work_dir = dir.path();
  nlohmann::json setup;
  ASSERT_TRUE(suite->SetUp(env, &setup, &err)) << err;
  EXPECT_TRUE(setup.contains("orasim"));
  std::vector<nlohmann::json> records;
  ASSERT_TRUE(suite->RunCell(variants[2], env, &records, &err)) << err;
  ASSERT_TRUE(suite->RunCell(variants[0], env, &records, &err)) << err;
  suite->TearDown(env);
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records.front()["part"], "orasim");
  EXPECT_EQ(records.back()["part"], "tiobench");

  // The document as the session would hold it, projected back onto each part.
  ResultsDocument doc;
  doc.suite = "combo";
  doc.parameters = params;
  doc.context = {{"repetitions", 1}, {"cpus", 2}};
  doc.identifiers = {"k-dl"};
  doc.labels = {"DL"};
  for (nlohmann::json r : records) {
    r["scheduler"] = "mq-deadline";
    r["identifier"] = "k-dl";
    r["label"] = "DL";
    r["repetition"] = 0u;
    doc.records.push_back(r);
  }
  CellRecord cell;
  cell.variant = variants[2].key;
  doc.cells.push_back(cell);
  const ResultsDocument ora = PartDocument(doc, "orasim");
  EXPECT_EQ(ora.suite, "orasim");
  ASSERT_EQ(ora.records.size(), 1u);
  EXPECT_FALSE(ora.records[0].contains("part"));
  ASSERT_EQ(ora.cells.size(), 1u);
  EXPECT_FALSE(ora.cells[0].variant.contains("part"));
  EXPECT_EQ(ora.parameters["size_mb"], 16);
  EXPECT_FALSE(ora.context.contains("cpus"));  // the machine header prints once, above
  EXPECT_EQ(PartDocument(doc, "tiobench").records.size(), records.size() - 1);
  EXPECT_TRUE(PartDocument(doc, "nickbench").records.empty());

  std::vector<Measurement> measurements;
  ASSERT_TRUE(CompositeMeasurements(doc, PartSuiteOfTable, &measurements, &err)) << err;
  bool saw_orasim = false, saw_tiobench = false;
  for (const Measurement& m : measurements) {
    saw_orasim = saw_orasim || m.suite == "orasim";
    saw_tiobench = saw_tiobench || m.suite == "tiobench";
  }
  EXPECT_TRUE(saw_orasim);
  EXPECT_TRUE(saw_tiobench);
}

// --lanes: a part takes lanes as it does on its own (tiobench at 1 CPU a lane; orasim never),
// and a lane's session sets up only the parts it runs cells of.
TEST(CompositeSuiteTest, PartsTakeLanesAsAloneAndALaneSetsUpOnlyItsParts) {
  std::string err;
  auto suite = Composite("--part-args 'orasim=--size 16 --runtime 1 --runs 1'", &err);
  ASSERT_NE(suite, nullptr) << err;
  const std::vector<SuiteVariant> variants = suite->Variants();
  ASSERT_EQ(variants.size(), 3u);
  EXPECT_TRUE(suite->VariantTakesLanes(variants[0], 1));
  EXPECT_TRUE(suite->VariantTakesLanes(variants[1], 2));
  EXPECT_FALSE(suite->VariantTakesLanes(variants[2], 1));  // orasim refuses lanes
  EXPECT_FALSE(suite->VariantTakesLanes(variants[2], 2));

  testing::ScopedTempDir dir;
  testing::FakeFio fio;
  CellEnvironment env;
  env.directory = dir.path();
  env.fio = &fio;
  env.work_dir = dir.path();
  env.runs_variant = {true, false, false};  // a lane with tiobench threads=1 only
  nlohmann::json setup;
  ASSERT_TRUE(suite->SetUp(env, &setup, &err)) << err;
  EXPECT_TRUE(setup.contains("tiobench"));
  EXPECT_FALSE(setup.contains("orasim"));
  suite->TearDown(env);
  env.runs_variant = {false, false, true};  // the cells that run alone: orasim's
  ASSERT_TRUE(suite->SetUp(env, &setup, &err)) << err;
  EXPECT_FALSE(setup.contains("tiobench"));
  EXPECT_TRUE(setup.contains("orasim"));
  suite->TearDown(env);
}

TEST(CompositeSuiteTest, BadPartsAndPartArgumentsAreRefusedWithTheirName) {
  std::string err;
  EXPECT_EQ(Composite("--parts orasim,nickbench", &err), nullptr);
  EXPECT_EQ(err.rfind("--parts: 'nickbench' is not a part of combo (parts: ", 0), 0u) << err;
  EXPECT_EQ(Composite("--parts orasim,orasim", &err), nullptr);
  EXPECT_EQ(err, "--parts: 'orasim' is listed twice");
  EXPECT_EQ(Composite("--part-args 'fio=--size 1'", &err), nullptr);
  EXPECT_NE(err.find("does not name a part of combo (SUITE=ARGS; parts: "), std::string::npos)
      << err;
  // The fourth newcomer pass: a part that --parts left out is named as such.
  EXPECT_EQ(Composite("--parts orasim --part-args 'tiobench=--size 8'", &err), nullptr);
  EXPECT_EQ(err, "--part-args: tiobench is not among the --parts chosen (orasim)");
  // #45, fourth pass: the second --part-args of a part dropped the first in silence.
  EXPECT_EQ(Composite("--part-args 'orasim=--size 16' --part-args 'orasim=--runs 1'", &err),
            nullptr);
  EXPECT_EQ(err, "--part-args: orasim is given twice (give all its options in one)");
  EXPECT_EQ(Composite("--part-args 'orasim=--bogus 3'", &err), nullptr);
  EXPECT_NE(err.find("combo: part orasim '--bogus 3'"), std::string::npos) << err;
  EXPECT_EQ(Composite("--part-args 'orasim=--readers 0 --writers 0'", &err), nullptr);
  EXPECT_NE(err.find("combo: part orasim: --readers"), std::string::npos) << err;
  std::string ok_err;
  auto only = Composite("--parts orasim", &ok_err);
  ASSERT_NE(only, nullptr) << ok_err;
  EXPECT_EQ(only->Variants().size(), 2u);
}

}  // namespace
}  // namespace elevbench
