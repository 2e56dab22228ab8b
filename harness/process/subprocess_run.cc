// The blocking helpers of subprocess.h: RunProcess (a ChildProcess started and waited for),
// RunChecked, and the small queries and messages around a child (ProgramInPath, LastLine,
// HowItEnded, ProcessReadChars).

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness/core/atomic_file.h"
#include "harness/process/subprocess.h"

namespace elevbench {
namespace {

constexpr double kRunCheckedTimeoutSeconds = 600;  // mkfs, mount, losetup: never without a bound

}  // namespace

bool ProgramInPath(const std::string& program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0;
  const char* path = getenv("PATH");
  std::string dirs = path ? path : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = dirs.substr(start, end - start) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

std::string LastLine(const std::string& text) {
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  size_t begin = text.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(begin, end - begin + 1);
}

bool RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options,
                ProcessResult* result, std::string* err) {
  *result = ProcessResult{};
  ChildProcess child;
  if (!child.Start(argv, options, err)) return false;
  const bool ok = child.Wait(-1, err);
  *result = child.result();
  return ok;
}

bool RunChecked(const std::vector<std::string>& argv, std::string* output, std::string* err) {
  ProcessResult r;
  ProcessOptions options;
  options.timeout_seconds = kRunCheckedTimeoutSeconds;
  if (!RunProcess(argv, options, &r, err)) return false;
  if (r.timed_out) {
    char seconds[32];
    snprintf(seconds, sizeof seconds, "%g", kRunCheckedTimeoutSeconds);
    *err = argv[0] + " did not finish within " + seconds + " s";
    return false;
  }
  if (output) *output = r.output;
  if (r.exit_code != 0) {
    std::string why = LastLine(r.error_output);
    if (why.empty()) why = LastLine(r.output);
    *err = argv[0] + " failed" +
           (r.term_signal ? " (signal " + std::to_string(r.term_signal) + ")"
                          : " (exit " + std::to_string(r.exit_code) + ")") +
           (why.empty() ? "" : ": " + why);
    return false;
  }
  return true;
}

std::string HowItEnded(const ProcessResult& result) {
  return result.term_signal != 0 ? "signal " + std::to_string(result.term_signal)
                                 : "exit " + std::to_string(result.exit_code);
}

uint64_t ProcessReadChars(pid_t pid) {
  std::string text, ignored;
  if (!ReadWholeFile("/proc/" + std::to_string(pid) + "/io", &text, &ignored)) return 0;
  unsigned long long rchar = 0;
  const size_t at = text.find("rchar:");
  if (at == std::string::npos || std::sscanf(text.c_str() + at, "rchar: %llu", &rchar) != 1) {
    return 0;
  }
  return rchar;
}

}  // namespace elevbench
