// Which accelerator a run's guests use: KVM only when a stock kernel ran its command under it.

#include "harness/guest/guest_accelerator.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(GuestAcceleratorTest, KvmOnlyWhenTheProbeGuestRanItsCommand) {
  GuestOutcome ran;
  ran.started = ran.exited = true;
  ran.exit_code = 0;
  ran.wall_seconds = 1.44;
  const GuestAccelerator kvm = AcceleratorOf("6.1.0-50-cloud-amd64", "", "", ran);
  EXPECT_TRUE(kvm.kvm);
  EXPECT_EQ(kvm.why, "KVM booted 6.1.0-50-cloud-amd64 to /bin/true in 1.4 s");

  const GuestAccelerator none = AcceleratorOf(
      "6.1.0-50-cloud-amd64", "no usable /dev/kvm (No such file or directory)", "", ran);
  EXPECT_FALSE(none.kvm);
  EXPECT_EQ(none.why, "no usable /dev/kvm (No such file or directory)");

  EXPECT_FALSE(AcceleratorOf("r", "", "qemu-system-x86_64 is missing", ran).kvm);
}

// kvm_pvm's /dev/kvm opens, but a stock kernel stops at once: TCG, and the console says why.
TEST(GuestAcceleratorTest, AStockKernelThatKvmCannotRunChoosesTcgWithTheConsolesWords) {
  GuestOutcome pvm;
  pvm.failure = "QEMU exited with 1 before the guest started";
  pvm.console_tail = "KVM internal error. Suberror: 1 | emulation failure";
  const GuestAccelerator a = AcceleratorOf("6.1.0-50-cloud-amd64", "", "", pvm);
  EXPECT_FALSE(a.kvm);
  EXPECT_EQ(a.why,
            "KVM could not run 6.1.0-50-cloud-amd64: QEMU exited with 1 before the guest started; "
            "console: KVM internal error. Suberror: 1 | emulation failure");
  GuestOutcome failed_command;
  failed_command.started = failed_command.exited = true;
  failed_command.exit_code = 1;
  EXPECT_FALSE(AcceleratorOf("r", "", "", failed_command).kvm);
}

}  // namespace
}  // namespace elevbench
