#include "harness/device/scheduler_config.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

std::string ParseError(std::string_view list) {
  std::vector<SchedulerConfig> configs;
  std::string err;
  EXPECT_FALSE(ParseSchedulerList(list, &configs, &err)) << list;
  return err;
}

TEST(SchedulerConfigTest, ParsesTheFullSyntax) {
  std::vector<SchedulerConfig> c;
  std::string err;
  ASSERT_TRUE(
      ParseSchedulerList("none,mq-deadline,kyber,bfq,bfq:low_latency=0,"
                         "mq-deadline:read_expire=250:fifo_batch=8,bfq:low_latency=0@as",
                         &c, &err))
      << err;
  ASSERT_EQ(c.size(), 7u);
  EXPECT_EQ(c[0], (SchedulerConfig{"none", {}, ""}));
  EXPECT_EQ(c[4], (SchedulerConfig{"bfq", {{"low_latency", "0"}}, ""}));
  EXPECT_EQ(c[5].tunables, (std::vector<std::pair<std::string, std::string>>{{"read_expire", "250"},
                                                                             {"fifo_batch", "8"}}));
  EXPECT_EQ(c[6], (SchedulerConfig{"bfq", {{"low_latency", "0"}}, "as"}));
}

TEST(SchedulerConfigTest, ShortCodesFollowThe2003Style) {
  std::vector<SchedulerConfig> c;
  std::string err;
  ASSERT_TRUE(ParseSchedulerList(
      "none,mq-deadline,kyber,bfq,bfq:low_latency=0,mq-deadline:read_expire=250:fifo_batch=8,"
      "bfq:slice_idle=0,bfq:low_latency=0@as,ssg",
      &c, &err))
      << err;
  std::vector<std::string> codes;
  for (const SchedulerConfig& x : c) codes.push_back(ShortCode(x));
  EXPECT_EQ(codes, (std::vector<std::string>{"none", "dl", "ky", "bfq", "bfq-ll0", "dl-re250-fb8",
                                             "bfq-si0", "as", "ssg"}));
  EXPECT_EQ(DisplayName(c[5]), "mq-deadline:read_expire=250:fifo_batch=8");
  EXPECT_EQ(DisplayName(c[7]), "bfq:low_latency=0");
}

TEST(SchedulerConfigTest, ToleratesSpacesAroundItems) {
  std::vector<SchedulerConfig> c;
  std::string err;
  ASSERT_TRUE(ParseSchedulerList(" none , bfq ", &c, &err)) << err;
  EXPECT_EQ(c.size(), 2u);
}

TEST(SchedulerConfigTest, RejectsBadInput) {
  EXPECT_EQ(ParseError(""), "empty scheduler list");
  EXPECT_EQ(ParseError("none,,bfq"), "empty item 2 in scheduler list 'none,,bfq'");
  EXPECT_EQ(ParseError("bfq,"), "empty item 2 in scheduler list 'bfq,'");
  EXPECT_EQ(ParseError("BFQ"), "bad scheduler name 'BFQ' in 'BFQ' (use only [a-z0-9_-])");
  EXPECT_EQ(ParseError("bfq:Low=1"), "bad name 'Low' in 'bfq:Low=1' (use only [a-z0-9_-])");
  EXPECT_EQ(ParseError("bfq:low_latency"),
            "bad setting 'low_latency' in 'bfq:low_latency' (want name=value)");
  EXPECT_EQ(ParseError("bfq:low_latency="), "bad value '' for low_latency in 'bfq:low_latency='");
  EXPECT_EQ(ParseError("bfq:a=1=2"), "bad setting 'a=1=2' in 'bfq:a=1=2' (want name=value)");
  EXPECT_EQ(ParseError("bfq::a=1"), "bad setting '' in 'bfq::a=1' (want name=value)");
  EXPECT_EQ(ParseError("bfq:a=1:a=2"), "tunable a given twice in 'bfq:a=1:a=2'");
  EXPECT_EQ(ParseError("none:a=1"), "scheduler none has no tunables: 'none:a=1'");
  EXPECT_EQ(ParseError("bfq@"), "bad code '' in 'bfq@' (use only [A-Za-z0-9_-])");
  EXPECT_EQ(ParseError("bfq@a@b"), "more than one '@' in 'bfq@a@b'");
  EXPECT_EQ(ParseError("bfq,bfq"), "'bfq' repeats code 'bfq' of 'bfq'; drop it or add @<code>");
  EXPECT_EQ(ParseError("bfq:slice_idle=0,bfq:strict_idle=0"),
            "'bfq:strict_idle=0' repeats code 'bfq-si0' of 'bfq:slice_idle=0'; drop it or add "
            "@<code>");
  EXPECT_EQ(ParseError("kyber,none@ky"),
            "'none@ky' repeats code 'ky' of 'kyber'; drop it or add "
            "@<code>");
}

