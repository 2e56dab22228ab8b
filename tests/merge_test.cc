// `merge` of the shards of one plan (harness/run/shard.h, MergeShardDocuments): a tiobench plan
// of 2 configurations and 4 repetitions run as --shard 1/2 and 2/2, one after the other with the
// fake fio, and merged, gives the rows, labels and verdict lines of one run of that plan; shards
// that do not belong together are refused in one line, a missing or repeated shard named.

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/suites.h"
#include "fakes.h"
#include "harness/process/subprocess.h"
#include "harness/run/run_plan.h"
#include "harness/run/run_session.h"
#include "harness/run/shard.h"
#include "test_util.h"

namespace elevbench {
namespace {

// Each cell's fio runs take a time of their own, from the cell's place in the plan (the label's
// "cellNNN-"), so that a record merged into the wrong cell changes a row; the same cell measures
// the same in the whole run and in its shard.
void MeasureByPlanIndex(const FioInvocation& invocation, double elapsed, FioRunResult* result) {
  testing::MeasureOneSecondPerJob(invocation, elapsed, result);
  unsigned cell = 0;
  const size_t at = invocation.label.find("cell");
  if (at != std::string::npos) std::sscanf(invocation.label.c_str() + at, "cell%u", &cell);
  for (FioJobResult& job : result->jobs) {
    const uint64_t ms = 1000 + 37 * ((cell * 7) % 11);
    job.job_runtime_ms = ms;
    job.read.runtime_ms = job.read.io_bytes ? ms : 0;
    job.write.runtime_ms = job.write.io_bytes ? ms : 0;
  }
}

class MergeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    entry_ = FindSuite("tiobench");
    ASSERT_NE(entry_, nullptr);
    suite_ = entry_->make();
    CLI::App app;
    suite_->AddOptions(&app);
    ASSERT_NO_THROW(app.parse(std::string("--size 8 --random 100 --threads 1,2"), false));
    std::string err;
    ASSERT_TRUE(suite_->Prepare(MachineInfo{}, &err)) << err;
    config_.identifiers = {"6.18.44-dl", "6.18.44-bfq"};
    config_.labels = {"DL", "BFQ"};
    config_.repetitions = 4;
    config_.seed = 3;
    config_.work_dir = dir_.path();
    config_.measure = entry_->measure;
    target_.directory = dir_.path();
  }

  // One session into a document whose context is a run's on `host`: the whole plan (shard 0)
  // or shard `shard` of 2.
  ResultsDocument Run(uint32_t shard, const std::string& host) {
    SessionConfig sc = config_;
    ResultsDocument doc;
    doc.suite = "tiobench";
    doc.context = {{"elevbench_version", "0.test"},
                   {"hostname", host},
                   {"seed", sc.seed},
                   {"repetitions", sc.repetitions},
                   {"variants", 2},
                   {"cpu_model", "cpu of " + host},
                   {"start_time", "2026-12-07T06:0" + std::to_string(shard) + ":00Z"},
                   {"command_line", "elevbench run tiobench --seed 3"}};
    sc.out_path = dir_.path() + "/shard" + std::to_string(shard) + ".json";
    if (shard > 0) {
      const ShardSpec spec{shard, 2};
      sc.shard = static_cast<int>(shard);
      sc.plan_cells = DealPlanToShard(BuildRunPlan(2, 2, 4, sc.seed), spec);
      doc.context["shard"] = ShardContextJson(spec, sc.plan_cells.size(), 16);
      doc.context["command_line"] = "elevbench run tiobench --seed 3 --shard " + spec.Text();
    }
    testing::FakeFio fio;
    fio.measure = MeasureByPlanIndex;
    size_t failed = 0;
    std::string err;
    EXPECT_TRUE(RunSession(*suite_, sc, target_, &fio, &progress_, &doc, &failed, &err)) << err;
    return doc;
  }

  std::string Render(const ResultsDocument& doc, const std::string& format) {
    std::string text, err;
    EXPECT_TRUE(RenderResults(doc, format, ReportOptions{}, &text, &err)) << err;
    return text;
  }

