#include "harness/run/suite_option_words.h"

#include "harness/core/plain_cli.h"

namespace elevbench {
namespace {

// `run --size 0 tiobench`: an option of a suite given before the suite's name, which CLI11
// calls "not expected". The suites that take it, or "" when none does.
std::string SuitesTakingOption(CLI::App* app, const std::string& arg) {
  if (arg.rfind("--", 0) != 0) return "";
  const std::string name = arg.substr(0, arg.find('='));
  CLI::App* run = app->get_subcommand("run");
  std::string suites;
  for (CLI::App* suite : run->get_subcommands({})) {
    for (const CLI::Option* opt : suite->get_options({})) {
      if (opt->check_lname(name.substr(2))) {
        suites += (suites.empty() ? "" : ", ") + suite->get_name();
      }
    }
  }
  return suites;
}

}  // namespace

std::string MisplacedSuiteOptionLine(CLI::App* app, const std::vector<std::string>& words) {
  std::string path;
  const CLI::App* chosen = ChosenCommand(app, &path);
  const std::string suite =
      chosen->get_parent() != nullptr && chosen->get_parent()->get_name() == "run"
          ? chosen->get_name()
          : "";
  bool after_suite = false;
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    after_suite = after_suite || (!suite.empty() && word == suite);
    const std::string suites = SuitesTakingOption(app, word);
    if (suites.empty()) continue;
    // #45, fourth pass: `run nickbench --threads 4` was told to give --threads after a
    // suite's name, where it was.
    if (after_suite) {
      const std::string option = word.substr(0, word.find('='));
      return suite + " has no " + option + " (it is " +
             (suites.find(',') == std::string::npos ? suites + "'s" : "an option of " + suites) +
             "; see elevbench run " + suite + " --help)";
    }
    return word + " is an option of a suite (" + suites +
           "): give it after the suite's name, e.g. `elevbench run " +
           suites.substr(0, suites.find(',')) + " " + word + " …` (see --help)";
  }
  return "";
}

std::string ParseErrorLine(CLI::App* app, const CLI::ParseError& e,
                           const std::vector<std::string>& words) {
  if (const auto* required = dynamic_cast<const CLI::RequiredError*>(&e);
      required != nullptr && std::string(e.what()).ends_with(" is required")) {
    return RequiredErrorLine(app, e.what());
  }
  if (const auto* extras = dynamic_cast<const CLI::ExtrasError*>(&e);
      extras != nullptr && !words.empty() && words[0] == "run") {
    const std::string line = MisplacedSuiteOptionLine(app, words);
    if (!line.empty()) return line;
  }
  return PlainParseError(app, e);
}

}  // namespace elevbench
