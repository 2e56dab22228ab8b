// `run … --kernels` for real (root, QEMU, a kernel in the cache): a short suite in a guest
// gives rows labelled with the kernel, and nothing of the guest is left after a normal end, or
// after SIGKILL + `elevbench restore`: no QEMU, no virtiofsd, no socket, no scratch directory,
// no journal. The kernel is the first Debian one in the cache (scripts/test fetches one); a
// user's build (#43, `--kernels image:…`) is made of it.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "harness/guest/guest_boot.h"
#include "harness/guest/kernel_cache.h"
#include "harness/process/bounded_call.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

// Whether the command line `cmd` (NULs as spaces) is a guest process of the run `run_pid`
// whose results go to `dir`: its QEMU (the console names dir/r.json), or a virtiofsd whose
// command line names `dir` (the work share) or the run's guest scratch directory
// /run/elevbench-guest-PID-N (the sockets of both daemons; the host share's source is "/").
bool IsGuestProcessOf(const std::string& cmd, const std::string& dir, pid_t run_pid) {
  const std::string guest_scratch = "/run/elevbench-guest-" + std::to_string(run_pid) + "-";
  if (cmd.find("qemu") != std::string::npos && cmd.find(dir + "/r.json") != std::string::npos) {
    return true;
  }
  return cmd.find("virtiofsd") != std::string::npos &&
         (cmd.find(dir) != std::string::npos || cmd.find(guest_scratch) != std::string::npos);
}

// The scan sees the host share's virtiofsd as the guest starts it (issue 58 §7: its command
// line holds source=/, not the test's directory, and the scan looked for the directory only).
TEST(GuestLeftoverScanTest, SeesTheHostSharesVirtiofsd) {
  std::string cmd;
  for (const std::string& word : VirtiofsdArgv("/", "/run/elevbench-guest-4242-0/host.sock")) {
    cmd += word + " ";
  }
  EXPECT_TRUE(IsGuestProcessOf(cmd, "/var/tmp/elevbench-test-abc", 4242)) << cmd;
  EXPECT_FALSE(IsGuestProcessOf(cmd, "/var/tmp/elevbench-test-abc", 4243)) << cmd;
}

class KernelsRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root: virtiofsd shares the host's files";
    if (!ProgramInPath("qemu-system-x86_64") || access("/usr/lib/qemu/virtiofsd", X_OK) != 0 ||
        access("/bin/busybox", X_OK) != 0 || !ProgramInPath("cpio")) {
      ELEVBENCH_SKIP_OR_FAIL_IN_CI(
          "needs qemu-system-x86, busybox-static and cpio (scripts/install-deps --test)");
    }
    // The first Debian cloud kernel (else the first Debian one): a build's entry ("image-…") is
    // no `debian:` word. And the first generic one (ext4 and loop as modules), for a build.
    for (const CachedKernel& k : ListCachedKernels(DefaultKernelCacheDir())) {
      if (k.source != "debian") continue;
      const bool cloud = k.package.find("-cloud-") != std::string::npos;
      const bool generic = !cloud && k.package.find("-rt-") == std::string::npos;
      if (kernel_.package.empty() ||
          (cloud && kernel_.package.find("-cloud-") == std::string::npos)) {
        kernel_ = k;
      }
      if (generic && generic_.package.empty()) generic_ = k;
    }
    if (kernel_.package.empty()) {
      ELEVBENCH_SKIP_OR_FAIL_IN_CI("no Debian kernel in " + DefaultKernelCacheDir() +
                                   " (scripts/test fetches one with `elevbench kernels fetch`)");
    }
    temp_ = std::make_unique<testing::ScopedTempDir>("/var/tmp");
    dir_ = temp_->path();
    state_dir_ = dir_ + "/state";
  }

  // `run nickbench … --kernels WORD` (default: the cached Debian kernel's word) on `fs`, with
  // `extra` words at the end.
  pid_t StartGuestRun(const std::string& kernel_word = "", const std::string& fs = "ext2",
                      const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {
        ELEVBENCH_BINARY,
        "run",
        "nickbench",
        "--benches",
        "2",
        "--size",
        "8",
        "--emulated",
        "ide-2003:384M",
        "--fs",
        fs,
        "--schedulers",
        "none,mq-deadline",
        "--seed",
        "1",
        "--no-history",
        "--kernels",
        kernel_word.empty() ? "debian:" + kernel_.package : kernel_word,
        "--out",
        dir_ + "/r.json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return Spawn(args);
  }
  pid_t Spawn(const std::vector<std::string>& args) {
    const int err = open((dir_ + "/stderr").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    const pid_t pid = testing::SpawnElevbench(args, state_dir_, err);
    close(err);
    return pid;
  }

  int Wait(pid_t pid, double seconds) { return testing::WaitForSpawned(pid, seconds); }

  // The run of StartGuestRun waited for (exit 0 expected), its results read and checked whole:
  // the kernel's two rows, every cell ok, one guest in the context.
  nlohmann::json FinishedRun(pid_t pid) {
    EXPECT_EQ(Wait(pid, 600), 0) << testing::ReadFileOrEmpty(dir_ + "/stderr");
    auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
    if (j.is_discarded()) {
      ADD_FAILURE() << testing::ReadFileOrEmpty(dir_ + "/stderr");
      return nlohmann::json::object();
    }
    const std::string row = KernelRowLabel(kernel_.release);
    EXPECT_EQ(j["identifiers"], nlohmann::json({row + "-none", row + "-dl"}));
    EXPECT_TRUE(j.value("complete", false));
    EXPECT_EQ(j["cells"].size(), 2u);
    for (const auto& c : j["cells"]) EXPECT_EQ(c["status"], "ok") << c.dump();
    EXPECT_EQ(j["context"]["kernels"].size(), 1u);
    return j;
  }

  // The processes of the run `run_pid` that boots its guests from the test's directory
  // (IsGuestProcessOf), after up to 10 s for the dying to go.
  std::vector<std::string> GuestProcessesLeft(pid_t run_pid) {
    std::vector<std::string> left;
    for (int tries = 0; tries < 50; ++tries) {
      left.clear();
      for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string cmd = testing::ReadFileOrEmpty(e.path().string() + "/cmdline");
        for (char& c : cmd) c = c == '\0' ? ' ' : c;
        if (IsGuestProcessOf(cmd, dir_, run_pid)) left.push_back(name + ": " + cmd);
      }
      if (left.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return left;
  }

  void ExpectNothingOfTheGuestLeft(pid_t run_pid) {
    EXPECT_TRUE(GuestProcessesLeft(run_pid).empty()) << testing::ReadFileOrEmpty(dir_ + "/stderr");
    EXPECT_FALSE(fs::exists("/run/elevbench-guest-" + std::to_string(run_pid) + "-0"));
    EXPECT_FALSE(fs::exists(state_dir_ + "/journal.json"));
  }

  CachedKernel kernel_;   // the first cached Debian cloud kernel (ext4 built in)
  CachedKernel generic_;  // the first cached generic one (ext4, loop, fuse as modules); may be none
  std::unique_ptr<testing::ScopedTempDir> temp_;
  std::string dir_;
  std::string state_dir_;
};

TEST_F(KernelsRootTest, ARunInAGuestLabelsItsRowsWithTheKernelAndLeavesNothing) {
  const pid_t pid = StartGuestRun();
  ASSERT_GT(pid, 0);
  const nlohmann::json j = FinishedRun(pid);
  ASSERT_EQ(j["context"]["kernels"].size(), 1u);
  const std::string row = KernelRowLabel(kernel_.release);
  EXPECT_EQ(j["labels"], nlohmann::json({row + "-NONE", row + "-DL"}));
  EXPECT_EQ(j["context"]["kernels"][0]["release"], kernel_.release);
  EXPECT_EQ(j["context"]["kernels"][0]["failure"], "");
  // The accelerator was probed (kvm or tcg, whichever this host's KVM allows) and says why; a
  // TCG guest ran on the instruction clock (the default), with one vCPU.
  const std::string accelerator = j["context"]["kernels"][0].value("accelerator", "");
  EXPECT_TRUE(accelerator == "kvm" || accelerator == "tcg") << accelerator;
  if (accelerator == "tcg") {
    EXPECT_EQ(j["context"]["kernels"][0].value("clock", ""), "instructions");
    EXPECT_EQ(j["context"]["kernels"][0].value("vcpus", 0), 1);
  }
  EXPECT_FALSE(j["context"]["kernels"][0].value("accelerator_why", "").empty());
  EXPECT_FALSE(fs::exists("/run/elevbench-guest-" + std::to_string(pid) + "-kvm-probe"));
  // The run is the host's, not the guest's (whose hostname is "(none)").
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  EXPECT_EQ(j["context"].value("hostname", ""), std::string(host));
  EXPECT_EQ(j["context"]["command_line"].get<std::string>().find("--label-prefix"),
            std::string::npos);
  ExpectNothingOfTheGuestLeft(pid);
}

// #43, #57: a developer's own modular build as a row beside a Debian kernel, on ext4. The
// "build" is made of the cached generic Debian kernel, whose ext4, loop and fuse are modules (as
// in most developers' .config): its vmlinuz as the tree's arch/x86/boot/bzImage, its config as
// the tree's .config, its modules as `make modules_install INSTALL_MOD_PATH=mods` leaves them.
// The guest loads what the kernel asks for from the build's modules; the run copies the build
// into a cache of its own (ELEVBENCH_KERNEL_CACHE), boots both kernels (two lanes), labels each
// kernel's rows with its release, and leaves the tree and the modules as they were.
TEST_F(KernelsRootTest, AUsersOwnModularBuildIsARowBesideADebianKernelOnExt4) {
  if (generic_.package.empty()) {
    ELEVBENCH_SKIP_OR_FAIL_IN_CI("no generic Debian kernel (linux-image-6.1.0-*-amd64) in " +
                                 DefaultKernelCacheDir() + " (scripts/fetch-test-kernel)");
  }
  const std::string tree = dir_ + "/build/linux";
  const std::string mods = dir_ + "/build/mods";
  fs::create_directories(tree + "/arch/x86/boot");
  fs::create_directories(mods + "/lib/modules");
  fs::copy_file(generic_.image, tree + "/arch/x86/boot/bzImage");
  fs::copy_file(generic_.directory + "/boot/config-" + generic_.release, tree + "/.config");
  fs::copy(generic_.modules_dir, mods + "/lib/modules/" + generic_.release,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  const auto before = testing::TreeListing(dir_ + "/build");
  // A cache of the test's own, holding the Debian kernel as the default cache has it (nothing
  // fetched), where the run copies the build.
  const std::string own_cache = dir_ + "/cache";
  fs::create_directories(own_cache);
  fs::copy(kernel_.directory, own_cache + "/" + fs::path(kernel_.directory).filename().string(),
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  testing::ScopedEnv cache("ELEVBENCH_KERNEL_CACHE", own_cache);
  const pid_t pid = StartGuestRun(
      "debian:" + kernel_.package + ",image:" + tree + "/arch/x86/boot/bzImage:" + mods, "ext4",
      {"--lanes", "2"});
  ASSERT_GT(pid, 0);
  ASSERT_EQ(Wait(pid, 900), 0) << testing::ReadFileOrEmpty(dir_ + "/stderr");
  const auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << testing::ReadFileOrEmpty(dir_ + "/stderr");
  const std::string debian = KernelRowLabel(kernel_.release);
  const std::string build = KernelRowLabel(generic_.release);
  EXPECT_EQ(j["identifiers"],
            nlohmann::json({debian + "-none", debian + "-dl", build + "-none", build + "-dl"}));
  EXPECT_TRUE(j.value("complete", false));
  ASSERT_EQ(j["cells"].size(), 4u);
  for (const auto& c : j["cells"]) EXPECT_EQ(c["status"], "ok") << c.dump();
  ASSERT_EQ(j["context"]["kernels"].size(), 2u);
  const auto& guest = j["context"]["kernels"][1];
  EXPECT_EQ(guest["release"], generic_.release);
  EXPECT_EQ(guest["source"], "build");
  EXPECT_EQ(guest.value("package", "").rfind("image-" + generic_.release + "-", 0), 0u)
      << guest.dump();
  EXPECT_EQ(guest["failure"], "");
  // The build's ext4 is a module the guest loaded when the kernel asked for it.
  const std::string err = testing::ReadFileOrEmpty(dir_ + "/stderr");
  const size_t offers = err.find(build + ": offers");
  ASSERT_NE(offers, std::string::npos) << err;
  const std::string line = err.substr(offers, err.find('\n', offers) - offers);
  const size_t modules = line.find("as modules: ");
  ASSERT_NE(modules, std::string::npos) << line;
  EXPECT_NE(line.find("ext4", modules), std::string::npos) << line;
  EXPECT_EQ(testing::TreeListing(dir_ + "/build"), before);
  std::multiset<std::string> sources;
  for (const CachedKernel& k : ListCachedKernels(own_cache)) sources.insert(k.source);
  EXPECT_EQ(sources, (std::multiset<std::string>{"build", "debian"}));
  ExpectNothingOfTheGuestLeft(pid);
}

// #46: the controls that need cgroup v2 run in a guest: each control's row, its cgroups made
// and removed inside the guest, io.cost on for its cells, the model and the protection table.
TEST_F(KernelsRootTest, ControlsRunInAGuestsCgroupV2WithTheirOwnRows) {
  const pid_t pid = Spawn({ELEVBENCH_BINARY,
                           "run",
                           "probes",
                           "--probes",
                           "ls-during-read",
                           "--tree-size",
                           "2",
                           "--load-size",
                           "64",
                           "--warmup",
                           "1",
                           "--emulated",
                           "ide-2003:384M",
                           "--fs",
                           "ext2",
                           "--schedulers",
                           "mq-deadline@DL",
                           "--controls",
                           "none,weight:probe=1000,load=100,iocost",
                           "--seed",
                           "1",
                           "--no-history",
                           "--kernels",
                           "debian:" + kernel_.package,
                           "--out",
                           dir_ + "/r.json"});
  ASSERT_GT(pid, 0);
  ASSERT_EQ(Wait(pid, 600), 0) << testing::ReadFileOrEmpty(dir_ + "/stderr");
  const auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const std::string row = KernelRowLabel(kernel_.release);
  EXPECT_EQ(j["identifiers"],
            nlohmann::json({row + "-DL", row + "-DL-w100-pw1000", row + "-DL-iocost"}));
  for (const auto& c : j["cells"]) EXPECT_EQ(c["status"], "ok") << c.dump();
  ASSERT_EQ(j["records"].size(), 3u);
  std::set<std::string> controls;
  for (const auto& r : j["records"]) controls.insert(r.value("control", ""));
  EXPECT_EQ(controls, (std::set<std::string>{"none", "weight:probe=1000,load=100", "iocost"}));
  const std::string guest_log =
      testing::ReadFileOrEmpty(dir_ + "/r.json.fio/kernel-" + row + "/guest.log");
  EXPECT_NE(guest_log.find("controls' cgroups (v2"), std::string::npos) << guest_log;
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(
      RunProcess({ELEVBENCH_BINARY, "report", dir_ + "/r.json"}, ProcessOptions{}, &r, &err))
      << err;
  EXPECT_NE(r.output.find("Protection, ls-during-read ("), std::string::npos) << r.output;
  ExpectNothingOfTheGuestLeft(pid);
}

TEST_F(KernelsRootTest, ARunKilledMidGuestLeavesNothingAfterRestore) {
  const pid_t pid = StartGuestRun();
  ASSERT_GT(pid, 0);
  // Killed once the guest's command has started (its log exists).
  const std::string log =
      dir_ + "/r.json.fio/kernel-" + KernelRowLabel(kernel_.release) + "/guest.log";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
  while (!fs::exists(log) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(fs::exists(log)) << testing::ReadFileOrEmpty(dir_ + "/stderr");
  kill(pid, SIGKILL);
  EXPECT_EQ(Wait(pid, 30), 128 + SIGKILL);
  EXPECT_TRUE(fs::exists(state_dir_ + "/journal.json"));
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(RunProcess({"env", "ELEVBENCH_STATE_DIR=" + state_dir_, ELEVBENCH_BINARY, "restore"},
                         ProcessOptions{}, &r, &err))
      << err;
  EXPECT_EQ(r.exit_code, 0) << r.output << r.error_output;
  ExpectNothingOfTheGuestLeft(pid);
}

}  // namespace
}  // namespace elevbench
