#pragma once
// Helpers shared by the libFuzzer targets in fuzz/: turning the fuzzer's bytes into the text
// and the pieces a parser takes. Header-only so that each target stays one small file.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace elevbench::fuzz {

/// The fuzzer's bytes as text (may hold NULs and invalid UTF-8, as a damaged file would).
inline std::string_view AsText(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Splits `text` at every `separator`, keeping empty pieces: how one input carries several
/// values (argv words, two JSON documents).
inline std::vector<std::string> SplitAt(std::string_view text, char separator) {
  std::vector<std::string> pieces;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == separator) {
      pieces.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return pieces;
}

}  // namespace elevbench::fuzz
