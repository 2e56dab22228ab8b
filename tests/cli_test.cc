// The command line as a user meets it: bad input gets one line on stderr and exit code 2.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

struct CliRun {
  int exit_code;
  std::string out;
  std::string err;
};

CliRun RunCli(const std::vector<std::string>& args) {
  const ProcessResult r = testing::RunElevbenchCli(args);
  return {r.exit_code, r.output, r.error_output};
}

void ExpectUsageError(const std::vector<std::string>& args, const std::string& needle) {
  CliRun r = RunCli(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "error must be one line: " << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

class CliTest : public ::testing::Test {
 protected:
  testing::ScopedTempDir temp_;
  const std::string dir_ = temp_.path();
};

TEST_F(CliTest, VersionAndHelp) {
  CliRun v = RunCli({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("elevbench"), std::string::npos);
  CliRun h = RunCli({"run", "--help"});
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.out.find("tiobench"), std::string::npos);  // the suites are listed
  CliRun t = RunCli({"run", "tiobench", "--help"});
  EXPECT_EQ(t.exit_code, 0);
  EXPECT_NE(t.out.find("--threads"), std::string::npos);
  // A suite's help points to the options every suite shares, which only `run --help` lists.
  for (const char* shared :
       {"elevbench run --help", "--emulated", "--schedulers", "--repetitions"}) {
    EXPECT_NE(t.out.find(shared), std::string::npos) << shared;
  }
  EXPECT_NE(t.out.find("MiB"), std::string::npos);        // --size says its unit
  EXPECT_NE(h.out.find("default 1"), std::string::npos);  // --repetitions says its default
}

TEST_F(CliTest, DiskProfilesPrintATable) {
  CliRun p = RunCli({"disk", "profiles"});
  EXPECT_EQ(p.exit_code, 0);
  EXPECT_EQ(p.out.rfind("Profile  ", 0), 0u) << p.out;
  EXPECT_NE(p.out.find("\nide-2003  "), std::string::npos);
  CliRun j = RunCli({"disk", "profiles", "--json"});
  EXPECT_EQ(j.exit_code, 0);
  EXPECT_EQ(j.out.rfind("[", 0), 0u);
}

TEST_F(CliTest, UnknownSuite) {
  ExpectUsageError({"run", "nosuchsuite", "--dir", dir_}, "unknown suite 'nosuchsuite'");
  ExpectUsageError({"run", "--dir", dir_}, "no suite given");
}

TEST_F(CliTest, ZeroThreads) {
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--threads", "0"}, "--threads");
}

TEST_F(CliTest, BadRepetitions) {
  for (const char* bad : {"0", "1001", "-3", "2x", "", "autox"}) {
    ExpectUsageError({"run", "tiobench", "--dir", dir_, "--repetitions", bad}, "--repetitions");
  }
  ExpectUsageError(
      {"run", "tiobench", "--dir", dir_, "--repetitions", "auto", "--max-repetitions", "2"},
      "--max-repetitions");
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--repetitions", "auto", "--ci-width", "0"},
                   "--ci-width");
}

// Every option's bad values, on a run that would build a scratch device: one line, exit 2, and
// nothing made (the results file is the first thing a run writes).
TEST_F(CliTest, BadValuesOfEveryRunOptionAreRefusedBeforeAnythingIsCreated) {
  const std::string out = dir_ + "/r.json";
  const struct {
    std::vector<std::string> args;
    const char* needle;
  } kCases[] = {
      {{"tiobench", "--schedulers", "foo"}, "unknown scheduler 'foo'"},
      {{"tiobench", "--schedulers", "mq-deadline:read_expir=1"}, "no tunable 'read_expir'"},
      {{"tiobench", "--schedulers", "none:x=1"}, "--schedulers"},
      // #45: the kernel refused this at every cell, after the disk was built.
      {{"tiobench", "--schedulers", "mq-deadline:read_expire=abc", "--lanes", "2"},
       "mq-deadline:read_expire=abc: expected a whole number"},
      {{"tiobench", "--schedulers", "bfq,,dl"}, "--schedulers"},
      {{"tiobench", "--schedulers", "bfq@a,kyber@a"}, "--schedulers"},
      {{"tiobench", "--queue", "scheduler=bfq"}, "--queue"},
      {{"tiobench", "--queue", "read_ahead_kb"}, "--queue"},
      // #45: names and values the kernel would refuse at the first write (--lanes 2: refused
      // at the end of step 1 should this check go, so that nothing is made even then).
      {{"tiobench", "--queue", "bogus_attr=1", "--lanes", "2"},
       "--queue: no queue attribute 'bogus_attr'"},
      {{"tiobench", "--queue", "read_ahead_kb=-1", "--lanes", "2"},
       "--queue: read_ahead_kb=-1: expected"},
      {{"tiobench", "--fs", "btrfs"}, "--fs"},
      {{"tiobench", "--format", "xml"}, "--format"},
      {{"tiobench", "--timeout", "-1"}, "--timeout"},
      {{"tiobench", "--seed", "abc"}, "--seed"},
      {{"tiobench", "--repetitions", "0"}, "--repetitions"},
      {{"tiobench", "--threads", "0"}, "--threads"},
      {{"tiobench", "--threads", "x"}, "--threads"},
      {{"tiobench", "--threads", "1,4,1"}, "--threads: '1' is listed twice"},
      // --controls (#46): the words, a suite without roles, the later slices.
      {{"probes", "--controls", "ionice:load=fast"}, "--controls: ionice: bad class 'fast'"},
      {{"probes", "--controls", "none,none"}, "--controls: 'none' is given twice"},
      {{"probes", "--controls", "iocost"}, "--controls: iocost: "},
      {{"probes", "--controls", "weight:probe=1000,load=100"}, "--controls: weight: "},
      {{"tiobench", "--controls", "ionice:load=idle"},
       "--controls: tiobench has no load and probe to control"},
      {{"command", "--controls", "ionice:load=idle", "--", "true"},
       "--controls: command has no load and probe to control"},
      {{"nickbench", "--controls", "ionice:load=idle", "--lanes", "2"},
       "--controls cannot run in --lanes: a control's cgroups and io.cost switch are made once"},
      {{"tiobench", "--size", "-1"}, "size"},
      {{"tiobench", "--block", "0"}, "block"},
      {{"nickbench", "--benches", "7"}, "bench"},
      {{"nickbench", "--size", "0"}, "size"},
      {{"probes", "--probes", "cat-during-lunch"}, "cat-during-lunch"},
      {{"probes", "--warmup", "-5"}, "warmup"},
      // #29: these reached the target step before.
      {{"tiobench", "--random", "0"},
       "--random: expected a whole number, 1 or more operations, not '0'"},
      {{"tiobench", "--random", "3", "--threads", "1,4"},
       "--random 3: fewer random operations than threads (4)"},
      {{"tiobench", "--device", "nosuchdisk0"}, "--device nosuchdisk0: no such disk"},
      {{"tiobench", "--device", "../sda"}, "no such disk"},
      {{"tiobench", "--seed", "-1"}, "--seed"},
      {{"tiobench", "--schedulers", ""}, "--schedulers: empty"},
      {{"tiobench", "--schedulers", " "}, "--schedulers: empty"},
      {{"tiobench", "--max-repetitions", "5"},
       "--max-repetitions applies only with --repetitions auto"},
      {{"tiobench", "--ci-width", "3"}, "--ci-width applies only with --repetitions auto"},
      {{"tiobench", "--disk-set", "rpm=5400"}, "--disk-set applies to an emulated disk"},
      {{"tiobench", "--keep-wbt", "--threads", "1"}, "--keep-wbt applies to an emulated disk"},
      {{"probes", "--lanes", "2"}, "probes does not run in lanes"},
      {{"fio", testing::TestDataPath("fixtures/fiojobs/two-jobs.fio"), "--lanes", "2"},
       "fio does not run in lanes: a job file sets its own jobs"},
      {{"replay", "--trace", testing::TestDataPath("fixtures/trace/small.trace"), "--lanes", "2"},
       "replay does not run in lanes: it replays onto a raw device"},
      {{"replay", "--trace", testing::TestDataPath("fixtures/trace/small.trace"), "--fresh-fs"},
       "--fresh-fs: run replay works on a raw device, which has no filesystem to make again"},
      {{"contest", "--lanes", "x"}, "--lanes"},
      // #45: NaN passed every range check, and a whole number's error named no whole number.
      {{"tiobench", "--timeout", "nan"}, "--timeout: expected 0 to 604800 seconds, not 'nan'"},
      {{"tiobench", "--timeout", "inf"}, "--timeout: expected 0 to 604800 seconds, not 'inf'"},
      {{"tiobench", "--repetitions", "auto", "--ci-width", "nan"}, "--ci-width"},
      {{"probes", "--warmup", "nan"}, "--warmup: expected 0 to 3600 seconds, not 'nan'"},
      {{"visave", "--interval", "nan"}, "--interval"},
      {{"visave", "--interval", "-inf"}, "--interval"},
      {{"replay", "--trace", testing::TestDataPath("fixtures/trace/small.trace"), "--speed", "nan"},
       "--speed"},
      {{"tiobench", "--seed", "1.5"}, "--seed: expected a whole number, 0 or more, not '1.5'"},
      {{"tiobench", "--size", "1e3"},
       "--size: expected a whole number from 1 to 16777216 MiB, not '1e3'"},
      {{"tiobench", "--identifier", "a\nb"}, "--identifier: a row label takes no control"},
  };
  for (const auto& c : kCases) {
    std::vector<std::string> args = {"run"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    for (const char* a : {"--scratch", "1G", "--out"}) args.push_back(a);
    args.push_back(out);
    SCOPED_TRACE(c.args[0] + " " + c.args[1] + " " + c.args[2]);
    ExpectUsageError(args, c.needle);
    EXPECT_FALSE(std::filesystem::exists(out));
  }
  // The target options themselves.
  const struct {
    std::vector<std::string> args;
    const char* needle;
  } kTargets[] = {
      {{"--scratch", "1Q"}, "--scratch"},
      {{"--scratch", "1G", "--dir", "/tmp"}, "alternatives"},
      {{"--emulated", "nosuch-disk"}, "nosuch-disk"},
      {{"--emulated", "ide-2003:1Q"}, "1Q"},
      {{"--emulated", "ide-2003", "--disk-set", "warp_speed=9"}, "--disk-set"},
      {{"--dir", "/nonexistent/elevbench"}, "--dir"},
      {{"--machine", "p3-1999"}, "unknown profile 'p3-1999'"},
      {{"--machine", ""}, "--machine: empty value"},
      {{"--machine", "ram=12Q"}, "bad size '12Q'"},
      {{"--machine", "ram=256M,disk=1"}, "unknown key 'disk'"},
      {{"--machine", "cpus=0"}, "at least 1 CPU"},
      {{"--machine", "cpus=9999"}, "online CPU(s)"},
      {{"--machine", "ram=32M"}, "below the 64 MiB"},
      {{"--machine", "ram=1000T"}, "more than this machine's"},
      {{"--machine", "ram=64K"}, "ram=64 KiB is below the 64 MiB"},
      // #29: silently ignored, or a disk larger than the one emulated.
      {{"--dir", "/tmp", "--fs", "xfs"}, "--fs applies to a device elevbench makes"},
      {{"--dir", "/tmp", "--keep-wbt"}, "--keep-wbt applies to a device elevbench makes"},
      {{"--dir", "/tmp", "--fresh-fs"},
       "--fresh-fs applies to a device elevbench makes (--emulated, --scratch), not to --dir"},
      {{"--dir", "/tmp", "--disk-set", "rpm=5400"}, "--disk-set applies to a device"},
      {{"--emulated", "ide-2003:64G"}, "larger than the 40 GB disk it emulates"},
      {{"--emulated", "ide-2003:1G", "--disk-set", "capacity_bytes=500000000", "--size", "100"},
       "larger than the 0.5 GB disk"},
      {{"--lanes", "two"}, "--lanes: expected a number of lanes"},
      {{"--lanes", "0", "--emulated", "ide-2003"}, "--lanes: expected a number of lanes"},
      {{"--lanes", "2"}, "--lanes 2 needs --emulated"},
      {{"--lanes", "9999", "--emulated", "ide-2003"}, "--lanes 9999"},
      // #45: with no target at all (as root: a scratch device); --lanes 2 refuses it otherwise.
      {{"--keep-wbt", "--lanes", "2"}, "--keep-wbt applies to an emulated disk: give --emulated"},
      // --shard I/N (docs/ci.md): its words, and the plan it cuts the same on every box.
      {{"--shard", "0/2", "--seed", "1"}, "--shard: expected I/N"},
      {{"--shard", "3/2", "--seed", "1"}, "--shard: expected I/N"},
      {{"--shard", "1/0", "--seed", "1"}, "--shard: expected I/N"},
      {{"--shard", "x", "--seed", "1"}, "--shard: expected I/N, the I-th of N shards"},
      {{"--shard", "1/2"}, "--shard 1/2 needs --seed (every shard must deal the same plan"},
      {{"--shard", "1/2", "--seed", "1", "--repetitions", "auto"},
       "--shard 1/2 needs a fixed --repetitions"},
      {{"--shard", "1/2", "--seed", "1", "--lanes", "2"},
       "--shard 1/2 runs serially: give --lanes or --shard, not both"},
  };
  for (const auto& c : kTargets) {
    std::vector<std::string> args = {"run", "tiobench"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.push_back("--out");
    args.push_back(out);
    SCOPED_TRACE(c.args[0] + " " + c.args[1]);
    ExpectUsageError(args, c.needle);
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

// #45, a newcomer's slips: each refused in one line with exit 2, before anything is made. Each
// case also gives --lanes 2 without --emulated, refused at the end of step 1, so that should its
// check go the run is still refused (with another line) and starts nothing.
TEST_F(CliTest, NewcomerSlipsAreRefusedInOneLineBeforeAnythingIsCreated) {
  const std::string out = dir_ + "/r.json";
  const std::string missing = dir_ + "/nonexistent";
  const struct {
    std::vector<std::string> args;
    std::string needle;
  } kCases[] = {
      {{"tiobench", "extra_positional"},
       "unexpected word 'extra_positional' (tiobench's options go after the suite's name"},
      {{"tiobench", "--out", missing + "/x.json"},
       "--out " + missing + "/x.json: no folder " + missing + " to write it in"},
      {{"tiobench", "--db", missing + "/h.db"},
       "--db " + missing + "/h.db: no folder " + missing + " to write it in"},
      {{"tiobench", "--identifier", ""}, "--identifier: empty"},
      {{"tiobench", "--out", ""}, "--out: empty"},
      {{"post-2003", "--parts", "bogus"}, "--parts"},
      {{"tiobench", "--size", "99999999999999999999"},
       "--size: expected a whole number from 1 to 16777216 MiB, not '99999999999999999999'"},
      {{"tiobench", "--size", "0"},
       "--size: expected a whole number from 1 to 16777216 MiB, not '0'"},
      {{"tiobench", "--numruns", "0"},
       "--numruns: expected a whole number from 1 to 1000 runs, not '0'"},
      {{"tiobench", "--out", dir_},
       "--out " + dir_ + " is a directory; give a file name such as " + dir_ + "/run.json"},
      {{"tiobench", "--guest-clock", "wall"},
       "--guest-clock is the clock of --kernels' guests; this run boots none"},
  };
  for (const auto& c : kCases) {
    std::vector<std::string> args = {"run"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    for (const std::string& a :
         {std::string("--dir"), dir_, std::string("--lanes"), std::string("2")}) {
      args.push_back(a);
    }
    if (c.args[1] != "--out") args.insert(args.end(), {"--out", out});
    SCOPED_TRACE(c.args[0] + " " + c.args[1]);
    ExpectUsageError(args, c.needle);
    EXPECT_FALSE(std::filesystem::exists(out));
    EXPECT_FALSE(std::filesystem::exists(missing));
  }
  // A name that names no disk is "no such disk" for every command that takes --device (replay
  // and capture said "not a whole disk"); refused by the old words too, so nothing starts.
  const std::string trace = testing::TestDataPath("fixtures/trace/small.trace");
  ExpectUsageError({"run", "replay", "--trace", trace, "--device", "nosuchdisk0", "--out", out},
                   "--device nosuchdisk0: no such disk");
  ExpectUsageError({"capture", "--device", "nosuchdisk0", "--duration", "1", "--out", out},
                   "--device nosuchdisk0: no such disk");
  ExpectUsageError({"capture", "--scratch", "1G", "--out", missing + "/t.trace", "--", "true"},
                   "--out " + missing + "/t.trace: cannot write in " + missing);
  ExpectUsageError({"capture", "--scratch", "1G", "--duration", "5", "--out", missing + "/t.trace",
                    "--", "true"},
                   "--duration applies to a capture of --device without a command");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(missing));
}

// --kernels' own words, refused before root is asked for, the cache read or a guest booted.
TEST_F(CliTest, KernelsWordsAreRefusedBeforeAnyGuest) {
  const std::string out = dir_ + "/r.json";
  ExpectUsageError(
      {"run", "nickbench", "--emulated", "ide-2003", "--kernels",
       "debian:linux-image-6.1.0-50-cloud-amd64", "--guest-clock", "sometimes", "--out", out},
      "--guest-clock: expected instructions or wall, not 'sometimes'");
  ExpectUsageError({"run", "nickbench", "--dir", dir_, "--kernels",
                    "debian:linux-image-6.1.0-50-cloud-amd64", "--out", out},
                   "--kernels runs each kernel in a guest, which sees no host disk or directory");
  EXPECT_FALSE(std::filesystem::exists(out));
}

// §4.2: a package name apt does not know, or no package's shape, is one line of ours (not apt's
// "Couldn't find any package by regex"), before the cache is made; §4.3: `kernels fetch` takes
// no @LABEL (a label names a run's rows, not a cache entry).
TEST_F(CliTest, KernelPackagesAreRefusedInOneLineBeforeTheCacheIsMade) {
  if (!ProgramInPath("apt-cache")) GTEST_SKIP() << "needs apt-cache";
  const std::string cache = dir_ + "/cache";
  testing::ScopedEnv env("ELEVBENCH_KERNEL_CACHE", cache);
  const std::string out = dir_ + "/r.json";
  ExpectUsageError({"run", "tiobench", "--emulated", "ide-2003", "--kernels",
                    "debian:linux-image-0.0.0-nosuch-amd64", "--out", out},
                   "elevbench: --kernels: debian:linux-image-0.0.0-nosuch-amd64: no such kernel "
                   "package in this machine's Debian package lists (apt-cache search");
  ExpectUsageError({"run", "tiobench", "--emulated", "ide-2003", "--kernels", "debian:linux-image-",
                    "--out", out},
                   "elevbench: --kernels: 'debian:linux-image-' names no kernel image package");
  ExpectUsageError({"kernels", "fetch", "debian:linux-image-0.0.0-nosuch-amd64"},
                   "elevbench: kernels fetch: debian:linux-image-0.0.0-nosuch-amd64: no such "
                   "kernel package");
  ExpectUsageError({"kernels", "fetch", "debian:linux-image-0.0.0-nosuch-amd64@mine"},
                   "elevbench: kernels fetch: 'debian:linux-image-0.0.0-nosuch-amd64@mine': "
                   "@mine would label a run's rows, and kernels fetch has none");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".fio"));
  EXPECT_FALSE(std::filesystem::exists(cache));
}

// run command's own refusals (#31): the program comes after `--`, so the common options go
// before it; one line, exit 2, nothing made.
TEST_F(CliTest, RunCommandRefusesBadInputBeforeAnythingIsCreated) {
  const std::string out = dir_ + "/r.json";
  const struct {
    std::vector<std::string> options;
    std::vector<std::string> program;
    const char* needle;
  } kCases[] = {
      {{}, {}, "run command needs the program after --"},
      {{}, {"--"}, "run command needs the program after --"},
      {{}, {"--", ""}, "the program's name is empty"},
      {{"--load", "seq-lunch"}, {"--", "true"}, "--load: unknown load 'seq-lunch'"},
      {{"--load", ""}, {"--", "true"}, "--load: empty value"},
      {{"--load", "command"}, {"--", "true"}, "--load command needs the command"},
      {{"--load-command", " "}, {"--", "true"}, "--load-command: empty value"},
      {{"--load", "seq-read", "--load-command", "ls"}, {"--", "true"}, "are alternatives"},
      {{"--timeout", "0"}, {"--", "true"}, "--timeout: run command needs a limit"},
      {{"--timeout", "-5"}, {"--", "true"}, "--timeout"},
      {{"--warmup", "-1"}, {"--", "true"}, "--warmup"},
      {{"--load-size", "0"}, {"--", "true"}, "--load-size"},
      {{}, {"--", "no-such-program-elevbench"}, "'no-such-program-elevbench' not found in PATH"},
  };
  for (const auto& c : kCases) {
    std::vector<std::string> args = {"run", "command", "--scratch", "1G", "--out", out};
    args.insert(args.end(), c.options.begin(), c.options.end());
    args.insert(args.end(), c.program.begin(), c.program.end());
    SCOPED_TRACE(c.needle);
    ExpectUsageError(args, c.needle);
    EXPECT_FALSE(std::filesystem::exists(out));
  }
  // #45: refused in the suite's own checks, after the target's: --dir, and --schedulers nosuch
  // that refuses the run in step 1 should the check go.
  for (const auto& [option, needle] : std::vector<std::pair<std::string, std::string>>{
           {"none", "--load-size applies to a fio load"},
           {"command", "not to --load command"},
           {"none-warmup", "--warmup applies to a background load (--load or --load-command)"}}) {
    const bool warmup = option == "none-warmup";  // #45, fourth pass: --warmup without a load
    std::vector<std::string> args = {
        "run",    "command", "--dir", dir_,     "--schedulers",
        "nosuch", "--out",   out,     "--load", warmup ? "none" : option};
    args.insert(args.end(), {warmup ? "--warmup" : "--load-size", warmup ? "3" : "5"});
    if (option == "command") args.insert(args.end(), {"--load-command", "true"});
    args.insert(args.end(), {"--", "true"});
    ExpectUsageError(args, needle);
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

// cmake --install writes its manifest into the build directory, which in CI only root (its
// owner) may write: a root test, though it changes nothing of the machine.
using CliInstallRootTest = CliTest;

TEST_F(CliInstallRootTest, InstallPutsTheBinaryItsManPageAndDocsInPlace) {
  const std::filesystem::path build_dir = std::filesystem::path(ELEVBENCH_BINARY).parent_path();
  if (!std::filesystem::exists(build_dir / "elevbench.1")) {
    GTEST_SKIP() << "no man page in " << build_dir << " (help2man was missing at build time)";
  }
  if (access(build_dir.c_str(), W_OK) != 0) {
    GTEST_SKIP() << "cmake --install writes install_manifest.txt into " << build_dir
                 << ", which this user cannot write";
  }
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(
      RunProcess({"cmake", "--install", build_dir.string(), "--prefix", dir_ + "/p"}, {}, &r, &err))
      << err;
  ASSERT_EQ(r.exit_code, 0) << r.error_output;
  EXPECT_EQ(access((dir_ + "/p/bin/elevbench").c_str(), X_OK), 0);
  const std::string man = testing::ReadTestFile(dir_ + "/p/share/man/man1/elevbench.1");
  EXPECT_NE(man.find(".TH ELEVBENCH"), std::string::npos);
  EXPECT_NE(man.find("elevbench compare"), std::string::npos);  // subcommands are in the page
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/p/share/doc/elevbench/README.md"));
  const CliRun version = RunCli({"--version"});
  ProcessResult installed;
  ASSERT_TRUE(RunProcess({dir_ + "/p/bin/elevbench", "--version"}, {}, &installed, &err)) << err;
  EXPECT_EQ(installed.output, version.out);
}

TEST_F(CliTest, NegativeSize) {
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--size", "-1"}, "size");
}

TEST_F(CliTest, MissingDirectory) {
  ExpectUsageError({"run", "tiobench", "--dir", dir_ + "/does-not-exist"}, "--dir");
}

TEST_F(CliTest, DirectoryThatIsAFile) {
  const std::string file = dir_ + "/file";
  std::ofstream(file) << "x";
  ExpectUsageError({"run", "tiobench", "--dir", file}, "not a writable directory");
}

TEST_F(CliTest, UnwritableDirectory) {
  if (geteuid() == 0) GTEST_SKIP() << "root can write to a mode-0555 directory";
  const std::string ro = dir_ + "/ro";
  std::filesystem::create_directory(ro);
  std::filesystem::permissions(
      ro, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  ExpectUsageError({"run", "tiobench", "--dir", ro}, "not a writable directory");
}

TEST_F(CliTest, MissingResultsFile) {
  ExpectUsageError({"report", dir_ + "/nope.json"}, "nope.json");
}

TEST_F(CliTest, ResultsFileThatIsNotJson) {
  std::ofstream(dir_ + "/bad.json") << "{ not json";
  ExpectUsageError({"report", dir_ + "/bad.json"}, "not valid JSON");
  ExpectUsageError({"report", dir_}, "is a directory, not a results file");
}

// --trace-requests takes its three words only (CLI11 turns them into the mode), and an error
// about the mode names it by its word.
TEST_F(CliTest, TraceRequestsTakesItsWords) {
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--trace-requests", "sometimes"},
                   "--trace-requests");
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--trace-requests", "full"},
                   geteuid() == 0 ? "--trace-requests full traces a device elevbench makes"
                                  : "--trace-requests full needs root (tracefs)");
}

// A refused command makes nothing: no results/ in the working directory, no history database.
TEST_F(CliTest, RefusedCommandsLeaveNothingBehind) {
  ProcessOptions opts;
  opts.working_directory = dir_;
  opts.timeout_seconds = 60;
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(RunProcess(
      {ELEVBENCH_BINARY, "run", "tiobench", "--dir", dir_, "--trace-requests", "summary"}, opts, &r,
      &err))
      << err;
  EXPECT_EQ(r.exit_code, 2) << r.error_output;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/results"));
  ExpectUsageError({"history", "import", dir_ + "/nope.json", "--db", dir_ + "/h.db"}, "nope.json");
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/h.db"));
}

// #45: a run refused for a --queue name or value, or (as root) for switching the disk under
// --dir without --device, leaves the directory as it was: no results/, no <out>.fio/. Each
// case is also refused at the end of step 1 (--lanes 2 without --emulated, a disk larger than
// it emulates), so that a regression of the check fails here without making anything.
TEST_F(CliTest, ARefusedRunLeavesTheDirectoryAsItWas) {
  const std::string run_dir = dir_ + "/run";
  std::filesystem::create_directory(run_dir);
  std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--queue", "bogus_attr=1", "--dir", run_dir, "--lanes", "2"}, "--queue: no queue"},
      {{"--queue", "read_ahead_kb=-1", "--emulated", "ide-2003:64G"}, "--queue: read_ahead_kb"},
  };
  if (geteuid() == 0) {  // as root the disk under --dir would be switched: refused in step 1
    cases.push_back({{"--schedulers", "mq-deadline", "--dir", run_dir, "--lanes", "2"},
                     "refusing to change the queue"});
  }
  for (const auto& [c, needle] : cases) {
    // In dir_, with the default folder results/ (the only one a run makes, #45).
    std::vector<std::string> args = {ELEVBENCH_BINARY, "run", "tiobench"};
    args.insert(args.end(), c.begin(), c.end());
    args.insert(args.end(), {"--out", "results/r.json"});
    SCOPED_TRACE(c[0] + " " + c[1]);
    ProcessOptions opts;
    opts.working_directory = dir_;
    opts.timeout_seconds = 60;
    ProcessResult r;
    std::string err;
    ASSERT_TRUE(RunProcess(args, opts, &r, &err)) << err;
    EXPECT_EQ(r.exit_code, 2) << r.error_output;
    EXPECT_EQ(r.error_output.find('\n'), r.error_output.size() - 1) << r.error_output;
    EXPECT_NE(r.error_output.find(needle), std::string::npos) << r.error_output;
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/results"));
    EXPECT_TRUE(std::filesystem::is_empty(run_dir));
  }
}

TEST_F(CliTest, ReportOfSeveralFilesInEveryGenericFormat) {
  const std::string tio = testing::TestDataPath("golden/results_small.json");
  const std::string nick = testing::TestDataPath("golden/nickbench_small.json");
  for (const char* format : {"md", "csv", "csv-summary", "html", "json", "nick"}) {
    CliRun r = RunCli({"report", tio, nick, "--format", format});
    EXPECT_EQ(r.exit_code, 0) << format << ": " << r.err;
    EXPECT_NE(r.out.find("nickbench"), std::string::npos) << format;
  }
  ExpectUsageError({"report", tio, "--format", "xml"}, "unknown --format 'xml'");
  ExpectUsageError({"report", tio, nick, "--format", "tiobench"}, "nickbench_small.json");
  ExpectUsageError({"report", tio, dir_ + "/nope.json", "--format", "md"}, "nope.json");
}

TEST_F(CliTest, BadFormatAndBadSchedulerList) {
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--format", "xml"}, "--format");
  ExpectUsageError({"run", "tiobench", "--dir", dir_, "--schedulers", "bfq:=1"}, "--schedulers");
}

TEST_F(CliTest, DevicesListsBlockDevices) {
  CliRun table = RunCli({"devices"});
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("SCHEDULERS"), std::string::npos);
  CliRun json = RunCli({"devices", "--json"});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  auto parsed = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded());
  EXPECT_TRUE(parsed.is_array());
}

TEST_F(CliTest, FileSetLargerThanTheDevice) {
  ExpectUsageError({"run", "tiobench", "--scratch", "512M", "--size", "1000"}, "does not fit");
  ExpectUsageError({"run", "tiobench", "--emulated", "ide-2003:1G", "--size", "2000"},
                   "does not fit");
}

// #45, fourth pass: a job file fio refuses is named with fio's reason, the first line of its
// stderr, where the line was its last ("fio: job j dropped").
TEST_F(CliTest, AJobFileFioRefusesIsNamedWithFiosReason) {
  if (!ProgramInPath("fio")) GTEST_SKIP() << "fio is not installed (scripts/install-deps)";
  const struct {
    const char* option;
    const char* reason;
  } kCases[] = {{"bogusopt=1", "fio rejects it: Bad option <bogusopt=1>"},
                {"rw=bogus", "fio rejects it: failed parsing rw=bogus"}};
  for (const auto& c : kCases) {
    const std::string job = dir_ + "/bad.fio";
    std::ofstream(job) << "[j]\nsize=1m\n" << c.option << "\n";
    ExpectUsageError({"run", "fio", job, "--dir", dir_, "--out", dir_ + "/r.json"}, c.reason);
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/r.json"));
  }
}

// #45, fourth pass: a directory given as a job file was "no job section".
TEST_F(CliTest, ADirectoryGivenAsAJobFileIsNamedSo) {
  ExpectUsageError({"run", "fio", dir_, "--dir", dir_, "--out", dir_ + "/r.json"},
                   dir_ + " is a directory, not a fio job file");
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/r.json"));
}

TEST_F(CliTest, UnknownSubcommand) {
  ExpectUsageError({"frobnicate"}, "unknown subcommand 'frobnicate' (one of: ");
}

// #45, third pass: an override refused names the flag as typed and its syntax, where `--fio-set
// bogus` named the job file fio rejected, `run fio --fio-set a=1 FILE` took FILE as a second
// override ("needs job files"), and `disk serve --disk-set bogus` said "--set". Each is refused
// in either spelling, so that nothing starts should the fix go.
TEST_F(CliTest, AnOverrideRefusedNamesItsFlag) {
  const std::string out = dir_ + "/r.json";
  const std::string job = testing::TestDataPath("fixtures/fiojobs/two-jobs.fio");
  ExpectUsageError({"run", "fio", job, "--fio-set", "bogus", "--scratch", "1G", "--out", out},
                   "--fio-set bogus: fio rejects it");
  ExpectUsageError({"run", "fio", job, "--fio-set", "bogus", "--scratch", "1G", "--out", out},
                   "give KEY=VALUE with an option of fio's job files, e.g. runtime=30");
  ExpectUsageError({"run", "fio", "--fio-set", "bogus", job, "--scratch", "1G", "--out", out},
                   "--fio-set bogus: fio rejects it");
  EXPECT_FALSE(std::filesystem::exists(out));
  const std::string missing = dir_ + "/nonexistent";
  for (const char* flag : {"--disk-set", "--set"}) {
    ExpectUsageError(
        {"disk", "serve", "--backing", missing + "/b", "--mount", missing + "/m", flag, "bogus"},
        std::string(flag) + ": disk override 'bogus' is not key=value (e.g. rpm=5400");
  }
  EXPECT_FALSE(std::filesystem::exists(missing));
}

// #45, fourth pass: a backing or a mount point that cannot be is bad input (exit 2, one line)
// before the daemon starts, where the daemon failed with exit 1.
TEST_F(CliTest, DiskServeRefusesBadPathsUpFront) {
  const std::string image = dir_ + "/disk.img", empty = dir_ + "/empty.img";
  std::ofstream(image) << "x";
  std::ofstream(empty).flush();
  const std::string missing = dir_ + "/nonexistent";
  const struct {
    std::string backing, mount, needle;
  } kCases[] = {
      {missing + ".img", dir_, ": no such file"},
      {dir_, dir_, "--backing " + dir_ + ": is a directory"},
      {empty, dir_, ": is not a non-empty regular file"},
      {image, missing, "--mount " + missing + ": no such directory"},
      {image, image, "--mount " + image + ": is not a directory"},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.backing + " " + c.mount);
    ExpectUsageError({"disk", "serve", "--backing", c.backing, "--mount", c.mount}, c.needle);
  }
}

// `disk calibrate`'s bad input is refused in one line with exit 2 before anything is made.
TEST_F(CliTest, DiskCalibrateRefusesBadInputUpFront) {
  ExpectUsageError({"disk", "calibrate", "nosuch"}, "unknown");
  ExpectUsageError({"disk", "calibrate", "ide-2003:1Q"}, "disk calibrate: --emulated");
  ExpectUsageError({"disk", "calibrate", "ide-2003:1M"}, "at least 64M");
  ExpectUsageError({"disk", "calibrate", "ide-2003", "--disk-set", "bogus"},
                   "--disk-set: disk override 'bogus' is not key=value");
  ExpectUsageError({"disk", "calibrate", "ide-2003", "--disk-set", "rpm=-3"}, "rpm");
  ExpectUsageError({"disk", "calibrate", "ide-2003", "--runtime", "0"}, "--runtime");
  ExpectUsageError({"disk", "calibrate"}, "profile");
}

}  // namespace
}  // namespace elevbench
