#include "harness/core/command_words.h"

#include <algorithm>
#include <sstream>

#include "harness/core/error.h"
#include "harness/core/strings.h"

namespace elevbench {

bool CheckLeadingWords(const std::vector<std::string>& words,
                       const std::vector<std::string>& subcommands,
                       const std::vector<std::string>& shown, std::string* err) {
  const std::string names = JoinWith(shown, ", ");
  // A first word that is no subcommand, or an option elevbench does not take before one: CLI11
  // would say "A subcommand is required".
  if (!words.empty() && words[0].starts_with('-') && words[0] != "--help" && words[0] != "-h" &&
      words[0] != "--version") {
    return Fail(
        err, "unknown option '" + words[0] + "': elevbench takes a subcommand first (see --help)");
  }
  if (words.size() > 1 && words[0] == "--version") {  // #45, fourth pass: was ignored
    return Fail(err, "unexpected '" + words[1] +
                         "': --version takes no other words (see elevbench --help)");
  }
  if (words.empty()) {  // CLI11: "A subcommand is required"
    return Fail(err, "no subcommand given (one of: " + names + "; see elevbench --help)");
  }
  if (!words[0].starts_with('-') &&
      std::find(subcommands.begin(), subcommands.end(), words[0]) == subcommands.end()) {
    return Fail(err, "unknown subcommand '" + words[0] + "' (one of: " + names + ")");
  }
  return true;
}

std::string JoinCommandLine(int argc, char** argv) {
  std::ostringstream out;
  for (int i = 0; i < argc; ++i) out << (i ? " " : "") << argv[i];
  return out.str();
}

}  // namespace elevbench
