// libFuzzer target: scenario parameters, `elevbench run <suite> OPTIONS` after CLI11 has parsed
// them: each suite's Prepare (which checks and completes its options: tiobench --threads and
// --size, nickbench --benches and --block, probes --probes and the tree size), then what the run
// asks of a prepared suite (bytes needed, parameters, variants). The first byte picks the suite,
// the rest are the words of the command line separated by NUL bytes. `--tree DIR` is left out:
// it walks a directory of the machine.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/suites.h"
#include "fuzz/fuzz_input.h"
#include "harness/core/system_info.h"
#include "harness/run/suite.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace elevbench;
  if (size < 1) return 0;
  const std::vector<SuiteEntry>& suites = AllSuites();
  const SuiteEntry& entry = suites[data[0] % suites.size()];
  std::vector<std::string> words = fuzz::SplitAt(fuzz::AsText(data + 1, size - 1), '\0');
  for (const std::string& w : words) {
    if (w.rfind("--tree", 0) == 0 && w.rfind("--tree-", 0) != 0) return 0;
  }
  std::unique_ptr<Suite> suite = entry.make();
  CLI::App app;
  suite->AddOptions(&app);
  std::reverse(words.begin(), words.end());  // CLI11 takes the arguments last first
  try {
    app.parse(words);
  } catch (const CLI::ParseError&) {
    return 0;  // the CLI layer prints these as usage errors
  }
  MachineInfo machine;
  machine.cpus = 2;
  machine.memory_bytes = 16ULL << 30;
  std::string err;
  if (!suite->Prepare(machine, &err)) return 0;
  (void)suite->BytesNeeded();
  (void)suite->Parameters().dump();
  (void)suite->Variants();
  return 0;
}
