#include "harness/disk/disk_profile_spec.h"

#include <set>

#include "harness/core/strings.h"

namespace elevbench {

bool LookupDiskProfileWithOverrides(const std::string& name,
                                    const std::vector<std::string>& overrides,
                                    const std::string& override_error_prefix, DiskProfile* profile,
                                    std::string* err) {
  if (!LookupDiskProfile(name, profile, err)) return false;
  std::set<std::string> keys;
  for (const std::string& s : overrides) {
    if (!ApplyDiskOverride(s, profile, err)) {
      *err = override_error_prefix + *err;
      return false;
    }
    // #45, fourth pass: `--disk-set rpm=7200 --disk-set rpm=5400` kept the last in silence;
    // `--machine ram=1G,ram=2G` is refused alike.
    const std::string key = TrimWhitespace(s.substr(0, s.find('=')));
    if (!keys.insert(key).second) {
      *err = override_error_prefix + key + " given twice";
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
