// `--kernels` without a guest: the list read from the command line, the words each guest runs,
// the guests' documents merged into kernel × configuration rows (harness/run/kernel_rows.h),
// and the rows' names (harness/run/run_labels.h's NameKernelConfigurations).

#include "harness/run/kernel_rows.h"

#include <gtest/gtest.h>

#include "harness/run/run_labels.h"

namespace elevbench {
namespace {

TEST(KernelChoicesTest, ReadsPackagesAndTheirLabels) {
  std::vector<KernelChoice> c;
  std::string err;
  ASSERT_TRUE(ParseKernelChoices(
      "debian:linux-image-6.1.0-50-cloud-amd64, debian:linux-image-6.12.118+deb12-cloud-amd64@new",
      &c, &err))
      << err;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].package, "linux-image-6.1.0-50-cloud-amd64");
  EXPECT_EQ(c[0].label, "");
  EXPECT_EQ(c[1].package, "linux-image-6.12.118+deb12-cloud-amd64");
  EXPECT_EQ(c[1].label, "new");
}

TEST(KernelChoicesTest, RefusesWhatNamesNoKernelInOneLine) {
  const std::pair<const char*, const char*> bad[] = {
      {"linux-image-6.1.0-50-cloud-amd64", "is not debian:PACKAGE"},
      {"debian:fio", "names no kernel image package"},
      {"debian:linux-image-6.1;rm", "names no kernel image package"},
      {"debian:linux-image-6.1.0-50-cloud-amd64@a b", "may hold only"},
      {"debian:linux-image-a,debian:linux-image-a", "given twice"},
      {"debian:linux-image-a@x,debian:linux-image-b@x", "'x' is given twice"},
      {"", "no kernel given"},
  };
  for (const auto& [text, why] : bad) {
    std::vector<KernelChoice> c;
    std::string err;
    EXPECT_FALSE(ParseKernelChoices(text, &c, &err)) << text;
    EXPECT_NE(err.find(why), std::string::npos) << text << ": " << err;
    EXPECT_EQ(err.find('\n'), std::string::npos);
  }
}

TEST(GuestCommandArgsTest, DropsTheHostsFlagsAndNamesTheGuestsOutput) {
  const std::vector<std::string> args = {
      "run",          "nickbench", "--kernels",     "debian:linux-image-a",
      "--out=x.json", "--db",      "h.db",          "--no-history",
      "--emulated",   "ide-2003",  "--lanes",       "2",
      "--benches",    "2",         "--guest-clock", "wall"};
  EXPECT_EQ(GuestCommandArgs(args, "/w/kernel-a/results.json", "a"),
            (std::vector<std::string>{"run", "nickbench", "--emulated", "ide-2003", "--benches",
                                      "2", "--out", "/w/kernel-a/results.json", "--no-history",
                                      "--label-prefix", "a"}));
}

TEST(NameKernelConfigurationsTest, PrefixesIdentifiersAndLabelsWithTheKernelsRow) {
  const std::vector<SchedulerConfig> configs = {{"mq-deadline", {}, ""},
                                                {"bfq", {{"low_latency", "0"}}, "AS"}};
  const RunNames names = NameKernelConfigurations(configs, "6.1.0-50-cloud");
  EXPECT_EQ(names.identifiers,
            (std::vector<std::string>{"6.1.0-50-cloud-dl", "6.1.0-50-cloud-AS"}));
  EXPECT_EQ(names.labels, (std::vector<std::string>{"6.1.0-50-cloud-DL", "6.1.0-50-cloud-AS"}));
  EXPECT_EQ(NameKernelConfigurations({}, "k").labels, std::vector<std::string>{"k"});
}

ResultsDocument GuestDocument(const std::string& row, bool complete) {
  ResultsDocument d;
  d.identifiers = {row + "-dl"};
  d.labels = {row + "-DL"};
  for (size_t i = 0; i < 2; ++i) {
    CellRecord c;
    c.identifier = row + "-dl";
    c.plan_index = i;
    c.status = "ok";
    d.cells.push_back(c);
    d.records.push_back({{"identifier", row + "-dl"}, {"repetition", i}});
  }
  d.setup = {{"row", row}};
  d.complete = complete;
  return d;
}

TEST(MergeKernelDocumentsTest, PutsOneKernelAfterAnotherAndCountsThePlanOn) {
  ResultsDocument merged;
  MergeKernelDocuments({GuestDocument("a", true), GuestDocument("b", true)}, &merged);
  EXPECT_EQ(merged.identifiers, (std::vector<std::string>{"a-dl", "b-dl"}));
  EXPECT_EQ(merged.labels, (std::vector<std::string>{"a-DL", "b-DL"}));
  ASSERT_EQ(merged.cells.size(), 4u);
  EXPECT_EQ(merged.cells[2].identifier, "b-dl");
  EXPECT_EQ(merged.cells[2].plan_index, 2u);
  EXPECT_EQ(merged.cells[3].plan_index, 3u);
  ASSERT_EQ(merged.records.size(), 4u);
  EXPECT_EQ(merged.records[3]["identifier"], "b-dl");
  EXPECT_EQ(merged.setup["row"], "a");
  EXPECT_TRUE(merged.complete);
  MergeKernelDocuments({GuestDocument("a", true), GuestDocument("b", false)}, &merged);
  EXPECT_FALSE(merged.complete);
}

TEST(FailedGuestCellsTest, GivesEveryConfigurationAFailedCellWithTheReason) {
  const auto cells =
      FailedGuestCells({"k-dl", "k-AS"}, {"k-DL", "k-AS"}, "failed", "guest k: panic");
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1].identifier, "k-AS");
  EXPECT_EQ(cells[1].status, "failed");
  EXPECT_EQ(cells[1].error, "guest k: panic");
  EXPECT_EQ(FailedGuestCells({"k-dl"}, {"k-DL"}, "interrupted", "stopped")[0].status,
            "interrupted");
}

}  // namespace
}  // namespace elevbench
