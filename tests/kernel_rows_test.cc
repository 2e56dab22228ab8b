// `--kernels` without a guest: the list read from the command line, the words each guest runs,
// the guests' documents merged into kernel × configuration rows (harness/run/kernel_rows.h),
// and the rows' names (harness/run/run_labels.h's NameKernelConfigurations).

#include "harness/run/kernel_rows.h"

#include <gtest/gtest.h>

#include "harness/run/run_labels.h"
#include "test_util.h"

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
      {"linux-image-6.1.0-50-cloud-amd64", "is not debian:PACKAGE[@LABEL] (e.g. "},
      {"build:bzImage", "or image:IMAGE[:MODROOT][@LABEL] (your own build)"},
      {"image:", "'image:' is not image:IMAGE[:MODROOT][@LABEL]"},
      {"image::/tmp/mods", "is not image:IMAGE[:MODROOT]"},
      {"image:bzImage:", "is not image:IMAGE[:MODROOT]"},
      {"image:bzImage@", "the label of 'image:bzImage@' may hold only"},
      {"image:bzImage:/m@a+b", "may hold only"},
      {"image:a/bzImage,image:a/bzImage:/m", "--kernels: image a/bzImage is given twice"},
      {"image:a/bzImage@x,debian:linux-image-6.1.0-2-amd64@x", "'x' is given twice"},
      {"debian:fio", "names no kernel image package"},
      {"debian:linux-image-6.1;rm", "names no kernel image package"},
      {"debian:linux-image-6.1.0-50-cloud-amd64@a b", "may hold only"},
      {"debian:linux-image-6.1.0-1-amd64,debian:linux-image-6.1.0-1-amd64", "given twice"},
      {"debian:linux-image-6.1.0-1-amd64@x,debian:linux-image-6.1.0-2-amd64@x",
       "'x' is given twice"},
      {"", "no kernel given"},
      // §4.2: what is no kernel release's package is refused before apt is asked.
      {"debian:linux-image-", "'debian:linux-image-' names no kernel image package"},
      {"debian:linux-image-amd64", "a metapackage"},
      {"debian:linux-image-6.1.0-50-cloud-amd64-dbg", "debug symbols"},
      {"debian:linux-image-6.1.0-", "'debian:linux-image-6.1.0-' names no kernel image package"},
  };
  for (const auto& [text, why] : bad) {
    std::vector<KernelChoice> c;
    std::string err;
    EXPECT_FALSE(ParseKernelChoices(text, &c, &err)) << text;
    EXPECT_NE(err.find(why), std::string::npos) << text << ": " << err;
    EXPECT_EQ(err.find('\n'), std::string::npos);
  }
}

TEST(KernelChoicesTest, ReadsBuildsInEitherSpellingInOrder) {
  std::vector<KernelChoice> c;
  std::string err;
  ASSERT_TRUE(ParseKernelChoices(
      "image:arch/x86/boot/bzImage:/tmp/mods@dev,debian:linux-image-6.1.0-1-amd64,image:/b/bzImage",
      {"/c,d/bzImage:/m@new", "image:/e/bzImage", "/f@x/bzImage:/g@y"}, &c, &err))
      << err;
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c[0].flag, "--kernels");
  EXPECT_EQ(c[0].image, "arch/x86/boot/bzImage");
  EXPECT_EQ(c[0].modroot, "/tmp/mods");
  EXPECT_EQ(c[0].label, "dev");
  EXPECT_EQ(c[0].package, "");
  EXPECT_EQ(c[1].package, "linux-image-6.1.0-1-amd64");
  EXPECT_EQ(c[1].image, "");
  EXPECT_EQ(c[2].image, "/b/bzImage");
  EXPECT_EQ(c[2].modroot, "");
  EXPECT_EQ(c[2].label, "");
  // --kernel-image's values come after --kernels' words; a ',' is a path's there.
  EXPECT_EQ(c[3].flag, "--kernel-image");
  EXPECT_EQ(c[3].image, "/c,d/bzImage");
  EXPECT_EQ(c[3].modroot, "/m");
  EXPECT_EQ(c[3].label, "new");
  EXPECT_EQ(c[4].image, "/e/bzImage");  // `image:` may lead it too
  // An '@' followed by a '/' is the path's, not a label.
  EXPECT_EQ(c[5].image, "/f@x/bzImage");
  EXPECT_EQ(c[5].modroot, "/g");
  EXPECT_EQ(c[5].label, "y");
  // --kernel-image alone is a list of kernels.
  ASSERT_TRUE(ParseKernelChoices("", {"bzImage"}, &c, &err)) << err;
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].image, "bzImage");
}

