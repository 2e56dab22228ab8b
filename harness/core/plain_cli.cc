#include "harness/core/plain_cli.h"

#include <algorithm>
#include <vector>

#include "harness/core/plain_range.h"

namespace elevbench {
namespace {

// CLI11's messages can span lines; the contract is one line.
std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// "choose text or json" for an option of PlainWords ("text|json"), else "expected FILE".
std::string ValueHint(const CLI::Option* opt) {
  const std::string text =
      opt->get_option_text().empty() ? opt->get_type_name() : opt->get_option_text();
  const std::string value = text.substr(0, text.find(' '));
  if (value.find('|') == std::string::npos) return "expected " + value;
  std::vector<std::string> words;
  for (size_t at = 0; at != std::string::npos;) {
    const size_t bar = value.find('|', at);
    words.push_back(value.substr(at, bar == std::string::npos ? bar : bar - at));
    at = bar == std::string::npos ? bar : bar + 1;
  }
  const std::string last = words.back();
  words.pop_back();
  std::string list;
  for (const std::string& w : words) list += (list.empty() ? "" : ", ") + w;
  return "choose " + list + " or " + last;
}

}  // namespace

std::string PlainHelpFormatter::make_help(const CLI::App* app, std::string name,
                                          CLI::AppFormatMode mode) const {
  std::string help = CLI::Formatter::make_help(app, std::move(name), mode);
  for (size_t at = help.find("\n\n\n"); at != std::string::npos; at = help.find("\n\n\n", at)) {
    help.erase(at, 1);
  }
  return help;
}

std::string PlainHelpFormatter::make_option_desc(const CLI::Option* opt) const {
  const std::string desc = CLI::Formatter::make_option_desc(opt);
  return opt->get_required() ? desc + " (required)" : desc;
}

void PlainOptionTexts(CLI::App* cmd) {
  for (CLI::Option* opt : cmd->get_options({})) {
    if (!opt->get_option_text().empty() || opt->get_type_size() == 0) continue;
    const std::string type = opt->get_type_name();
    const size_t colon = type.find(':');
    const std::string head = type.substr(0, colon);
    const char* word = head == "INT" || head == "UINT" ? "N"
                       : head == "FLOAT"               ? "NUMBER"
                       : head == "SIZE"                ? "SIZE"
                                                       : nullptr;
    // The words of PlainWords ("TEXT:off|summary|full") are the value: "off|summary|full".
    std::string words = colon == std::string::npos ? "" : type.substr(colon + 1);
    if (head == "TEXT" && words.find('|') != std::string::npos &&
        words.find(':') == std::string::npos) {
      opt->option_text(words);
      continue;
    }
    std::string text = word == nullptr ? head : word;
    // Each check's words, "MiB, or 64M, 1G:1 to 1048576 MiB" → "(MiB, or 64M, 1G; 1 to …)".
    for (size_t at = words.find(':'); at != std::string::npos; at = words.find(':', at)) {
      words.replace(at, 1, "; ");
    }
    if (!words.empty()) text += " (" + words + ")";
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) text += " ...";
    opt->option_text(text);
  }
  for (CLI::App* sub : cmd->get_subcommands({})) PlainOptionTexts(sub);
}

void RefuseEmptyValues(CLI::App* cmd, const std::set<std::string>& own) {
  for (CLI::Option* opt : cmd->get_options({})) {
    if (opt->get_type_size() == 0) continue;  // a flag
    if (own.count(opt->get_name()) > 0) continue;
    const std::string hint = ValueHint(opt);
    opt->transform(CLI::Validator(
        [hint](std::string& value) -> std::string {
          const bool blank = value.find_first_not_of(" \t\n") == std::string::npos;
          return blank ? "empty value (" + hint + ")" : "";
        },
        ""));
  }
  for (CLI::App* sub : cmd->get_subcommands({})) RefuseEmptyValues(sub, own);
}

