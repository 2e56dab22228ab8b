// `elevbench merge A.json B.json … --out all.json` (docs/ci.md): the shards of one plan, each
// run on a box of its own with `run --shard I/N`, joined into the document the whole plan would
// have written; its tables printed as `run` prints them, and the whole plan recorded in the
// history as a run is.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/suites.h"
#include "app/suites_history.h"
#include "app/suites_merge.h"

namespace elevbench {
namespace {

struct MergeArgs {
  std::vector<std::string> paths;
  std::string out;
  std::string format;
  bool no_verdict = false;
  std::string history_db;
  bool no_history = false;
};

// Exit 0 merged (2 with one line when the files are not one plan's shards, each once).
int MergeCommand(const MergeArgs& args) {
  ResultsDocument doc;
  std::string err, text;
  if (!MergeShardFiles(args.paths, args.out, &doc, &err)) return ErrorExit(err);
  ReportOptions options;
  options.verdict = !args.no_verdict;
  if (!RenderResults(doc, args.format, options, &text, &err)) return ErrorExit(err);
  std::cout << text;
  std::cout.flush();
  PrintNote(std::to_string(args.paths.size()) + " shards merged into " + args.out);
  if (!doc.complete) PrintNote(args.out + " is from an unfinished run (a shard did not finish)");
  const std::string note =
      RecordInHistoryNote("merged run", args.out, doc, args.history_db, args.no_history);
  if (!note.empty()) PrintNote(note);
  return kExitOk;
}

}  // namespace

SubcommandRunner AddMergeSubcommand(CLI::App* cmd, const std::string&) {
  auto args = std::make_shared<MergeArgs>();
  AddPlainOptions(
      cmd,
      {{"files", "FILE", "The shards' results files, written by `run --shard I/N`, one per shard",
        &args->paths, true},
       {"--out", "FILE", "The whole plan's results JSON (required)", &args->out, true},
       {"--format", "FORMAT",
        "Text format of the tables printed: the suite's, text or json (default: the "
        "suite's first)",
        &args->format}});
  cmd->add_flag("--no-verdict", args->no_verdict, "Print the tables without the verdict block");
  AddHistoryOptions(cmd, "merged run", &args->history_db, &args->no_history);
  return [args] { return MergeCommand(*args); };
}

}  // namespace elevbench
