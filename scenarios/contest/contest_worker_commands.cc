#include "scenarios/contest/contest_worker_commands.h"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>

#include "harness/core/plain_range.h"
#include "scenarios/contest/contest_workers.h"

namespace elevbench {

std::function<int(std::string* err)> AddMemLoadCommand(CLI::App* cmd) {
  auto args = std::make_shared<MemLoad>();
  cmd->add_option("--bytes", args->bytes, "Memory to reference")
      ->required()
      ->check(PlainRange(uint64_t{1}, uint64_t{1} << 48, "bytes"));
  cmd->add_option("--passes", args->passes, "Passes over it (default 1)")
      ->check(PlainRange(1u, 1000000u));
  return [args](std::string* err) {
    uint64_t touched = 0;
    if (RunMemLoadIteration(*args, &touched, err)) return 0;
    *err = "mem-load: " + *err;
    return 1;
  };
}

std::function<int(std::string* err)> AddProcessRingCommand(CLI::App* cmd) {
  auto args = std::make_shared<ProcessRing>();
  cmd->add_option("--processes", args->processes, "Processes in the ring")
      ->required()
      ->check(PlainRange(2u, 4096u));
  cmd->add_option("--chunks", args->chunks, "Chunks passed round")
      ->required()
      ->check(PlainRange(1u, 4096u));
  cmd->add_option("--hops", args->hops, "Transfers in total")
      ->required()
      ->check(PlainRange(uint64_t{1}, uint64_t{1} << 40));
  return [args](std::string* err) {
    if (!CheckProcessRing(*args, err)) {
      *err = "process-ring: " + *err;
      return 2;
    }
    if (RunProcessRingIteration(*args, err)) return 0;
    *err = "process-ring: " + *err;
    return 1;
  };
}

}  // namespace elevbench
