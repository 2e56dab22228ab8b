// `elevbench list suites|formats|schedulers|profiles [--json]`: the project's tables, printed
// from the tables themselves, for people and for scripts (scripts/killsweep reads `list suites
// --json`), so that no list is kept twice.

#include <CLI/CLI.hpp>
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
  AddPlainOptions(cmd, {{"what", "suites|formats|schedulers|profiles",
                         "suites, formats, schedulers or profiles", &args->what, true}});
  AddJsonFlag(cmd, &args->json, "JSON output (an array)");
  return [args] {
    std::string err;
    if (!CheckListName(args->what, &err)) {  // not CLI::IsMember, whose error names "what"
      PrintError(err);
      return kExitUsage;
    }
    const nlohmann::json list = ListJson(args->what);
    std::cout << (args->json ? list.dump(2) + "\n" : ListText(args->what, list));
    return kExitOk;
  };
}

}  // namespace elevbench