TEST(SchedulerConfigTest, AllIsNotExpandedByTheParser) {
  std::vector<SchedulerConfig> c;
  std::string err;
  ASSERT_TRUE(ParseSchedulerList("all", &c, &err)) << err;
  EXPECT_EQ(c[0].scheduler, "all");
  std::vector<SchedulerConfig> all = ExpandAll({"none", "mq-deadline", "kyber", "bfq"});
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[1], (SchedulerConfig{"mq-deadline", {}, ""}));
}

TEST(SchedulerConfigTest, QueueAttrs) {
  std::vector<std::pair<std::string, std::string>> attrs;
  std::string err;
  ASSERT_TRUE(ParseQueueAttrs("read_ahead_kb=128,nr_requests=64", &attrs, &err)) << err;
  EXPECT_EQ(attrs, (std::vector<std::pair<std::string, std::string>>{{"read_ahead_kb", "128"},
                                                                     {"nr_requests", "64"}}));
  ASSERT_TRUE(ParseQueueAttrs("", &attrs, &err)) << err;
  EXPECT_TRUE(attrs.empty());
  EXPECT_FALSE(ParseQueueAttrs("a=1,a=2", &attrs, &err));
  EXPECT_EQ(err, "queue attribute a given twice");
  EXPECT_FALSE(ParseQueueAttrs("scheduler=bfq", &attrs, &err));
  EXPECT_FALSE(ParseQueueAttrs("a=1,", &attrs, &err));
  EXPECT_EQ(err, "empty item 2 in queue attributes 'a=1,'");
  EXPECT_FALSE(ParseQueueAttrs("iosched/x=1", &attrs, &err));
  EXPECT_FALSE(ParseQueueAttrs("max_sectors_kb=1 28", &attrs, &err));
}

