#pragma once
// The library's error style (docs/architecture.md): a function that can fail returns bool and
// puts one line in *err. Fail is its one-line form: `return Fail(err, "no such profile");`.

#include <cstring>
#include <string>
#include <utility>

namespace elevbench {

/// Sets *err to `message` and returns false.
inline bool Fail(std::string* err, std::string message) {
  *err = std::move(message);
  return false;
}

/// "WHAT PATH: strerror(e)", the one-line form of a failed system call on a file
/// ("cannot write /x/y: No space left on device").
inline std::string ErrnoMessage(const std::string& what, const std::string& path, int e) {
  return what + " " + path + ": " + std::strerror(e);
}

}  // namespace elevbench