TEST(KernelChoicesTest, RefusesABadKernelImageNamingTheFlag) {
  const std::pair<std::vector<std::string>, const char*> bad[] = {
      {{""}, "--kernel-image: '' is not IMAGE[:MODROOT][@LABEL]"},
      {{"bzImage:"}, "--kernel-image: 'bzImage:' is not IMAGE[:MODROOT][@LABEL]"},
      {{"bzImage@a b"}, "--kernel-image: the label of 'bzImage@a b' may hold only"},
      {{"bzImage", "bzImage"}, "--kernel-image: image bzImage is given twice"},
  };
  for (const auto& [images, why] : bad) {
    std::vector<KernelChoice> c;
    std::string err;
    EXPECT_FALSE(ParseKernelChoices("", images, &c, &err)) << images[0];
    EXPECT_NE(err.find(why), std::string::npos) << images[0] << ": " << err;
  }
}

// §4.4: what a guest reaches of the host's files: not its own /tmp, /var/tmp and /run, except
// the working directory and the binary's folder bound back; nothing written.
TEST(GuestHostPathsTest, TheGuestsOwnTmpHidesAFileButNotTheWorkingDirectory) {
  const std::string binary = "/home/u/elevbench/build/elevbench";
  std::string err;
  EXPECT_TRUE(
      CheckGuestHostPaths("run replay's ", {{"--trace", "t.trace"}}, binary, "/home/u", &err))
      << err;
  EXPECT_TRUE(CheckGuestHostPaths("", {{"--trace", "/tmpx/t"}}, binary, "/home/u", &err)) << err;
  // A checkout under /var/tmp is bound back: its files are seen, its neighbours' are not.
  EXPECT_TRUE(CheckGuestHostPaths("", {{"--trace", "t.trace"}, {"--trace", "/var/tmp/w/a/b"}},
                                  binary, "/var/tmp/w", &err))
      << err;
  EXPECT_TRUE(
      CheckGuestHostPaths("", {{"--trace", "/tmp/b/x"}}, "/tmp/b/elevbench", "/home/u", &err))
      << err;
  const std::pair<std::string, std::string> hidden[] = {{"/tmp/t", "/tmp"},
                                                        {"/var/tmp/t", "/var/tmp"},
                                                        {"/run/t", "/run"},
                                                        {"../x", "/var/tmp"},
                                                        {"/tmp", "/tmp"}};
  for (const auto& [path, top] : hidden) {
    EXPECT_FALSE(
        CheckGuestHostPaths("run fio's ", {{"job file", path}}, binary, "/var/tmp/w", &err))
        << path;
    EXPECT_EQ(err, "--kernels: run fio's job file " + path + " is under " + top +
                       ", which a guest does not see (its /tmp, /var/tmp and /run are its own): "
                       "put it elsewhere, e.g. under the working directory");
  }
  EXPECT_FALSE(CheckGuestHostPaths("run contest's ", {{"--other-dir", "/home/u/o", true}}, binary,
                                   "/home/u", &err));
  EXPECT_EQ(err,
            "--kernels: run contest's --other-dir /home/u/o: a guest writes nothing on the host "
            "but its results (the host's root is read-only in it); leave --other-dir out with "
            "--kernels");
}

