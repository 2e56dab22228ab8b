#include "harness/run/run_labels.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(RunLabelsTest, LabelsAreCodesInCapitalsOrTheUsersOwn) {
  std::vector<SchedulerConfig> configs;
  std::string err;
  ASSERT_TRUE(ParseSchedulerList("none,mq-deadline,bfq:low_latency=0,bfq@CF", &configs, &err))
      << err;
  EXPECT_EQ(TableLabel(configs[0]), "NONE");
  EXPECT_EQ(TableLabel(configs[1]), "DL");
  EXPECT_EQ(TableLabel(configs[2]), "BFQ-LL0");
  EXPECT_EQ(TableLabel(configs[3]), "CF");
}

TEST(RunLabelsTest, IdentifiersArePrefixedByTheKernelOrTheGivenIdentifier) {
  std::vector<SchedulerConfig> configs;
  std::string err;
  ASSERT_TRUE(ParseSchedulerList("mq-deadline,bfq:low_latency=0", &configs, &err)) << err;
  RunNames n = NameConfigurations(configs, "6.18.44-amd64", "", "IGNORED");
  EXPECT_EQ(n.identifiers, (std::vector<std::string>{"6.18.44-dl", "6.18.44-bfq-ll0"}));
  EXPECT_EQ(n.labels, (std::vector<std::string>{"DL", "BFQ-LL0"}));
  n = NameConfigurations(configs, "6.18.44-amd64", "box", "IGNORED");
  EXPECT_EQ(n.identifiers, (std::vector<std::string>{"box-dl", "box-bfq-ll0"}));
}

TEST(RunLabelsTest, ARunWithoutSwitchingIsNamedByTheKernelAndTheActiveScheduler) {
  const std::map<std::string, std::string> snapshot = {
      {"/sys/block/vda/queue/nr_requests", "64"},
      {"/sys/block/vda/queue/scheduler", "none [mq-deadline] kyber bfq"}};
  const std::string current = CurrentSchedulerLabel(snapshot);
  EXPECT_EQ(current, "DL");
  RunNames n = NameConfigurations({}, "6.18.44-amd64", "", current);
  EXPECT_EQ(n.identifiers, (std::vector<std::string>{"6.18.44-amd64"}));
  EXPECT_EQ(n.labels, (std::vector<std::string>{"DL"}));
  n = NameConfigurations({}, "6.18.44-amd64", "mine", current);
  EXPECT_EQ(n.identifiers, (std::vector<std::string>{"mine"}));
  EXPECT_EQ(n.labels, (std::vector<std::string>{"mine"}));
  EXPECT_EQ(CurrentSchedulerLabel({{"/sys/block/md0/queue/scheduler", "none"}}), "CURRENT");
  EXPECT_EQ(CurrentSchedulerLabel({}), "CURRENT");
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// `--controls` crosses every scheduler with every control, scheduler-major; none keeps the
// scheduler's own names, so two controls' rows never share an identifier or a label.
TEST(RunLabelsTest, ControlsCrossWithTheSchedulersAndComposeTheirNames) {
  std::vector<SchedulerConfig> configs;
  std::vector<IoControl> controls;
  std::string err;
  ASSERT_TRUE(ParseSchedulerList("mq-deadline,bfq", &configs, &err)) << err;
  ASSERT_TRUE(ParseIoControls("none,ionice:load=idle,throttle:load=10M", false, &controls, &err))
      << err;
  const RunNames names = NameConfigurations(configs, "6.18.44-amd64", "", "IGNORED");
  const ControlledConfigurations crossed = CrossWithControls(configs, names, controls);
  EXPECT_EQ(crossed.names.identifiers,
            (std::vector<std::string>{"6.18.44-dl", "6.18.44-dl-idle", "6.18.44-dl-thr10m",
                                      "6.18.44-bfq", "6.18.44-bfq-idle", "6.18.44-bfq-thr10m"}));
  EXPECT_EQ(crossed.names.labels, (std::vector<std::string>{"DL", "DL+idle", "DL+thr10M", "BFQ",
                                                            "BFQ+idle", "BFQ+thr10M"}));
  EXPECT_EQ(crossed.control_of, (std::vector<size_t>{0, 1, 2, 0, 1, 2}));
  ASSERT_EQ(crossed.configs.size(), 6u);
  EXPECT_EQ(crossed.configs[4].scheduler, "bfq");
  // A run on the current scheduler: one name, once per control, no configuration.
  const RunNames current = NameConfigurations({}, "6.18.44-amd64", "", "DL");
  const ControlledConfigurations alone = CrossWithControls({}, current, controls);
  EXPECT_TRUE(alone.configs.empty());
  EXPECT_EQ(alone.names.labels, (std::vector<std::string>{"DL", "DL+idle", "DL+thr10M"}));
  EXPECT_TRUE(crossed.names.configuration_labels.empty());  // no --kernels: none
  // A guest's run (--kernels): the configuration labels are crossed as the labels are.
  const ControlledConfigurations guest =
      CrossWithControls(configs, NameKernelConfigurations(configs, "61"), controls);
  EXPECT_EQ(guest.names.labels,
            (std::vector<std::string>{"61-DL", "61-DL+idle", "61-DL+thr10M", "61-BFQ",
                                      "61-BFQ+idle", "61-BFQ+thr10M"}));
  EXPECT_EQ(
      guest.names.configuration_labels,
      (std::vector<std::string>{"DL", "DL+idle", "DL+thr10M", "BFQ", "BFQ+idle", "BFQ+thr10M"}));
  // The host names a failed guest's rows as the guest would have: crossed, names and
  // configuration labels alike; not crossed when every control is `none`.
  const RunNames failed = NameKernelRows(configs, controls, "61");
  EXPECT_EQ(failed.identifiers, guest.names.identifiers);
  EXPECT_EQ(failed.configuration_labels, guest.names.configuration_labels);
  std::vector<IoControl> none;
  ASSERT_TRUE(ParseIoControls("none", false, &none, &err)) << err;
  EXPECT_EQ(NameKernelRows(configs, none, "61").labels,
            (std::vector<std::string>{"61-DL", "61-BFQ"}));
  EXPECT_EQ(NameKernelRows(configs, {}, "61").identifiers,
            NameKernelConfigurations(configs, "61").identifiers);
}

}  // namespace
}  // namespace elevbench
