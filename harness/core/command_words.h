#pragma once
// The command line's first words checked before CLI11 parses them (#45), where CLI11 would say
// "A subcommand is required" or take `--version` with other words silently: each refusal one
// line that names what to give. Beside plain_cli.h, which words CLI11's own errors; generic
// over the table of subcommands, which the caller (app/cli/cli.cc) names.

#include <string>
#include <vector>

namespace elevbench {

/// The words of a command line after the program's name, `words`, against the subcommands
/// the program takes: `subcommands` every one (the hidden ones too), `shown` the ones --help
/// lists, which the errors name. False with one line: a first word that is an option other
/// than --help, -h or --version; words after --version; no word; a first word that names no
/// subcommand. True otherwise: CLI11 parses the rest.
[[nodiscard]] bool CheckLeadingWords(const std::vector<std::string>& words,
                                     const std::vector<std::string>& subcommands,
                                     const std::vector<std::string>& shown, std::string* err);

/// The command line as one text, its words (the program's name first) joined by one space, as a
/// run records it (`context.command_line`).
std::string JoinCommandLine(int argc, char** argv);

}  // namespace elevbench
