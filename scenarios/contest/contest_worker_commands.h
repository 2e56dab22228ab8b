#pragma once
// The hidden `elevbench internal mem-load|process-ring` commands: one iteration of contest's
// mem_load or process_load (contest_workers.h), which the contest suite runs as a repeated-
// command load. Listed in the table of internal commands (app/suites.h).

#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace elevbench {

/// Adds mem-load's options (--bytes, --passes) to `cmd`; the returned function runs one
/// iteration: 0 done, 1 failed, with err.
std::function<int(std::string* err)> AddMemLoadCommand(CLI::App* cmd);

/// Adds process-ring's options (--processes, --chunks, --hops) to `cmd`; the returned function
/// runs one iteration: 0 done, 1 failed, 2 for a ring CheckProcessRing refuses (--hops below
/// --chunks), with err.
std::function<int(std::string* err)> AddProcessRingCommand(CLI::App* cmd);

}  // namespace elevbench