TEST(GuestCommandArgsTest, DropsTheHostsFlagsAndNamesTheGuestsOutput) {
  const std::vector<std::string> args = {"run",
                                         "nickbench",
                                         "--kernels",
                                         "debian:linux-image-6.1.0-1-amd64",
                                         "--out=x.json",
                                         "--db",
                                         "h.db",
                                         "--no-history",
                                         "--emulated",
                                         "ide-2003",
                                         "--lanes",
                                         "2",
                                         "--benches",
                                         "2",
                                         "--kernel-image",
                                         "bzImage:/m",
                                         "--kernel-image=b2",
                                         "--guest-clock",
                                         "wall"};
  EXPECT_EQ(GuestCommandArgs(args, "/w/kernel-a/results.json", "a"),
            (std::vector<std::string>{"run", "nickbench", "--emulated", "ide-2003", "--benches",
                                      "2", "--out", "/w/kernel-a/results.json", "--no-history",
                                      "--label-prefix", "a"}));
}

// `run command … -- PROGRAM ARGS` in a guest: the guest's words go before "--", and the
// program's arguments pass as they are, even one spelt like a host-only flag (a guest's run of
// `run command` wrote its results to the read-only host, its --out after the "--").
TEST(GuestCommandArgsTest, TheProgramAfterTheSeparatorIsLeftAsItIs) {
  const std::vector<std::string> args = {"run",     "command", "--kernels", "debian:k", "--",
                                         "./probe", "--out",   "x",         "--db"};
  EXPECT_EQ(GuestCommandArgs(args, "/w/kernel-a/results.json", "a"),
            (std::vector<std::string>{"run", "command", "--out", "/w/kernel-a/results.json",
                                      "--no-history", "--label-prefix", "a", "--", "./probe",
                                      "--out", "x", "--db"}));
  const std::vector<std::string> last = {"run", "command", "--db"};
  EXPECT_EQ(GuestCommandArgs(last, "/r.json", "b"),
            (std::vector<std::string>{"run", "command", "--out", "/r.json", "--no-history",
                                      "--label-prefix", "b"}));
}

TEST(NameKernelConfigurationsTest, PrefixesIdentifiersAndLabelsWithTheKernelsRow) {
  const std::vector<SchedulerConfig> configs = {{"mq-deadline", {}, ""},
                                                {"bfq", {{"low_latency", "0"}}, "AS"}};
  const RunNames names = NameKernelConfigurations(configs, "6.1.0-50-cloud");
  EXPECT_EQ(names.identifiers,
            (std::vector<std::string>{"6.1.0-50-cloud-dl", "6.1.0-50-cloud-AS"}));
  EXPECT_EQ(names.labels, (std::vector<std::string>{"6.1.0-50-cloud-DL", "6.1.0-50-cloud-AS"}));
  // Each configuration's own label, the same on every kernel: the data that names it across
  // kernels (no reader takes the kernel's row off a label).
  EXPECT_EQ(names.configuration_labels, (std::vector<std::string>{"DL", "AS"}));
  EXPECT_EQ(NameKernelConfigurations({}, "k").labels, std::vector<std::string>{"k"});
  EXPECT_TRUE(NameKernelConfigurations({}, "k").configuration_labels.empty());
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
    c.scheduler = "mq-deadline";
    c.label = row + "-DL";
    c.configuration_label = "DL";  // the guest named its configurations (NameKernelConfigurations)
    d.cells.push_back(c);
    d.records.push_back({{"scheduler", "mq-deadline"},
                         {"identifier", row + "-dl"},
                         {"label", row + "-DL"},
                         {"configuration_label", "DL"},
                         {"repetition", i}});
  }
  d.setup = {{"row", row}};
  d.complete = complete;
  return d;
}

TEST(MergeKernelDocumentsTest, PutsOneKernelAfterAnotherAndCountsThePlanOn) {
  ResultsDocument merged;
  MergeKernelDocuments({GuestDocument("a", true), GuestDocument("b", true)}, {}, &merged);
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
  MergeKernelDocuments({GuestDocument("a", true), GuestDocument("b", false)}, {}, &merged);
  EXPECT_FALSE(merged.complete);
}

