#pragma once
// A fake kernel for tests on fake sysfs trees (the library holds no test code).

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/strings.h"
#include "harness/device/sysfs.h"

namespace elevbench::testing {

/// A write hook that makes plain files behave like the kernel's queue/scheduler attribute:
/// writing a listed name rewrites the line with that name bracketed; an unlisted name fails with
/// "Invalid argument" and changes nothing. Other paths are written plainly.
inline Sysfs::WriteHook MakeFakeKernelWriteHook() {
  return [](const std::string& mapped, const std::string& system_path, std::string_view value,
            std::string* err) {
    if (!Sysfs::IsSchedulerPath(system_path)) {
      return Sysfs::PlainWrite(mapped, system_path, value, err);
    }
    Sysfs plain("/");
    std::string line;
    if (!plain.Read(mapped, &line, err)) return false;
    std::vector<std::string> available;
    std::string current;
    if (!ParseSchedulerLine(line, &available, &current, err)) return false;
    std::string want = TrimWhitespace(value);
    std::string rewritten;
    bool found = false;
    for (const std::string& name : available) {
      if (!rewritten.empty()) rewritten += ' ';
      if (name == want) {
        rewritten += "[" + name + "]";
        found = true;
      } else {
        rewritten += name;
      }
    }
    if (!found) {
      *err = "write " + system_path + ": " + strerror(EINVAL);
      return false;
    }
    return Sysfs::PlainWrite(mapped, system_path, rewritten + " \n", err);
  };
}

}  // namespace elevbench::testing
