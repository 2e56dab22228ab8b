#pragma once
// CLI11 in plain words (#45), beside plain_range.h's checks: the help with one blank line
// between its parts and "(required)" in words, the options' type names as values a person
// writes ("N (512 to 67108864 bytes)", "FILE", "text|json"), an empty value refused in one line,
// the exit codes under every nested command's help, and CLI11's parse errors in one line of
// the user's words. Generic over any CLI::App: the commands themselves (app/cli/) add only
// what names their own subcommands.

#include <CLI/CLI.hpp>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace elevbench {

/// CLI11's help with one blank line between its parts (it wrote two after the options when a
/// hidden option, group "", came last, as in `run --help`), and a required option saying so in
/// words after its description, where CLI11 wrote "REQUIRED" after its value (#45). Set it on
/// the top App before the subcommands are added: they copy it.
class PlainHelpFormatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override;
  std::string make_option_desc(const CLI::Option* opt) const override;
};

/// CLI11's type names in plain words, for every option of `cmd` and below: "N (512 to 67108864
/// bytes)" for "UINT:512 to 67108864 bytes", "NUMBER" for "FLOAT", the words of PlainWords
/// ("off|summary|full") as the value, an option's own type name (FILE, LIST) as it is, without
/// CLI11's "REQUIRED" (the description says it). Call after every option is added.
void PlainOptionTexts(CLI::App* cmd);

/// Every option that takes a value, of `cmd` and below, refuses an empty (or blank) one in one
/// line, "--format: empty value (choose text or json)" (#45: `report --format ''` printed the
/// default, `history --db ''` read the default database), but for the options named in `own`,
/// whose empty value their command refuses in its own words. First of its checks, so that a
/// word check does not say "not ''". Call after PlainOptionTexts: the hint is its value text.
void RefuseEmptyValues(CLI::App* cmd, const std::set<std::string>& own = {});

/// Appends `codes` ("Exit codes: …") to the footer of `cmd` and of every command nested in it,
/// but for one whose footer lists its own already (their codes differ).
void AddExitCodesFooter(CLI::App* cmd, const std::string& codes);

/// The deepest command the parsed command line chose ("history import"), its words in *path
/// (empty for the top App itself).
CLI::App* ChosenCommand(CLI::App* app, std::string* path);

/// CLI11's "files is required" and "A subcommand is required" (`what`: the error's text) as
/// what is missing, in words: "history import needs files: … (see elevbench history import
/// --help)", "kernels needs a subcommand (one of: fetch; see …)".
std::string RequiredErrorLine(CLI::App* app, const std::string& what);

/// CLI11's other parse errors in one line of the user's words (second newcomer pass, #45):
/// "--alpha needs a value", "--x is given more than once", "--x: 'v' is not a value it takes",
/// "unexpected w", each naming the chosen command's --help; else CLI11's text on one line.
std::string PlainParseError(CLI::App* app, const CLI::ParseError& e);

/// `--json` (`help` its text) and its spelling of run, report and compare, `--format json`
/// (or `text`, the default), both into `json` (#45: one spelling everywhere, the old kept).
/// `--json --format text`, in either order, is refused as a contradiction.
void AddJsonFlag(CLI::App* cmd, bool* json, const std::string& help);

/// One option of a command as data, so that a command declares its options as a table: its
/// names ("--out", "--disk-set,--set", or a positional's "files"), the value's name ("FILE"),
/// its help, where the value goes, and whether it is required. A list takes one value a flag
/// (`--disk-set a=1 b=2` is not two values), or every word as a positional.
struct PlainOption {
  std::string names;
  std::string value_name;
  std::string help;
  std::variant<std::string*, std::vector<std::string>*> into;
  bool required = false;
};

/// Adds each of `options` to `cmd`, in order.
void AddPlainOptions(CLI::App* cmd, const std::vector<PlainOption>& options);

}  // namespace elevbench