void AddExitCodesFooter(CLI::App* cmd, const std::string& codes) {
  const std::string footer = cmd->get_footer();
  if (footer.find("Exit codes:") != std::string::npos) return;
  cmd->footer(footer.empty() ? codes : footer + "\n\n" + codes);
  for (CLI::App* sub : cmd->get_subcommands({})) AddExitCodesFooter(sub, codes);
}

CLI::App* ChosenCommand(CLI::App* app, std::string* path) {
  for (CLI::App* sub : app->get_subcommands()) {
    *path += (path->empty() ? "" : " ") + sub->get_name();
    return ChosenCommand(sub, path);
  }
  return app;
}

std::string RequiredErrorLine(CLI::App* app, const std::string& what) {
  std::string path;
  CLI::App* cmd = ChosenCommand(app, &path);
  const std::string command = path.empty() ? "elevbench" : path;
  const std::string see = "see elevbench " + (path.empty() ? "" : path + " ") + "--help";
  if (what == "A subcommand is required") {
    std::string names;
    for (const CLI::App* sub : cmd->get_subcommands({})) {
      if (sub->get_group().empty()) continue;  // hidden
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    return command + " needs a subcommand (one of: " + names + "; " + see + ")";
  }
  const std::string name = what.substr(0, what.find(" is required"));
  for (CLI::App* c = cmd; c != nullptr; c = c->get_parent()) {
    for (const CLI::Option* opt : c->get_options({})) {
      if (opt->get_name() != name) continue;
      std::string words = name;
      std::replace(words.begin(), words.end(), '_', ' ');
      return command + " needs " + words + ": " + opt->get_description() + " (" + see + ")";
    }
  }
  return what + " (see --help)";
}

std::string PlainParseError(CLI::App* app, const CLI::ParseError& e) {
  std::string path;
  ChosenCommand(app, &path);
  const std::string see = " (see elevbench " + (path.empty() ? "" : path + " ") + "--help)";
  const std::string what = OneLine(e.what());
  const size_t colon = what.find(": ");
  const std::string option = colon == std::string::npos ? "" : what.substr(0, colon);
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && !option.empty()) {
    if (what.ends_with(" missing")) return option + " needs a value" + see;
    if (what.find("At Most") != std::string::npos) return option + " is given more than once" + see;
  }
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr &&
      what.rfind("Could not convert: ", 0) == 0) {
    const std::string rest = what.substr(std::string("Could not convert: ").size());
    const size_t eq = rest.find(" = ");
    if (eq != std::string::npos) {
      return rest.substr(0, eq) + ": '" + rest.substr(eq + 3) + "' is not a value it takes" + see;
    }
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr && colon != std::string::npos) {
    return "unexpected " + what.substr(colon + 2) + see;
  }
  return what + " (see --help)";
}

void AddJsonFlag(CLI::App* cmd, bool* json, const std::string& help) {
  CLI::Option* flag = cmd->add_flag("--json", *json, help);
  // Its callback runs after --json's, whatever their order on the command line (#45: `--json
  // --format text` printed text).
  cmd->add_option_function<std::string>(
         "--format",
         [json, flag](const std::string& format) {
           if (flag->count() > 0 && format != "json") {
             throw CLI::ValidationError("--format " + format,
                                        "contradicts --json (give one of them)");
           }
           *json = format == "json";
         },
         "text (default) or json: the same as --json")
      ->check(PlainWords({"text", "json"}));
}

void AddPlainOptions(CLI::App* cmd, const std::vector<PlainOption>& options) {
  for (const PlainOption& o : options) {
    CLI::Option* option =
        std::visit([&](auto* into) { return cmd->add_option(o.names, *into, o.help); }, o.into);
    option->type_name(o.value_name);
    const bool flag = o.names.rfind("-", 0) == 0;
    if (flag && std::holds_alternative<std::vector<std::string>*>(o.into)) {
      option->allow_extra_args(false);
    }
    if (o.required) option->required();
  }
}

}  // namespace elevbench
