#pragma once
// `elevbench run`'s words that CLI11 found extra because a suite's option stood where the
// suite does not take it (#45): each suite of the table is a subcommand of `run` with its own
// options, so `run --size 0 tiobench` and `run nickbench --threads 4` (an option of another
// suite) read as "not expected". Said as what the user meant, naming the suites that take the
// option. Generic over the suites: it reads them from the parsed CLI11 command.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace elevbench {

/// For CLI11's ExtrasError of `elevbench run …`: `app` the top App, parsed, whose "run" has
/// the suites as its subcommands; `words` the command line's words after the program's name
/// (words[0] "run"). The first word that is an option of a suite, said one of two ways: after
/// the chosen suite's name, "SUITE has no --x (it is OTHER's; see elevbench run SUITE --help)";
/// before it, "--x is an option of a suite (A, B): give it after the suite's name, e.g. …".
/// Empty when no word is a suite's option (CLI11's error says it then).
std::string MisplacedSuiteOptionLine(CLI::App* app, const std::vector<std::string>& words);

/// CLI11's parse error `e` of the top App `app` (parsed from `words`, the command line after the
/// program's name) as one line; where CLI11 says too little, what the user meant: a missing
/// required value or subcommand in words (RequiredErrorLine), a suite's option in the wrong
/// place of `run` (MisplacedSuiteOptionLine), else PlainParseError.
std::string ParseErrorLine(CLI::App* app, const CLI::ParseError& e,
                           const std::vector<std::string>& words);

}  // namespace elevbench
