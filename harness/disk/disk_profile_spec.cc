#include "harness/disk/disk_profile_spec.h"

namespace elevbench {

bool ResolveDiskProfile(const std::string& name, const std::vector<std::string>& overrides,
                        const std::string& override_flag, DiskProfile* profile, std::string* err) {
  if (!LookupDiskProfile(name, profile, err)) return false;
  for (const std::string& s : overrides) {
    if (!ApplyDiskOverride(s, profile, err)) {
      *err = override_flag + ": " + *err;
      return false;
    }
  }
  return ValidateDiskProfile(*profile, err);
}

}  // namespace elevbench
