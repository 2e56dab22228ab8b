// `elevbench list suites|formats|schedulers|profiles [--json]`: the project's tables, printed
// from the tables themselves, for people and for scripts (scripts/killsweep reads `list suites
// --json`), so that no list is kept twice.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/suites_list.h"

namespace elevbench {

SubcommandRunner AddListSubcommand(CLI::App* cmd, const std::string&) {
  struct ListArgs {
    std::string what;
    bool json = false;
  };
  auto args = std::make_shared<ListArgs>();
  cmd->add_option("what", args->what, "suites, formats, schedulers or profiles")
      ->type_name("suites|formats|schedulers|profiles")
      ->required();
  AddJsonFlag(cmd, &args->json, "JSON output (an array)");
  return [args] {
    // Checked here, not by CLI::IsMember: its "what: bogus not in {…}" named the placeholder.
    const std::vector<std::string> lists = {"suites", "formats", "schedulers", "profiles"};
    if (std::find(lists.begin(), lists.end(), args->what) == lists.end()) {
      PrintError("list: no list '" + args->what +
                 "' (suites, formats, schedulers or profiles; see elevbench list --help)");
      return kExitUsage;
    }
    const nlohmann::json list = ListJson(args->what);
    std::cout << (args->json ? list.dump(2) + "\n" : ListText(args->what, list));
    return kExitOk;
  };
}

}  // namespace elevbench