  testing::ScopedTempDir dir_;
  const SuiteEntry* entry_ = nullptr;
  std::unique_ptr<Suite> suite_;
  SessionConfig config_;
  SessionTarget target_;
  Progress progress_{stderr, false};
};

// The lines of a rendered report from its first table on: the rows, labels and verdict lines
// (the environment header above them names the boxes, which differ).
std::vector<std::string> BodyLines(const std::string& text, const std::string& first) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  bool body = false;
  for (std::string line; std::getline(in, line);) {
    body = body || line.find(first) != std::string::npos;
    if (body) lines.push_back(line);
  }
  return lines;
}

TEST_F(MergeTest, TwoShardsMergedGiveTheRowsLabelsAndVerdictOfOneRun) {
  const ResultsDocument whole = Run(0, "boxa");
  const std::vector<ResultsDocument> shards = {Run(1, "boxa"), Run(2, "boxb")};
  ASSERT_EQ(shards[0].cells.size() + shards[1].cells.size(), whole.cells.size());
  ResultsDocument merged;
  std::string err;
  ASSERT_TRUE(MergeShardDocuments(shards, {"a.json", "b.json"}, &merged, &err)) << err;
  merged.summary = suite_->Summarize(merged);
  EXPECT_EQ(merged.summary, whole.summary);
  EXPECT_EQ(merged.labels, whole.labels);
  EXPECT_EQ(merged.identifiers, whole.identifiers);
  EXPECT_TRUE(merged.complete);
  ASSERT_EQ(merged.cells.size(), whole.cells.size());
  for (size_t i = 0; i < merged.cells.size(); ++i) {
    EXPECT_EQ(merged.cells[i].plan_index, i);
    EXPECT_EQ(merged.cells[i].identifier, whole.cells[i].identifier);
    EXPECT_EQ(merged.cells[i].repetition, whole.cells[i].repetition);
    EXPECT_EQ(merged.cells[i].shard, static_cast<int>(whole.cells[i].repetition % 2 + 1));
  }
  for (const char* format : {"nick", "tiobench"}) {
    const std::string one = Render(whole, format);
    const std::string joined = Render(merged, format);
    const std::string first = std::string(format) == "nick" ? "6.18.44" : "Sequential Reads";
    const std::vector<std::string> body = BodyLines(one, first);
    ASSERT_GT(body.size(), 10u) << one;
    EXPECT_EQ(BodyLines(joined, first), body) << joined;
    EXPECT_NE(one.find("Verdict"), std::string::npos) << one;
  }
  // The merged header names the boxes of the shards, each shard's context kept.
  EXPECT_EQ(merged.context["hostname"], "boxa,boxb");
  EXPECT_EQ(merged.context["command_line"], "elevbench run tiobench --seed 3");
  EXPECT_EQ(merged.context["start_time"], "2026-12-07T06:01:00Z");
  ASSERT_EQ(merged.context["shards"].size(), 2u);
  EXPECT_EQ(merged.context["shards"][1]["context"]["cpu_model"], "cpu of boxb");
  EXPECT_FALSE(merged.context.contains("shard"));
  EXPECT_NE(Render(merged, "nick").find("Shards: 2"), std::string::npos) << Render(merged, "nick");
  // Through the results file: the cells keep their shard.
  const std::string path = dir_.path() + "/all.json";
  ASSERT_TRUE(SaveResultsFile(path, merged, &err)) << err;
  ResultsDocument back;
  ASSERT_TRUE(LoadResultsFile(path, &back, &err)) << err;
  EXPECT_EQ(back.cells[0].shard, merged.cells[0].shard);
  EXPECT_EQ(back.cells[5].record_count, merged.cells[5].record_count);
}

struct MergeCliRun {
  int exit_code;
  std::string out;
  std::string err;
};

