#include "harness/run/target_spec.h"

#include "harness/core/system_info.h"
#include "harness/device/scratch_device.h"
#include "harness/disk/emulated_stack.h"

namespace elevbench {

bool ParseMadeTarget(const TargetSpec& spec, TargetOptions* target, std::string* err) {
  if (!SupportedScratchFs(spec.fs)) {
    *err = "unsupported --fs '" + spec.fs + "' (ext2, ext4 or xfs)";
    return false;
  }
  target->fs = spec.fs;
  if (!spec.scratch.empty() && !ParseSizeBytes(spec.scratch, &target->scratch_bytes, err)) {
    *err = "--scratch: " + *err;
    return false;
  }
  target->emulated = !spec.emulated.empty();
  if (!target->emulated) return true;
  target->emulated_options.fs = spec.fs;
  target->emulated_options.self_exe = SelfExecutablePath();
  return ParseEmulatedSpec(spec.emulated, &target->emulated_options, err);
}

}  // namespace elevbench
