// What boots a guest, as text (harness/guest/guest_boot.h, harness/guest/guest_vm.h): the init
// script (golden), the modules the initramfs holds, QEMU's and virtiofsd's words, and the
// console read back: its markers and its last lines.

#include "harness/guest/guest_boot.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/guest/guest_vm.h"
#include "test_util.h"

namespace elevbench {
namespace {

GuestRun SampleGuestRun() {
  GuestRun run;
  run.kernel.release = "6.1.0-50-cloud-amd64";
  run.kernel.image = "/cache/k/boot/vmlinuz-6.1.0-50-cloud-amd64";
  run.kernel.modules_dir = "/cache/k/lib/modules/6.1.0-50-cloud-amd64";
  run.argv = {"/src/build/elevbench", "run", "nickbench", "--setup", "echo 'a b'"};
  run.working_directory = "/src";
  run.work_dir = "/src/r.json.fio/kernel-k";
  run.log_path = "/src/r.json.fio/kernel-k/guest.log";
  run.cpus = 2;
  run.memory_mib = 3072;
  return run;
}

TEST(GuestBootTest, TheInitScriptMatchesItsGolden) {
  testing::ExpectMatchesGolden("guest_init.sh", GuestInitScript(SampleGuestRun()));
}

// A checkout under /var/tmp (CI's fresh clone): the guest's private /var/tmp would hide the
// binary and the working directory, so both are bound back from the host's root, once.
TEST(GuestBootTest, TheBinaryAndWorkingDirectoryUnderVarTmpAreBoundBack) {
  GuestRun run = SampleGuestRun();
  run.argv[0] = "/var/tmp/ci/build/elevbench";
  run.working_directory = "/var/tmp/ci/build";
  const std::string init = GuestInitScript(run);
  const std::string bind =
      "mkdir -p '/mnt/host/var/tmp/ci/build' && mount --bind '/mnt/hostro/var/tmp/ci/build' "
      "'/mnt/host/var/tmp/ci/build'";
  const size_t at = init.find(bind);
  ASSERT_NE(at, std::string::npos) << init;
  EXPECT_EQ(init.find(bind, at + 1), std::string::npos) << "bound twice";
  EXPECT_LT(init.find("tmpfs /mnt/host/$d"), at) << "bound before the tmpfs covers it";
  EXPECT_EQ(GuestInitScript(SampleGuestRun()).find("mount --bind '/mnt/hostro"), std::string::npos);
}

TEST(GuestBootTest, ShellQuoteKeepsEveryWordOneWord) {
  EXPECT_EQ(ShellQuote("a b"), "'a b'");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellQuote(""), "''");
}

TEST(GuestBootTest, TheInitramfsHoldsWhatMountsTheShareDependenciesFirst) {
  const std::string dep =
      "kernel/fs/fuse/virtiofs.ko: kernel/fs/fuse/fuse.ko kernel/drivers/virtio/virtio.ko "
      "kernel/drivers/virtio/virtio_ring.ko\n"
      "kernel/drivers/virtio/virtio_pci.ko: kernel/drivers/virtio/virtio_ring.ko "
      "kernel/drivers/virtio/virtio.ko\n"
      "kernel/drivers/block/loop.ko:\n";
  const std::vector<std::string> m = InitramfsModules(dep);
  ASSERT_EQ(m.size(), 5u);
  EXPECT_EQ(m[0], "kernel/drivers/virtio/virtio.ko");
  EXPECT_EQ(m[2], "kernel/drivers/virtio/virtio_pci.ko");
  EXPECT_EQ(m.back(), "kernel/fs/fuse/virtiofs.ko");
  EXPECT_TRUE(InitramfsModules("kernel/drivers/block/loop.ko:\n").empty());  // built in
}

TEST(GuestBootTest, QemuRunsWithoutNetworkDisplayOrRebootAndSharesMemoryForVirtiofs) {
  const auto argv = QemuArgv(SampleGuestRun(), "/run/g/i.cpio", "/run/g/h.sock", "/run/g/w.sock",
                             "/w/console.log");
  const auto has = [&](const std::string& a, const std::string& b) {
    for (size_t i = 0; i + 1 < argv.size(); ++i) {
      if (argv[i] == a && argv[i + 1] == b) return true;
    }
    return false;
  };
  EXPECT_TRUE(has("-accel", "tcg,thread=multi"));
  EXPECT_TRUE(has("-smp", "2"));
  EXPECT_TRUE(has("-m", "3072M"));
  EXPECT_TRUE(has("-object", "memory-backend-memfd,id=mem,size=3072M,share=on"));
  EXPECT_TRUE(has("-nic", "none"));
  EXPECT_TRUE(has("-serial", "file:/w/console.log"));
  EXPECT_TRUE(has("-append", "console=ttyS0 quiet panic=-1"));
  EXPECT_NE(std::find(argv.begin(), argv.end(), "-no-reboot"), argv.end());
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "-icount"), argv.end());
  const auto daemon = VirtiofsdArgv("/", "/run/g/h.sock");
  EXPECT_NE(std::find(daemon.begin(), daemon.end(), "sandbox=chroot"), daemon.end());
  EXPECT_NE(std::find(daemon.begin(), daemon.end(), "cache=none"), daemon.end());
  const auto host = VirtiofsdArgv("/", "/run/g/h.sock", "auto");
  EXPECT_NE(std::find(host.begin(), host.end(), "cache=auto"), host.end());
}

