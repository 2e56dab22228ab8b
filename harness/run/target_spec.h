#pragma once
// Which target a command works on, as the command line's words: the fields `elevbench run`
// (RunConfig::target) and `elevbench capture` (CaptureJobConfig::target) share, so that their
// flags are declared once (app/cli/cli.h's AddTargetOptions) and the checks both make of a
// device elevbench makes are made once (ParseMadeTarget). What only one command has (run's
// --dir, --disk-set, --machine; capture's --duration) stays in that command's config.

#include <string>

#include "harness/run/target.h"

namespace elevbench {

/// The target flags' values as given. `emulated` or `scratch` asks for a device elevbench
/// makes, `device` names a disk of the user's, which each command treats its own way
/// (TargetFlagsHelp); each command checks the combinations it allows (run: at most one of
/// --dir, --scratch and --emulated, --device beside any; capture: exactly one of the three).
struct TargetSpec {
  std::string device;       ///< "--device NAME": a disk of the user's ("sdb")
  std::string emulated;     ///< "--emulated PROFILE[:SIZE]": an emulated disk elevbench makes
  std::string scratch;      ///< "--scratch SIZE": a loop device elevbench makes
  std::string fs = "ext4";  ///< "--fs": the filesystem of the device elevbench makes
};

/// The help of the target flags in one command's --help. The words are the command's own:
/// run's --device consents to switching a disk's scheduler (or names the raw disk a replay
/// writes to), capture's is traced read-only with nothing switched; run's defaults come from
/// the suite, capture has none.
struct TargetFlagsHelp {
  std::string device;
  std::string emulated;
  std::string scratch;
  std::string fs;
};

/// The checks both commands make of the device elevbench makes, in this order, before anything
/// is made: --fs is one mkfs knows here (ext2, ext4, xfs), --scratch a size, --emulated a known
/// profile with a size of at least 64M. Fills `target`'s fs, scratch_bytes, emulated and, for
/// --emulated, emulated_options' profile, size, fs and self_exe (the daemon's program); the
/// rest is the caller's. Does not look at `spec.device` nor count the targets. False with the
/// one-line usage error that names the flag.
[[nodiscard]] bool ParseMadeTarget(const TargetSpec& spec, TargetOptions* target, std::string* err);

}  // namespace elevbench
