#pragma once
// `elevbench run … --check`: step 1 of the run alone (with --kernels, each kernel's own checks
// too, nothing fetched): what the run would do in one note, or the refusal's one line; nothing
// is made. README's examples are held to passing it (ReadmeExamplesRootTest).

#include <string>

#include "harness/run/run_checks.h"
#include "harness/run/run_command.h"

namespace elevbench {

/// What a checked run would do, in one note: the suite, its configurations (or every scheduler
/// offered), repetitions and target, the machine it emulates; "…; nothing was made (--check)".
std::string CheckedRunNote(const std::string& suite_name, const CheckedRun& checked);

/// `run … --check` of `config`: its checks, the lines said through `hooks` (error, note, line;
/// neither print_tables nor record is called). kNone with what the run would do said; else the
/// refusal's kind (kUsage, or kFailure when fio is missing) with its one line said.
RunFailure CheckRunCommand(const RunConfig& config, const RunHooks& hooks);

}  // namespace elevbench
