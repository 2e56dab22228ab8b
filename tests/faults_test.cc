// Faults survived (issue #18, docs/reliability.md): real runs on devices the run makes, with a
// fault injected from outside, each checked for what the user gets (exit code, one line, the
// results file) and for a machine left as it was found. Root only (loop devices, FUSE, mounts).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "fault_run.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

class FaultsRootTest : public FaultRunFixture {};

// The emulated disk fails every request after N MB: the cell in which it happens fails with
// that cause, the next cells still run (and fail: the filesystem is gone), exit 1, the results
// file keeps every cell, and the stack comes down.
TEST_F(FaultsRootTest, EmulatedDiskEioFailsTheCellAndTheNextCellsStillRun) {
  if (!HaveFuse()) GTEST_SKIP() << "needs /dev/fuse";
  // mkfs and the mount move ~1.3 MB of a 512 MiB ext4 (lazy init); each 8 MB cell ~18.4 MB: the
  // third cell meets the fault.
  const FaultRun run = Run({"tiobench", "--emulated", "ide-2003:512M", "--disk-set",
                            "fail_after_mb=45", "--schedulers", "mq-deadline,none", "--size", "8",
                            "--threads", "1", "--random", "200", "--repetitions", "3"});
  EXPECT_EQ(run.exit_code, 1) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("I/O error on the emulated disk after 45 MB"), std::string::npos)
      << run.stderr_text;
  const nlohmann::json j = Results();
  std::map<std::string, size_t> statuses = CellStatuses(j);
  EXPECT_EQ(j["cells"].size(), 6u) << "every planned cell ran";
  EXPECT_EQ(statuses["ok"], 2u) << run.stderr_text;
  EXPECT_EQ(statuses["failed"], 4u);
  EXPECT_NE(CellErrorWith(j, "I/O error on the emulated disk after 45 MB"), "");
  size_t ok_cells = statuses["ok"];
  EXPECT_EQ(j["records"].size(), ok_cells * 4) << "records only for the cells that finished";
  ExpectCleanMachine();
}

// The disk's daemon is SIGKILLed in the middle of a cell: the run notices within seconds (not at
// fio's timeout), says how it died, restores and exits 1.
TEST_F(FaultsRootTest, ASigkilledDiskDaemonStopsTheRunWithinSeconds) {
  if (!HaveFuse()) GTEST_SKIP() << "needs /dev/fuse";
  pid_t daemon = 0;
  const FaultRun run =
      Run({"tiobench", "--emulated", "ide-2003:512M", "--schedulers",
           "mq-deadline," + testing::SecondLiveScheduler(), "--size", "64", "--threads", "1,2",
           "--repetitions", "2", "--timeout", "600"},
          [&](const std::string& line, pid_t) {
            if (line.find("cell 2/") == std::string::npos) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(500));  // inside its fio
            daemon = JournaledDaemonPid();
            return daemon > 0 && kill(daemon, SIGKILL) == 0;
          });
  ASSERT_GT(daemon, 0) << run.stderr_text;
  EXPECT_EQ(run.exit_code, 1) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("elevbench: the emulated disk daemon died (signal 9)"),
            std::string::npos)
      << run.stderr_text;
  EXPECT_LT(run.seconds_after_fault, 30) << "noticed late: " << run.stderr_text;
  const nlohmann::json j = Results();
  EXPECT_FALSE(j.value("complete", true));
  EXPECT_EQ(CellErrorWith(j, "the emulated disk daemon died (signal 9)"),
            "the emulated disk daemon died (signal 9)");
  EXPECT_GE(CellStatuses(j)["ok"], 1u);
  ExpectCleanMachine();
}

