// `elevbench internal …`: hidden subcommands that are the iterations of contest's mem_load and
// process_load (scenarios/contest/contest_workers.h). The contest suite runs them as a
// repeated-command load; they are not meant to be typed, so --help does not list them.

#include <CLI/CLI.hpp>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "scenarios/contest/contest_workers.h"

namespace elevbench {

void AddInternalCommands(CLI::App* app, InternalCommands* c) {
  c->internal_cmd = app->add_subcommand("internal", "Iterations of contest's loads (internal)");
  c->internal_cmd->group("");  // hidden from --help and the man page
  c->internal_cmd->require_subcommand(1);
  c->mem_cmd = c->internal_cmd->add_subcommand("mem-load", "One mem_load iteration");
  c->mem_cmd->add_option("--bytes", c->bytes, "Memory to reference")
      ->required()
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 48));
  c->mem_cmd->add_option("--passes", c->passes, "Passes over it (default 1)")
      ->check(CLI::Range(1u, 1000000u));
  c->ring_cmd = c->internal_cmd->add_subcommand("process-ring", "One process_load iteration");
  c->ring_cmd->add_option("--processes", c->processes, "Processes in the ring")
      ->required()
      ->check(CLI::Range(2u, 4096u));
  c->ring_cmd->add_option("--chunks", c->chunks, "Chunks passed round")
      ->required()
      ->check(CLI::Range(1u, 4096u));
  c->ring_cmd->add_option("--hops", c->hops, "Transfers in total")
      ->required()
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
}

int RunInternalCommands(const InternalCommands& c) {
  std::string err;
  if (c.mem_cmd != nullptr && *c.mem_cmd) {
    uint64_t touched = 0;
    if (!RunMemLoadIteration(c.bytes, c.passes, &touched, &err)) {
      PrintError("mem-load: " + err);
      return kExitFailure;
    }
    return kExitOk;
  }
  if (c.ring_cmd != nullptr && *c.ring_cmd) {
    if (c.hops < c.chunks) {
      PrintError("process-ring: --hops must be at least --chunks");
      return kExitUsage;
    }
    if (!RunProcessRingIteration(c.processes, c.chunks, c.hops, &err)) {
      PrintError("process-ring: " + err);
      return kExitFailure;
    }
    return kExitOk;
  }
  return -1;
}

}  // namespace elevbench