MergeCliRun RunMergeCli(std::vector<std::string> args) {
  args.insert(args.begin(), ELEVBENCH_BINARY);
  ProcessResult r;
  std::string err;
  ProcessOptions opts;
  opts.timeout_seconds = 60;
  EXPECT_TRUE(RunProcess(args, opts, &r, &err)) << err;
  return {r.exit_code, r.output, r.error_output};
}

// The built binary: `merge` of the two shards' files prints the tables `report` prints of the
// whole run's file and records the merged run in the history; shards that do not belong
// together, a repeated or a missing one: exit 2, one line.
TEST_F(MergeTest, TheMergeCommandJoinsShardFilesOrRefusesInOneLine) {
  std::string err;
  const std::string whole = dir_.path() + "/whole.json";
  ASSERT_TRUE(SaveResultsFile(whole, Run(0, "boxa"), &err)) << err;
  const std::string one = dir_.path() + "/s1.json";
  const std::string two = dir_.path() + "/s2.json";
  ResultsDocument second = Run(2, "boxb");
  ASSERT_TRUE(SaveResultsFile(one, Run(1, "boxa"), &err)) << err;
  ASSERT_TRUE(SaveResultsFile(two, second, &err)) << err;
  const std::string all = dir_.path() + "/all.json";
  const std::string db = dir_.path() + "/history.db";
  const MergeCliRun merged = RunMergeCli({"merge", one, two, "--out", all, "--db", db});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_NE(merged.err.find("2 shards merged into " + all), std::string::npos) << merged.err;
  EXPECT_NE(merged.err.find("merged run recorded in the history"), std::string::npos) << merged.err;
  const MergeCliRun report = RunMergeCli({"report", whole});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(BodyLines(merged.out, "6.18.44"), BodyLines(report.out, "6.18.44")) << merged.out;
  EXPECT_EQ(RunMergeCli({"report", all}).out, merged.out);
  const MergeCliRun history = RunMergeCli({"history", "--db", db});
  EXPECT_EQ(history.exit_code, 0) << history.err;
  EXPECT_NE(history.out.find("boxa,boxb"), std::string::npos) << history.out;

  const auto refused = [](const MergeCliRun& r, const std::string& why) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  };
  refused(RunMergeCli({"merge", one, one, "--out", all, "--no-history"}),
          "merge: shard 1/2 is given twice");
  refused(RunMergeCli({"merge", one, "--out", all, "--no-history"}), "merge: shard 2/2 is missing");
  second.context["seed"] = 4;
  const std::string other = dir_.path() + "/other.json";
  ASSERT_TRUE(SaveResultsFile(other, second, &err)) << err;
  refused(RunMergeCli({"merge", one, other, "--out", all, "--no-history"}),
          "are not shards of one plan: their seeds differ (3 and 4)");
  refused(RunMergeCli({"merge", one, whole, "--out", all, "--no-history"}), "not a shard's");
  refused(RunMergeCli({"merge", one, two, "--out", one, "--no-history"}), "is one of the shards'");
}

// Two small documents that are shards 1/2 and 2/2 of one plan (no cells: the checks only).
std::vector<ResultsDocument> TwoShards() {
  std::vector<ResultsDocument> docs(2);
  for (uint32_t k = 0; k < 2; ++k) {
    docs[k].suite = "tiobench";
    docs[k].identifiers = {"k-dl", "k-bfq"};
    docs[k].labels = {"DL", "BFQ"};
    // Each box made its own disk: its own scratch mount, loop device and backing file.
    const std::string made = "/var/tmp/elevbench-" + std::to_string(k) + "AbCd/mnt";
    docs[k].parameters = {{"size_mb", 8}, {"directory", made}};
    docs[k].context = {{"elevbench_version", "0.test"},
                       {"seed", 3},
                       {"repetitions", 4},
                       {"variants", 2},
                       {"hostname", "h"},
                       {"filesystem", "ext2"},
                       {"target",
                        {{"kind", "emulated"},
                         {"profile", {{"name", "ide-2003"}, {"rpm", 7200}}},
                         {"loop_device", "/dev/loop" + std::to_string(k)},
                         {"path", made},
                         {"size_bytes", uint64_t{4} << 30}}},
                       {"shard", ShardContextJson({k + 1, 2}, 0, 16)}};
    docs[k].complete = true;
  }
  return docs;
}

