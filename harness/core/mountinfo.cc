#include "harness/core/mountinfo.h"

#include <algorithm>
#include <sstream>

#include "harness/core/strings.h"
#include "harness/core/system_info.h"

namespace elevbench {

std::vector<MountinfoEntry> ParseMountinfo(std::string_view text) {
  std::vector<MountinfoEntry> mounts;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    const std::vector<std::string> f = SplitWords(line);
    const auto dash = std::find(f.begin(), f.end(), "-");
    if (dash - f.begin() < 5 || f.end() - dash < 3) continue;
    MountinfoEntry m;
    m.devno = f[2];
    m.root = UnescapeMountField(f[3]);
    m.mount_point = UnescapeMountField(f[4]);
    m.fstype = *(dash + 1);
    m.source = UnescapeMountField(*(dash + 2));
    if (f.end() - dash > 3) m.super_options = SplitAndTrim(*(dash + 3), ',');
    mounts.push_back(std::move(m));
  }
  return mounts;
}

}  // namespace elevbench