// #45: a name or value the kernel refuses is refused before anything is made, naming the
// attributes or the range.
TEST(SchedulerConfigTest, QueueAttrNamesAndValuesAreCheckedUpFront) {
  using Attrs = std::vector<std::pair<std::string, std::string>>;
  std::string err;
  EXPECT_TRUE(CheckQueueAttrs({{"read_ahead_kb", "128"},
                               {"nr_requests", "64"},
                               {"wbt_lat_usec", "-1"},
                               {"rotational", "1"}},
                              &err))
      << err;
  EXPECT_FALSE(CheckQueueAttrs(Attrs{{"bogus_attr", "1"}}, &err));
  EXPECT_EQ(err.rfind("no queue attribute 'bogus_attr' to set (attributes: add_random, ", 0), 0u)
      << err;
  EXPECT_NE(err.find("read_ahead_kb"), std::string::npos);
  EXPECT_FALSE(CheckQueueAttrs(Attrs{{"read_ahead_kb", "-1"}}, &err));
  EXPECT_EQ(err, "read_ahead_kb=-1: expected a whole number, 0 or more");
  EXPECT_FALSE(CheckQueueAttrs(Attrs{{"rotational", "2"}}, &err));
  EXPECT_EQ(err, "rotational=2: expected a whole number, 0 or 1");
  EXPECT_FALSE(CheckQueueAttrs(Attrs{{"nomerges", "x"}}, &err));
  EXPECT_EQ(err, "nomerges=x: expected a whole number, 0 to 2");
  EXPECT_FALSE(CheckQueueAttrs(Attrs{{"nr_requests", "0"}}, &err));
  EXPECT_FALSE(CheckQueueAttrs(Attrs{{"wbt_lat_usec", "-2"}}, &err));
  EXPECT_FALSE(CheckQueueAttrs(Attrs{{"read_ahead_kb", "1.5"}}, &err));
  EXPECT_FALSE(CheckQueueAttrs(Attrs{{"read_ahead_kb", "-"}}, &err));
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

TEST(SchedulerConfigTest, UnknownSchedulersAndTunablesAreRefusedUpFront) {
  const std::vector<std::string> kernel = {"none", "mq-deadline", "kyber", "bfq"};
  auto check = [&](const std::string& list, std::string* err) {
    std::vector<SchedulerConfig> configs;
    EXPECT_TRUE(ParseSchedulerList(list, &configs, err)) << *err;
    return CheckSchedulersExist(configs, kernel, err);
  };
  std::string err;
  EXPECT_TRUE(
      check("none,mq-deadline:read_expire=250:fifo_batch=8,kyber:read_lat_nsec=2000000,"
            "bfq:low_latency=0:slice_idle=0",
            &err))
      << err;
  EXPECT_FALSE(check("foo", &err));
  EXPECT_EQ(err, "unknown scheduler 'foo' (it offers none, mq-deadline, kyber, bfq)");
  // A kernel built without bfq (seen: a 6.18 of 4 December 2026) refuses it as such.
  std::vector<SchedulerConfig> without_bfq;
  ASSERT_TRUE(ParseSchedulerList("mq-deadline,bfq:low_latency=0", &without_bfq, &err)) << err;
  EXPECT_FALSE(CheckSchedulersExist(without_bfq, {"none", "mq-deadline", "kyber"}, &err));
  EXPECT_EQ(err, "this kernel has no scheduler 'bfq' (it offers none, mq-deadline, kyber)");
  EXPECT_FALSE(check("bfq:low_latenzy=0", &err));
  EXPECT_NE(err.find("bfq has no tunable 'low_latenzy'"), std::string::npos) << err;
  EXPECT_NE(err.find("low_latency"), std::string::npos) << err;  // the valid names are listed
  EXPECT_FALSE(check("kyber:read_expire=1", &err));
  // #45: a value the kernel would refuse (Invalid argument at the first cell) or clamp.
  EXPECT_FALSE(check("mq-deadline:read_expire=abc", &err));
  EXPECT_EQ(err, "mq-deadline:read_expire=abc: expected a whole number, 0 to 2147483647");
  EXPECT_FALSE(check("mq-deadline:front_merges=2", &err));
  EXPECT_EQ(err, "mq-deadline:front_merges=2: expected a whole number, 0 or 1");
  EXPECT_FALSE(check("bfq:slice_idle=-1", &err));
  EXPECT_FALSE(check("bfq:low_latency=1.0", &err));
  EXPECT_FALSE(check("mq-deadline:async_depth=0", &err));
  EXPECT_FALSE(check("mq-deadline:read_expire=2147483648", &err));
  EXPECT_TRUE(check("mq-deadline:writes_starved=-2:async_depth=1", &err)) << err;
  EXPECT_TRUE(check("kyber:write_lat_nsec=10000000000", &err)) << err;
  // A scheduler this code does not know but the kernel offers: its tunables are the kernel's.
  std::vector<SchedulerConfig> configs;
  ASSERT_TRUE(ParseSchedulerList("cfq:slice_idle=0", &configs, &err)) << err;
  EXPECT_TRUE(CheckSchedulersExist(configs, {"cfq", "none"}, &err)) << err;
  // No listing at all (no blk-mq device): nothing to check against.
  ASSERT_TRUE(ParseSchedulerList("foo", &configs, &err)) << err;
  EXPECT_TRUE(CheckSchedulersExist(configs, {}, &err));
}

}  // namespace
}  // namespace elevbench