std::string MergeError(const std::vector<ResultsDocument>& docs,
                       const std::vector<std::string>& names) {
  ResultsDocument merged;
  std::string err;
  EXPECT_FALSE(MergeShardDocuments(docs, names, &merged, &err));
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  return err;
}

TEST(MergeRefusalTest, ShardsOfOtherPlansAreRefusedInOneLine) {
  ResultsDocument merged;
  std::string err;
  ASSERT_TRUE(MergeShardDocuments(TwoShards(), {"a.json", "b.json"}, &merged, &err)) << err;
  struct Case {
    const char* why;
    void (*change)(ResultsDocument*);
  };
  const Case cases[] = {
      {"their seeds differ (3 and 4)", [](ResultsDocument* d) { d->context["seed"] = 4; }},
      {"their suites differ", [](ResultsDocument* d) { d->suite = "nickbench"; }},
      {"their elevbench versions differ",
       [](ResultsDocument* d) { d->context["elevbench_version"] = "0.other"; }},
      {"their tiobench parameters differ",
       [](ResultsDocument* d) { d->parameters["size_mb"] = 16; }},
      {"their repetitions differ", [](ResultsDocument* d) { d->context["repetitions"] = 5; }},
      {"their targets differ (emulated ide-2003 4096 MiB ext2 and emulated sata-7200 4096 MiB "
       "ext2)",
       [](ResultsDocument* d) { d->context["target"]["profile"]["name"] = "sata-7200"; }},
      {"their targets differ (emulated ide-2003 4096 MiB ext2 and emulated ide-2003 4096 MiB "
       "ext4)",
       [](ResultsDocument* d) { d->context["filesystem"] = "ext4"; }},
      {"their targets differ (emulated ide-2003 4096 MiB ext2 and emulated ide-2003 2048 MiB "
       "ext2)",
       [](ResultsDocument* d) { d->context["target"]["size_bytes"] = uint64_t{2} << 30; }},
      {"their targets differ (emulated ide-2003 4096 MiB ext2 and directory ext2)",
       [](ResultsDocument* d) {
         d->context["target"] = {{"kind", "directory"}};
       }},
      {"their configurations differ", [](ResultsDocument* d) { d->labels[1] = "AS"; }},
      {"different numbers of shards",
       [](ResultsDocument* d) {
         d->context["shard"] = ShardContextJson({2, 3}, 0, 16);
       }},
  };
  for (const Case& c : cases) {
    std::vector<ResultsDocument> docs = TwoShards();
    c.change(&docs[1]);
    const std::string e = MergeError(docs, {"a.json", "b.json"});
    EXPECT_NE(e.find("a.json and b.json are not shards of one plan: "), std::string::npos) << e;
    EXPECT_NE(e.find(c.why), std::string::npos) << e;
  }
}

// Where each box mounted the disk it made is its own (a real --emulated run's shards were
// refused on tiobench's directory until 7 December); so is a user's directory on another box,
// at any depth of the parameters (post-2003 keeps its parts' one level down).
TEST(MergeRefusalTest, EachBoxsOwnDirectoryAndDeviceAreNoDifference) {
  std::vector<ResultsDocument> docs = TwoShards();
  ASSERT_NE(docs[0].parameters["directory"], docs[1].parameters["directory"]);
  ResultsDocument merged;
  std::string err;
  EXPECT_TRUE(MergeShardDocuments(docs, {"a.json", "b.json"}, &merged, &err)) << err;
  for (uint32_t k = 0; k < 2; ++k) {
    docs[k].parameters["part_parameters"] = {
        {"probes", {{"directory", k == 0 ? "/mnt/scratch" : "/srv/test"}, {"size_mb", 8}}}};
    docs[k].context["target"] = {{"kind", "directory"}, {"path", docs[k].parameters["directory"]}};
  }
  EXPECT_TRUE(MergeShardDocuments(docs, {"a.json", "b.json"}, &merged, &err)) << err;
  docs[1].parameters["part_parameters"]["probes"]["size_mb"] = 16;
  EXPECT_NE(MergeError(docs, {"a.json", "b.json"}).find("their tiobench parameters differ"),
            std::string::npos);
}

