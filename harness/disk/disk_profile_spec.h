#pragma once
// A disk profile as a command line names it: a built-in profile's name and `key=value`
// overrides of its parameters, resolved into one checked DiskProfile. `elevbench disk serve`
// resolves its --profile and --set with it before it starts the daemon (disk_daemon.h), so that
// the CLI only maps the flags and prints; a run's checks of --emulated and --disk-set
// (run_checks.cc) and the emulated stack (emulated_stack.cc) look the profile up with the same
// overrides here.

#include <string>
#include <vector>

#include "harness/disk/disk_model.h"

namespace elevbench {

/// The built-in profile `name` (LookupDiskProfile) with every one of `overrides` applied in
/// order (ApplyDiskOverride); no check of the whole (ValidateDiskProfile is the caller's). False
/// with a one-line error, *profile then unspecified: LookupDiskProfile's for an unknown name, or
/// ApplyDiskOverride's for a bad override with `override_error_prefix` (e.g. "--disk-set: ", or
/// empty) put in front.
[[nodiscard]] bool LookupDiskProfileWithOverrides(const std::string& name,
                                                  const std::vector<std::string>& overrides,
                                                  const std::string& override_error_prefix,
                                                  DiskProfile* profile, std::string* err);

/// The built-in profile `name` (LookupDiskProfile) with every one of `overrides` applied in
/// order (ApplyDiskOverride), then checked as a whole (ValidateDiskProfile), so that related
/// fields may be overridden in any order. False with a one-line error, *profile then
/// unspecified: an unknown name (the error lists the known ones), a bad override (the error
/// starts with "<override_flag>: ", the flag that gave it, e.g. "--set") or an inconsistent
/// result.
[[nodiscard]] bool ResolveDiskProfile(const std::string& name,
                                      const std::vector<std::string>& overrides,
                                      const std::string& override_flag, DiskProfile* profile,
                                      std::string* err);

}  // namespace elevbench