// Someone else SIGKILLs the fio of a cell: that cell fails saying so, the run goes on.
TEST_F(FaultsRootTest, AFioKilledBySomeoneElseFailsItsCellAndTheRunGoesOn) {
  bool killed = false;
  const FaultRun run =
      Run({"tiobench", "--scratch", "512M", "--schedulers", "mq-deadline,none", "--size", "48",
           "--threads", "1", "--repetitions", "2"},
          [&](const std::string& line, pid_t) {
            if (line.find("cell 2/") == std::string::npos) return false;
            for (int i = 0; i < 200 && !killed; ++i) {
              for (const auto& e : fs::directory_iterator("/proc")) {
                const std::string cmd = testing::ReadFileOrEmpty(e.path().string() + "/cmdline");
                if (cmd.rfind("fio", 0) == 0 && cmd.find(out_ + ".fio/") != std::string::npos &&
                    cmd.find("--output=") != std::string::npos) {
                  killed = kill(std::stoi(e.path().filename().string()), SIGKILL) == 0;
                  break;
                }
              }
              if (!killed) std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            return killed;
          });
  ASSERT_TRUE(killed) << run.stderr_text;
  EXPECT_EQ(run.exit_code, 1) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("failed: "), std::string::npos) << run.stderr_text;
  const nlohmann::json j = Results();
  EXPECT_NE(CellErrorWith(j, "fio killed by signal 9"), "") << run.stderr_text;
  EXPECT_EQ(j["cells"].size(), 4u) << "the run went on";
  EXPECT_EQ(CellStatuses(j)["ok"], 3u);
  EXPECT_TRUE(j.value("complete", false));
  ExpectCleanMachine();
}

// SIGINT while the run tears down after its last cell: every cell is in, but the run was
// interrupted and exits 130, as README promises for an interrupted run.
TEST_F(FaultsRootTest, SigintDuringTeardownExits130) {
  if (!HaveFuse()) GTEST_SKIP() << "needs /dev/fuse";
  const FaultRun run = Run({"tiobench", "--emulated", "ide-2003:512M", "--schedulers",
                            "mq-deadline", "--size", "8", "--threads", "1", "--random", "100"},
                           [&](const std::string& line, pid_t pid) {
                             if (line.find(": done in ") == std::string::npos) return false;
                             // "done in" comes just before the last save: wait for it.
                             for (int i = 0; i < 200 && !Results().value("complete", false); ++i) {
                               std::this_thread::sleep_for(std::chrono::milliseconds(10));
                             }
                             return kill(-pid, SIGINT) == 0;
                           });
  EXPECT_EQ(run.exit_code, 130) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("interrupted by signal 2 after the last cell"), std::string::npos)
      << run.stderr_text;
  const nlohmann::json j = Results();
  EXPECT_TRUE(j.value("complete", false));
  EXPECT_EQ(CellStatuses(j)["ok"], 1u);
  ExpectCleanMachine();
}

// `losetup -d` of the run's own loop device under the run: it fails with one line and restores
// the rest (the device goes with the unmount).
TEST_F(FaultsRootTest, ALoopDeviceDetachedUnderTheRunStopsIt) {
  std::string device;
  const FaultRun run =
      Run({"tiobench", "--scratch", "512M", "--schedulers", "mq-deadline,none", "--size", "32",
           "--threads", "1", "--repetitions", "3"},
          [&](const std::string& line, pid_t) {
            if (line.find("cell 2/") == std::string::npos) return false;
            device = LoopDeviceOfTheRun();
            std::string out, err;
            return !device.empty() && RunChecked({"losetup", "-d", device}, &out, &err);
          });
  ASSERT_FALSE(device.empty()) << run.stderr_text;
  EXPECT_EQ(run.exit_code, 1) << run.stderr_text;
  EXPECT_NE(
      run.stderr_text.find("elevbench: the loop device " + device + " under the run was detached"),
      std::string::npos)
      << run.stderr_text;
  EXPECT_LT(run.seconds_after_fault, 60);
  const nlohmann::json j = Results();
  EXPECT_FALSE(j.value("complete", true));
  EXPECT_LT(j["cells"].size(), 6u);
  ExpectCleanMachine();
  EXPECT_FALSE(fs::exists("/sys/block/" + device.substr(5) + "/loop/backing_file"));
}

// A tmpfs of the test's own, unmounted on every path.
class ScopedTmpfsForFaults {
 public:
  ScopedTmpfsForFaults(const std::string& path, const std::string& size) : path_(path) {
    fs::create_directories(path);
    mounted_ = mount("tmpfs", path.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
  }
  ~ScopedTmpfsForFaults() {
    if (mounted_) umount2(path_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }

 private:
  std::string path_;
  bool mounted_ = false;
};

// Fills the filesystem of `dir` up to `leave` bytes free with one file.
bool FillForFaults(const std::string& dir, uint64_t leave) {
  const fs::space_info space = fs::space(dir);
  if (space.available <= leave) return true;
  const int fd = open((dir + "/filler").c_str(), O_WRONLY | O_CREAT, 0644);
  if (fd < 0) return false;
  std::string block(1 << 20, 'x');
  uint64_t left = space.available - leave;
  while (left > 0) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(left, block.size()));
    if (write(fd, block.data(), n) <= 0) break;
    left -= n;
  }
  fsync(fd);
  close(fd);
  return true;
}

