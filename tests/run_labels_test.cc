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
