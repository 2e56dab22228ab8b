// A command's options as a table (plain_cli.h, AddPlainOptions): each option's value name and
// requirement as CLI11 sees them, a list flag taking one value a flag, a positional list every
// word; and the nested commands' exit codes as data (command_texts.h).

#include "harness/core/plain_cli.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/core/command_texts.h"

namespace elevbench {
namespace {

struct Parsed {
  std::string out, format;
  std::vector<std::string> sets, files;
};

// Parses `words` (after the program's name) with the table's options; false on a parse error.
bool Parse(std::vector<std::string> words, Parsed* p, std::string* what) {
  CLI::App app{"test"};
  AddPlainOptions(&app, {{"--out", "FILE", "Where", &p->out, true},
                         {"--format", "FORMAT", "How", &p->format},
                         {"--disk-set,--set", "KEY=VALUE", "Override", &p->sets},
                         {"files", "FILE", "Inputs", &p->files}});
  std::reverse(words.begin(), words.end());
  try {
    app.parse(words);
  } catch (const CLI::ParseError& e) {
    *what = e.what();
    return false;
  }
  EXPECT_EQ(app.get_option("--out")->get_type_name(), "FILE");
  EXPECT_TRUE(app.get_option("--out")->get_required());
  EXPECT_FALSE(app.get_option("--format")->get_required());
  return true;
}

TEST(PlainCliTest, AnOptionsTableGivesEachItsValueNameRequirementAndTarget) {
  Parsed p;
  std::string what;
  ASSERT_TRUE(Parse({"--out", "r.json", "--set", "a=1", "--disk-set", "b=2", "x.json", "y.json"},
                    &p, &what))
      << what;
  EXPECT_EQ(p.out, "r.json");
  EXPECT_EQ(p.sets, (std::vector<std::string>{"a=1", "b=2"}));
  EXPECT_EQ(p.files, (std::vector<std::string>{"x.json", "y.json"}))
      << "a list flag takes one value, the positional list the other words";
  Parsed missing;
  EXPECT_FALSE(Parse({"x.json"}, &missing, &what));
  EXPECT_NE(what.find("--out"), std::string::npos) << what;
}

TEST(PlainCliTest, NestedCommandsHaveTheirOwnExitCodes) {
  EXPECT_NE(std::string(NestedExitCodes("disk serve")).find("1 the daemon failed"),
            std::string::npos);
  EXPECT_NE(std::string(NestedExitCodes("history import")).find("--replace"), std::string::npos);
  EXPECT_STREQ(NestedExitCodes("disk nosuch"), kUsageExitCodes);
}

}  // namespace
}  // namespace elevbench
