#pragma once
// elevbench's subcommands as --help and the man page describe them: each one's name, its line
// in --help and its exit codes (the last lines of its --help and its nested commands'), in
// --help's order. Data, beside the CLI that adds each one's options (app/cli/cli.cc's table of
// subcommands pairs every row with its command's `add`), so that the words a first word is
// checked against (command_words.h) and the codes each command documents are one list.

#include <string>
#include <vector>

namespace elevbench {

/// The exit codes of a subcommand that fails only on its command line or input.
inline constexpr const char* kUsageExitCodes =
    "Exit codes: 0 done; 2 bad command line or unreadable input.";

/// One subcommand as its help describes it: `elevbench NAME …`.
struct SubcommandText {
  const char* name;
  const char* description;  ///< its line in --help
  /// Its exit codes, the last lines of its --help and of its nested commands' (every
  /// subcommand can exit 2 on a bad command line); app/cli/cli.h ExitCode.
  const char* exit_codes = kUsageExitCodes;
  bool hidden = false;  ///< left out of --help and the man page (`internal`)
};

/// Every subcommand, in --help's order.
const std::vector<SubcommandText>& SubcommandTexts();

/// The exit codes of elevbench as a whole, the footer of the top --help.
const char* ProgramExitCodes();

/// The exit codes of a nested command whose codes differ from its subcommand's ("disk serve",
/// "disk profiles", "disk calibrate", "history import"): the footer of its --help. A path not
/// listed gets kUsageExitCodes.
const char* NestedExitCodes(const std::string& path);

/// The names of SubcommandTexts, the hidden ones with `hidden` (CheckLeadingWords' two lists).
std::vector<std::string> SubcommandNames(bool hidden);

}  // namespace elevbench