// `--shard 2/2 --kernels a,b`: each guest ran the cells of its plan of 4 that shard 2 deals
// (plan indices 2 and 3): the second kernel's plan starts after the whole first one's, at 4, so
// that shard 1's document numbers its cells alike and `merge` places both.
TEST(MergeKernelDocumentsTest, AShardsGuestsAreCountedOnByTheirWholePlan) {
  std::vector<ResultsDocument> guests = {GuestDocument("a", true), GuestDocument("b", true)};
  for (ResultsDocument& g : guests) {
    g.context["shard"] = {{"index", 2}, {"count", 2}, {"cells", 2}, {"plan_cells", 4}};
    for (CellRecord& c : g.cells) {
      c.plan_index += 2;
      c.shard = 2;
    }
  }
  ResultsDocument merged;
  MergeKernelDocuments(guests, {}, &merged);
  ASSERT_EQ(merged.cells.size(), 4u);
  EXPECT_EQ(merged.cells[1].plan_index, 3u);
  EXPECT_EQ(merged.cells[2].plan_index, 6u);  // 4 + 2, not 4 of a plan counted by its cells
  EXPECT_EQ(merged.cells[3].plan_index, 7u);
  EXPECT_EQ(merged.cells[3].shard, 2);
}

TEST(FailedGuestCellsTest, GivesEveryConfigurationAFailedCellWithTheReason) {
  const auto cells =
      FailedGuestCells({{"k-dl", "k-AS"}, {"k-DL", "k-AS"}, {"DL", "AS"}},
                       {"k", "6.1.0-50-cloud-amd64", "debian"}, "failed", "guest k: panic");
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1].identifier, "k-AS");
  EXPECT_EQ(cells[1].configuration_label, "AS");
  EXPECT_EQ(cells[1].status, "failed");
  EXPECT_EQ(cells[1].error, "guest k: panic");
  EXPECT_EQ(cells[1].kernel.label, "k");  // a failed guest's rows are still its kernel's
  EXPECT_EQ(FailedGuestCells({{"k-dl"}, {"k-DL"}, {}}, {}, "interrupted", "stopped")[0].status,
            "interrupted");
}

// Issue 57 §3: each guest's cells and records get its kernel as a field of their own, whatever
// their labels say (the second kernel's @LABEL "new" is no prefix of its rows here); the
// golden results file shows the field.
TEST(MergeKernelDocumentsTest, EveryCellAndRecordCarriesItsKernel) {
  ResultsDocument merged;
  merged.suite = "nickbench";
  merged.context = {{"kernels", {{{"label", "6.1.0-50-cloud"}}, {{"label", "new"}}}}};
  const std::vector<RowKernel> kernels = {{"6.1.0-50-cloud", "6.1.0-50-cloud-amd64", "debian"},
                                          {"new", "6.18.0-rc3-00012-gabcdef", "build"}};
  MergeKernelDocuments({GuestDocument("6.1.0-50-cloud", true), GuestDocument("b", true)}, kernels,
                       &merged);
  ASSERT_EQ(merged.cells.size(), 4u);
  EXPECT_EQ(merged.cells[1].kernel, kernels[0]);
  EXPECT_EQ(merged.cells[2].kernel, kernels[1]);
  RecordHeader header;
  std::string err;
  ASSERT_TRUE(ReadRecordHeader(merged.records[3], &header, &err)) << err;
  EXPECT_EQ(header.kernel, kernels[1]);
  EXPECT_EQ(header.configuration_label, "DL");  // the guest's field, kept by the merge
  std::string text;
  WriteResultsText(merged, [&](std::string_view piece) { text.append(piece); });
  testing::ExpectMatchesGolden("kernels_merged_results.json", text);
  ResultsDocument read;
  ASSERT_TRUE(ResultsFromJson(nlohmann::json::parse(text), &read, &err)) << err;
  EXPECT_EQ(read.cells[3].kernel, kernels[1]);
  EXPECT_EQ(read.cells[3].configuration_label, "DL");
}

}  // namespace
}  // namespace elevbench
