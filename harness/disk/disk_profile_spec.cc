#include "harness/disk/disk_profile_spec.h"

namespace elevbench {

bool LookupDiskProfileWithOverrides(const std::string& name,
                                    const std::vector<std::string>& overrides,
                                    const std::string& override_error_prefix, DiskProfile* profile,
                                    std::string* err) {
  if (!LookupDiskProfile(name, profile, err)) return false;
  for (const std::string& s : overrides) {
    if (!ApplyDiskOverride(s, profile, err)) {
      *err = override_error_prefix + *err;
      return false;
    }
  }
  return true;
}

bool ResolveDiskProfile(const std::string& name, const std::vector<std::string>& overrides,
                        const std::string& override_flag, DiskProfile* profile, std::string* err) {
  return LookupDiskProfileWithOverrides(name, overrides, override_flag + ": ", profile, err) &&
         ValidateDiskProfile(*profile, err);
}

}  // namespace elevbench
