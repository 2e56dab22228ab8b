// The user's fio job files placed on elevbench's target, and what is refused.

#include "scenarios/fiojobs/user_job_file.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace elevbench {
namespace {

JobPlacement PlacedOn(const std::string& dir, const std::string& device = "", bool writes = false) {
  JobPlacement p;
  p.target_dir = dir;
  p.device = device;
  p.allow_writes = writes;
  return p;
}

bool PlaceJobText(const std::string& text, const JobPlacement& p, std::string* out,
                  std::string* err) {
  UserJobFile file;
  return ParseUserJobFile(text, "db.fio", &file, err) &&
         PlaceUserJobFile(file, p, out, nullptr, err);
}

TEST(UserJobFileTest, FilesGoUnderTheTargetAndEveryJobGetsTheOverrides) {
  const std::string text =
      "; a database\n[global]\nioengine=libaio\ndirectory=data\nsize = 64m\n\n"
      "[log]\nrw=write\nfilename=log.0\n[table]\nrw=randread\nnumjobs=2\n"
      "[spill]\nrw=randwrite\ndirectory=tmp\n";
  UserJobFile file;
  std::string placed, err;
  ASSERT_TRUE(ParseUserJobFile(text, "db.fio", &file, &err)) << err;
  JobPlacement p = PlacedOn("/mnt/target");
  p.overrides = {{"runtime", "30"}, {"time_based", ""}};
  std::vector<std::string> dirs;
  ASSERT_TRUE(PlaceUserJobFile(file, p, &placed, &dirs, &err)) << err;
  EXPECT_EQ(dirs, (std::vector<std::string>{"/mnt/target/data", "/mnt/target/tmp"}));
  testing::ExpectMatchesGolden("fiojobs_placed.fio", placed);
}

TEST(UserJobFileTest, RefusesWhatReachesOutsideTheTargetWithOneLine) {
  const struct {
    std::string text;
    JobPlacement placement;
    const char* needle;
  } kCases[] = {
      {"[a]\nrw=read\nfilename=/etc/passwd\n", PlacedOn("/t"), "outside the target"},
      {"[a]\nrw=read\nfilename=../x\n", PlacedOn("/t"), "'..'"},
      {"[a]\nrw=read\ndirectory=/var\n", PlacedOn("/t"), "relative"},
      {"[a]\nrw=write\nfilename=/dev/sdb\n", PlacedOn("/t", "/dev/sdb"), "--allow-writes"},
      {"[a]\nrw=read\nfilename=/dev/sdc\n", PlacedOn("/t", "/dev/sdb"), "not --device /dev/sdb"},
      {"[a]\nrw=read\nexec_prerun=rm -rf /\n", PlacedOn("/t"), "exec_prerun is refused"},
      {"[a]\nioscheduler=bfq\n", PlacedOn("/t"), "switches the scheduler"},
      {"[a]\nwrite_lat_log=/tmp/x\n", PlacedOn("/t"), "outside the target"},
      {"[a]\nfilename=${HOME}/x\n", PlacedOn("/t"), "variables"},
      {"[a]\nioengine=external:/tmp/x.so\n", PlacedOn("/t"), "library"},
      {"include other.fio\n[a]\n", PlacedOn("/t"), "option before"},
      {"[a]\ninclude other.fio\n", PlacedOn("/t"), "include files"},
      {"rw=read\n", PlacedOn("/t"), "before the first [section]"},
      {"[global]\nrw=read\n", PlacedOn("/t"), "no job section"},
      {"[a\nrw=read\n", PlacedOn("/t"), "malformed section"},
      {"[a]\nrw read=x y\n", PlacedOn("/t"), "not an option line"},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.text);
    std::string out, err;
    EXPECT_FALSE(PlaceJobText(c.text, c.placement, &out, &err));
    EXPECT_NE(err.find(c.needle), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
}

TEST(UserJobFileTest, TheUsersOwnDeviceAndPathsInsideTheTargetAreAllowed) {
  std::string out, err;
  ASSERT_TRUE(
      PlaceJobText("[a]\nrw=read\nfilename=/dev/sdb\n", PlacedOn("/t", "/dev/sdb"), &out, &err))
      << err;
  EXPECT_NE(out.find("filename=/dev/sdb\n"), std::string::npos) << out;
  ASSERT_TRUE(PlaceJobText("[a]\nrw=write\nfilename=/dev/sdb\n", PlacedOn("/t", "/dev/sdb", true),
                           &out, &err));
  ASSERT_TRUE(PlaceJobText("[a]\nrw=write\nfilename=/t/x:y\n", PlacedOn("/t"), &out, &err)) << err;
  EXPECT_NE(out.find("filename=/t/x:/t/y\n"), std::string::npos) << out;
}

TEST(UserJobFileTest, OverridesAreCheckedToo) {
  std::pair<std::string, std::string> o;
  std::string err;
  ASSERT_TRUE(ParseFioOverride("runtime=30", &o, &err)) << err;
  EXPECT_EQ(o, (std::pair<std::string, std::string>{"runtime", "30"}));
  for (const char* bad : {"=3", "filename=/etc/x", "exec_postrun=x", "a b=1"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(ParseFioOverride(bad, &o, &err));
  }
}

}  // namespace
}  // namespace elevbench