// The results file's directory fills up mid-run: the run stops at once with one line, and the
// last good results file is intact.
TEST_F(FaultsRootTest, AResultsFileThatCannotBeWrittenStopsTheRunAndKeepsTheLastGoodOne) {
  ScopedTmpfsForFaults out_dir(dir_ + "/out", "8M");
  ASSERT_TRUE(out_dir.mounted());
  out_ = dir_ + "/out/r.json";
  std::string kept;
  const FaultRun run = Run({"tiobench", "--scratch", "512M", "--schedulers", "mq-deadline,none",
                            "--size", "16", "--threads", "1", "--repetitions", "3"},
                           [&](const std::string& line, pid_t) {
                             if (line.find("cell 2/") == std::string::npos) return false;
                             kept = testing::ReadFileOrEmpty(out_);
                             return FillForFaults(dir_ + "/out", 0);
                           });
  EXPECT_EQ(run.exit_code, 1) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("No space left on device"), std::string::npos) << run.stderr_text;
  const nlohmann::json j = Results();
  EXPECT_EQ(j.dump(), nlohmann::json::parse(kept, nullptr, false).dump())
      << "the results file is the last one written before the disk filled";
  EXPECT_GE(CellStatuses(j)["ok"], 1u);
  EXPECT_EQ(run.stderr_text.find("cell 4/"), std::string::npos) << "the run went on";
  ExpectCleanMachine();
}

// --dir on a filesystem too small for the suite's files is refused before anything is made;
// one that fills up under the run fails its cells with "no space left on <dir>".
TEST_F(FaultsRootTest, ATargetThatFillsUpIsRefusedOrFailsItsCellSayingSo) {
  ScopedTmpfsForFaults target(dir_ + "/target", "160M");
  ASSERT_TRUE(target.mounted());
  const FaultRun refused =
      Run({"tiobench", "--dir", dir_ + "/target", "--size", "160", "--threads", "1"});
  EXPECT_EQ(refused.exit_code, 2) << refused.stderr_text;
  EXPECT_NE(refused.stderr_text.find(" MiB, but --dir " + dir_ + "/target has 160 MiB free"),
            std::string::npos)
      << refused.stderr_text;
  EXPECT_FALSE(fs::exists(out_));

  const FaultRun full = Run({"tiobench", "--dir", dir_ + "/target", "--size", "32", "--threads",
                             "1", "--repetitions", "2", "--no-drop-caches"},
                            [&](const std::string& line, pid_t) {
                              if (line.find("cell 1/") == std::string::npos) return false;
                              return FillForFaults(dir_ + "/target", 4 << 20);
                            });
  EXPECT_EQ(full.exit_code, 1) << full.stderr_text;
  const nlohmann::json j = Results();
  EXPECT_NE(CellErrorWith(j, "no space left on " + dir_ + "/target"), "") << full.stderr_text;
  EXPECT_EQ(j["cells"].size(), 2u) << "the run went on";
  fs::remove(dir_ + "/target/filler");
  ExpectCleanMachine();
}

// A history server that is down: the run succeeds with one note, and the file can be added
// later.
TEST_F(FaultsRootTest, AHistoryServerThatIsDownCostsANoteNotTheRun) {
  const FaultRun run = Run({"tiobench", "--dir", dir_, "--size", "8", "--threads", "1", "--random",
                            "100", "--no-drop-caches", "--db",
                            "postgresql://elevbench@127.0.0.1:1/elevbench?connect_timeout=2"},
                           nullptr, /*history=*/true);
  EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
  size_t notes = 0;
  std::istringstream lines(run.stderr_text);
  for (std::string line; std::getline(lines, line);) {
    notes += line.find("note: run not recorded in the history") != std::string::npos;
  }
  EXPECT_EQ(notes, 1u) << run.stderr_text;
  EXPECT_TRUE(Results().value("complete", false));
  ProcessResult imported;
  std::string err;
  ASSERT_TRUE(RunProcess({ELEVBENCH_BINARY, "history", "import", out_, "--db", dir_ + "/h.db"},
                         ProcessOptions{}, &imported, &err))
      << err;
  EXPECT_EQ(imported.exit_code, 0) << imported.output << imported.error_output;
  ExpectCleanMachine();
}

}  // namespace
}  // namespace elevbench
