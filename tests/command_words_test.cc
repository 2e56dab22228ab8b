// The command line's first words checked before CLI11 parses them
// (harness/core/command_words.h), the table of subcommands' texts they are checked against
// (harness/core/command_texts.h), and `run`'s misplaced suite options
// (harness/run/suite_option_words.h).

#include "harness/core/command_words.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "harness/core/command_texts.h"
#include "harness/run/suite_option_words.h"

namespace elevbench {
namespace {

const std::vector<std::string> kWordsCommands = {"run", "report", "internal"};
const std::vector<std::string> kWordsShown = {"run", "report"};

TEST(CommandWordsTest, ASubcommandComesFirst) {
  std::string err;
  EXPECT_TRUE(CheckLeadingWords({"run", "tiobench"}, kWordsCommands, kWordsShown, &err)) << err;
  EXPECT_TRUE(CheckLeadingWords({"internal"}, kWordsCommands, kWordsShown, &err)) << err;
  EXPECT_TRUE(CheckLeadingWords({"--help"}, kWordsCommands, kWordsShown, &err)) << err;
  EXPECT_TRUE(CheckLeadingWords({"-h"}, kWordsCommands, kWordsShown, &err)) << err;
  EXPECT_TRUE(CheckLeadingWords({"--version"}, kWordsCommands, kWordsShown, &err)) << err;
  EXPECT_FALSE(CheckLeadingWords({}, kWordsCommands, kWordsShown, &err));
  EXPECT_EQ(err, "no subcommand given (one of: run, report; see elevbench --help)");
  EXPECT_FALSE(CheckLeadingWords({"--dir", "x"}, kWordsCommands, kWordsShown, &err));
  EXPECT_EQ(err, "unknown option '--dir': elevbench takes a subcommand first (see --help)");
  EXPECT_FALSE(CheckLeadingWords({"--version", "run"}, kWordsCommands, kWordsShown, &err));
  EXPECT_EQ(err, "unexpected 'run': --version takes no other words (see elevbench --help)");
  EXPECT_FALSE(CheckLeadingWords({"rnu"}, kWordsCommands, kWordsShown, &err));
  EXPECT_EQ(err, "unknown subcommand 'rnu' (one of: run, report)");
  EXPECT_FALSE(CheckLeadingWords({""}, kWordsCommands, kWordsShown, &err));
  EXPECT_EQ(err, "unknown subcommand '' (one of: run, report)");
}

TEST(CommandWordsTest, TheCommandLineIsItsWordsJoined) {
  char program[] = "elevbench";
  char run[] = "run";
  char suite[] = "tiobench";
  char* argv[] = {program, run, suite};
  EXPECT_EQ(JoinCommandLine(3, argv), "elevbench run tiobench");
  EXPECT_EQ(JoinCommandLine(1, argv), "elevbench");
}

TEST(CommandTextsTest, EverySubcommandOnceWithItsLineAndExitCodes) {
  std::set<std::string> names;
  for (const SubcommandText& command : SubcommandTexts()) {
    EXPECT_TRUE(names.insert(command.name).second) << command.name;
    EXPECT_FALSE(std::string(command.description).empty()) << command.name;
    EXPECT_EQ(std::string(command.exit_codes).rfind("Exit codes: 0 ", 0), 0u) << command.name;
    // Every subcommand can exit 2 on a bad command line.
    EXPECT_NE(std::string(command.exit_codes).find("; 2 "), std::string::npos) << command.name;
  }
  EXPECT_EQ(SubcommandTexts().front().name, std::string("run"));  // first in --help
  EXPECT_EQ(SubcommandNames(true).size(), SubcommandTexts().size());
  const std::vector<std::string> shown = SubcommandNames(false);
  EXPECT_EQ(std::count(shown.begin(), shown.end(), "internal"), 0);  // hidden
  EXPECT_EQ(std::count(shown.begin(), shown.end(), "history"), 1);
  EXPECT_EQ(std::string(ProgramExitCodes()).rfind("Exit codes: 0 done", 0), 0u);
}

// `run` with two suites as its subcommands, parsed from `words`, as the CLI's.
struct SuiteWordsApp {
  CLI::App app;
  CLI::App* run = app.add_subcommand("run");
  std::string size, threads;
  explicit SuiteWordsApp(std::vector<std::string> words) {
    run->add_subcommand("tiobench")->add_option("--size", size);
    run->add_subcommand("nickbench")->add_option("--threads", threads);
    std::reverse(words.begin(), words.end());
    app.parse(words);
  }
};

TEST(SuiteOptionWordsTest, ASuitesOptionBeforeItsNameIsSaidWhereItGoes) {
  SuiteWordsApp s({"run"});
  EXPECT_EQ(MisplacedSuiteOptionLine(&s.app, {"run", "--size", "0", "tiobench"}),
            "--size is an option of a suite (tiobench): give it after the suite's name, e.g. "
            "`elevbench run tiobench --size …` (see --help)");
  EXPECT_EQ(MisplacedSuiteOptionLine(&s.app, {"run", "--bogus", "tiobench"}), "");
  EXPECT_EQ(MisplacedSuiteOptionLine(&s.app, {"run", "size"}), "");  // not an option
}

// #45, fourth pass: `run nickbench --size 4` was told to give --size after a suite's name.
TEST(SuiteOptionWordsTest, AnotherSuitesOptionAfterTheNameNamesItsSuite) {
  SuiteWordsApp s({"run", "nickbench"});
  EXPECT_EQ(MisplacedSuiteOptionLine(&s.app, {"run", "nickbench", "--size=4"}),
            "nickbench has no --size (it is tiobench's; see elevbench run nickbench --help)");
}

}  // namespace
}  // namespace elevbench