// Issue 57 §3, issue 60: the shards of a --kernels run keep each cell's and record's kernel and
// configuration label in the merge.
TEST(MergeRefusalTest, TheKernelFieldIsKept) {
  std::vector<ResultsDocument> docs = TwoShards();
  const RowKernel kernel{"61", "6.1.0-50-cloud-amd64", "debian"};
  for (uint32_t k = 0; k < 2; ++k) {
    CellRecord c;
    c.identifier = "k-dl";
    c.label = "DL";
    c.scheduler = "mq-deadline";
    c.status = "ok";
    c.started_at = "2026-12-07T07:00:00Z";
    c.shard = static_cast<int>(k) + 1;
    c.plan_index = k;
    c.record_count = 1;
    c.kernel = kernel;
    c.configuration_label = "DL";
    docs[k].cells.push_back(c);
    docs[k].records.push_back({{"scheduler", "mq-deadline"},
                               {"identifier", "k-dl"},
                               {"repetition", k},
                               {"kernel", RowKernelToJson(kernel)},
                               {"configuration_label", "DL"}});
  }
  ResultsDocument merged;
  std::string err;
  ASSERT_TRUE(MergeShardDocuments(docs, {"a.json", "b.json"}, &merged, &err)) << err;
  ASSERT_EQ(merged.cells.size(), 2u);
  EXPECT_EQ(merged.cells[1].kernel, kernel);
  EXPECT_EQ(merged.cells[1].configuration_label, "DL");
  ASSERT_EQ(merged.records.size(), 2u);
  EXPECT_EQ(merged.records[1]["kernel"], RowKernelToJson(kernel));
  EXPECT_EQ(merged.records[1]["configuration_label"], "DL");
}

TEST(MergeRefusalTest, NamesAMissingOrRepeatedShard) {
  const std::vector<ResultsDocument> two = TwoShards();
  EXPECT_EQ(MergeError({two[0]}, {"a.json"}), "shard 2/2 is missing");
  EXPECT_EQ(MergeError({two[0], two[0]}, {"a.json", "c.json"}),
            "shard 1/2 is given twice (a.json and c.json)");
  std::vector<ResultsDocument> three = TwoShards();
  for (ResultsDocument& d : three) {
    d.context["shard"]["count"] = 4;
  }
  EXPECT_EQ(MergeError(three, {"a.json", "b.json"}), "shards 3/4, 4/4 are missing");
  for (ResultsDocument& d : three) d.context["shard"]["count"] = 100;
  EXPECT_EQ(MergeError(three, {"a.json", "b.json"}),
            "shards 3/100, 4/100, 5/100, 6/100, 7/100 and 93 more are missing");
  std::vector<ResultsDocument> twice = TwoShards();
  for (ResultsDocument& d : twice) {
    CellRecord cell;
    cell.plan_index = 3;
    cell.status = "ok";
    cell.started_at = "2026-12-07T06:00:00Z";
    d.cells.push_back(cell);
  }
  EXPECT_EQ(MergeError(twice, {"a.json", "b.json"}),
            "a.json and b.json both have cell 4 of the plan");
  twice[1].cells[0].plan_index = 16;
  EXPECT_EQ(MergeError(twice, {"a.json", "b.json"}), "b.json: cell 17 is beyond the plan's 16");
  ResultsDocument whole = two[0];
  whole.context.erase("shard");
  EXPECT_EQ(MergeError({two[0], whole}, {"a.json", "w.json"}),
            "w.json: not a shard's results (no context.shard: run with --shard I/N)");
}

}  // namespace
}  // namespace elevbench
