// `run command` end to end as root on a scratch device: the program runs in every cell beside
// its load, the records carry its rusage, the disk's counters and its bios as the kernel timed
// them, a program past its timeout is a DNF and a failing one a failed cell with its stderr, and
// the machine is left as it was.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "harness/device/restore_journal.h"
#include "harness/process/subprocess.h"
#include "harness/results/results_document.h"
#include "scenarios/command/command_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

bool CmdCanRunHere(std::string* why) {
  if (geteuid() != 0 || !ProgramInPath("fio")) {
    *why = "needs root (a scratch device, tracefs) and fio";
    return false;
  }
  return true;
}

// What a run may leave behind: loop devices, mounts of its own or of tracefs, a journal.
std::string CmdLeftoverState() {
  std::string loops, ignored;
  (void)RunChecked({"losetup", "-a"}, &loops, &ignored);
  std::string mounts;
  std::ifstream in("/proc/mounts");
  for (std::string line; std::getline(in, line);) {
    if (line.find("elevbench") != std::string::npos) mounts += line + "\n";
  }
  return loops + "--\n" + mounts + "--\n" + testing::JournalLeftIn(DefaultStateDir());
}

std::vector<CommandRecord> CmdRunCommandSuite(const std::vector<std::string>& options,
                                              const std::vector<std::string>& program,
                                              const std::string& out, int exit_code = 0) {
  std::vector<std::string> args = {"run",   "command", "--scratch",   "256M",
                                   "--out", out,       "--no-history"};
  args.insert(args.end(), options.begin(), options.end());
  args.push_back("--");
  args.insert(args.end(), program.begin(), program.end());
  const ProcessResult run = testing::RunElevbenchCli(args, 900);
  EXPECT_EQ(run.exit_code, exit_code) << run.error_output;
  ResultsDocument doc;
  std::string err;
  std::vector<CommandRecord> records;
  EXPECT_TRUE(LoadResultsFile(out, &doc, &err)) << err;
  EXPECT_TRUE(CommandRecordsFromDocument(doc, &records, &err)) << err;
  return records;
}

TEST(CommandRootTest, TheProgramRunsBesideItsLoadUnderEachScheduler) {
  std::string why;
  if (!CmdCanRunHere(&why)) GTEST_SKIP() << why;
  testing::ScopedTempDir temp("/var/tmp");
  const std::string before = CmdLeftoverState();
  const std::vector<CommandRecord> records = CmdRunCommandSuite(
      {"--schedulers", "none,mq-deadline", "--load", "seq-write", "--load-size", "32", "--warmup",
       "0.5", "--space", "32", "--repetitions", "2"},
      {"sh", "-c", "dd if=/dev/zero of=f bs=1M count=8 conv=fsync"}, temp.path() + "/c.json");
  EXPECT_EQ(CmdLeftoverState(), before);
  ASSERT_EQ(records.size(), 4u);
  for (const CommandRecord& r : records) {
    EXPECT_EQ(r.status, "ok") << r.stderr_tail;
    EXPECT_GE(r.written_bytes, uint64_t{8} << 20);
    EXPECT_GE(r.device_written_bytes, r.written_bytes);  // the fsync'ed file, and the load's
    EXPECT_GT(r.elapsed_seconds, 0);
    EXPECT_GE(r.warmup_seconds, 0.5);
    ASSERT_EQ(r.load_streams.size(), 1u);
    EXPECT_TRUE(r.bios_traced);
    EXPECT_GT(r.kernel_write.count(), 0u);
  }
}

TEST(CommandRootTest, ATimeoutIsADnfAndAFailureKeepsItsStderr) {
  std::string why;
  if (!CmdCanRunHere(&why)) GTEST_SKIP() << why;
  testing::ScopedTempDir temp("/var/tmp");
  std::vector<CommandRecord> records =
      CmdRunCommandSuite({"--schedulers", "none", "--timeout", "1", "--space", "32"},
                         {"sleep", "30"}, temp.path() + "/dnf.json");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].status, "dnf");
  EXPECT_LT(records[0].elapsed_seconds, 10);
  // A program that fails is a failed record, as a failed probe is (docs/command.md): the run
  // goes on and keeps its exit status and what it said.
  records = CmdRunCommandSuite({"--schedulers", "none", "--space", "32"},
                               {"sh", "-c", "echo first >&2; echo boom >&2; exit 3"},
                               temp.path() + "/failed.json");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].status, "failed");
  EXPECT_EQ(records[0].exit_code, 3);
  EXPECT_EQ(records[0].stderr_tail, "first | boom");
}

}  // namespace
}  // namespace elevbench