// The instruction clock: one TCG thread (-icount refuses several) and one nanosecond an
// instruction; under KVM there is no instruction count to clock by, so it is ignored.
TEST(GuestBootTest, TheInstructionClockRunsOneTcgThreadOnIcount) {
  GuestRun run = SampleGuestRun();
  run.instruction_clock = true;
  run.cpus = 1;
  const auto argv = QemuArgv(run, "/i", "/h", "/w", "/c");
  const auto at = [&](const std::string& a) {
    const auto it = std::find(argv.begin(), argv.end(), a);
    return it == argv.end() || it + 1 == argv.end() ? std::string() : *(it + 1);
  };
  EXPECT_EQ(at("-accel"), "tcg,thread=single");
  EXPECT_EQ(at("-icount"), "shift=0,sleep=on");
  EXPECT_EQ(at("-smp"), "1");
  run.kvm = true;
  const auto kvm = QemuArgv(run, "/i", "/h", "/w", "/c");
  EXPECT_EQ(std::find(kvm.begin(), kvm.end(), "-icount"), kvm.end());
}

TEST(GuestMarkersTest, ReadsStartExitAndFailure) {
  GuestOutcome o;
  ReadGuestMarkers(
      "boot\r\nELEVBENCH-GUEST-CPU 3.51 6.02\nELEVBENCH-GUEST-STARTED cpus=2 MemTotal: 10 kB\nrun\n"
      "ELEVBENCH-GUEST-EXIT 3\n",
      &o);
  EXPECT_TRUE(o.started);
  EXPECT_EQ(o.facts, "cpus=2 MemTotal: 10 kB");
  EXPECT_TRUE(o.exited);
  EXPECT_EQ(o.exit_code, 3);
  EXPECT_NEAR(o.cpu_probe_seconds, 2.51, 1e-9);
  GuestOutcome f;
  ReadGuestMarkers("ELEVBENCH-GUEST-FAILED cannot mount the host share\n", &f);
  EXPECT_FALSE(f.started);
  EXPECT_EQ(f.failure, "the guest's set-up failed: cannot mount the host share");
}

TEST(GuestMarkersTest, TheConsoleTailIsItsLastLinesWithoutControlCharacters) {
  EXPECT_EQ(ConsoleTail("a\n\x1b[Kb\r progress\n\n[ 4.2] Kernel panic\nend\n", 3),
            "progress | [ 4.2] Kernel panic | end");
}

}  // namespace
}  // namespace elevbench
