// `elevbench internal …`: the hidden commands of the table of internal commands
// (app/suites.h), iterations of a suite's repeated-command loads that the suite runs as
// children of its own. They are not meant to be typed, so --help does not list them.

#include <CLI/CLI.hpp>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"

namespace elevbench {

SubcommandRunner AddInternalSubcommand(CLI::App* cmd, const std::string&) {
  cmd->require_subcommand(1);
  auto commands =
      std::make_shared<std::vector<std::pair<CLI::App*, std::function<int(std::string*)>>>>();
  for (const InternalCommand& entry : AllInternalCommands()) {
    CLI::App* sub = cmd->add_subcommand(entry.name, entry.description);
    commands->emplace_back(sub, entry.add(sub));
  }
  return [commands] {
    for (const auto& [sub, run] : *commands) {
      if (!*sub) continue;
      std::string err;
      const int code = run(&err);
      if (code != 0) PrintError(err);
      return code == 0 ? kExitOk : (code == 2 ? kExitUsage : kExitFailure);
    }
    return kExitUsage;
  };
}

}  // namespace elevbench
