#include "harness/core/command_texts.h"

namespace elevbench {
namespace {

// The exit codes of the commands that change the machine and can be interrupted.
constexpr const char* kRunExitCodes =
    "Exit codes: 0 done; 1 a cell, a device operation or the restore failed, or fio is "
    "missing; 2 bad command line or input, or a refusal (a device not named with --device); "
    "130 interrupted by SIGINT, SIGTERM or SIGHUP, after cleanup.";
constexpr const char* kCompareExitCodes =
    "Exit codes: 0 the gate passes; 1 a significant regression beyond --threshold, or a row "
    "failed/DNF more often in the new results than in the base; 2 bad command line, or files that "
    "cannot be read or "
    "compared; 3 the gate could not judge (an untested change beyond --threshold the bad way, a "
    "row only in the base, suite parameters that differ; --allow passes them). docs/compare.md, "
    "\"The gate\".";
constexpr const char* kCaptureExitCodes =
    "Exit codes: 0 captured; 1 the target could not be made, the command failed, events were "
    "lost, or the capture or the restore failed; 2 bad command line or a refusal (no such "
    "disk, --out on the traced disk, no root); 130 interrupted by SIGINT, SIGTERM or SIGHUP, "
    "after cleanup.";
constexpr const char* kHistoryExitCodes =
    "Exit codes: 0 listed; 1 the history could not be read; 2 bad command line, a database "
    "that cannot be opened, or a --suite that names no suite.";
constexpr const char* kTrendExitCodes =
    "Exit codes: 0 printed; 1 the history could not be read; 2 bad command line, a database "
    "that cannot be opened, or a suite, section, row, configuration or metric the history "
    "does not have.";
constexpr const char* kDevicesExitCodes =
    "Exit codes: 0 listed; 1 the devices could not be read; 2 bad command line.";
constexpr const char* kRestoreExitCodes =
    "Exit codes: 0 restored, or nothing to restore; 1 the restore failed; 2 bad command line, "
    "or restore without root.";
// #45: each says only what its command reads (`list` and `disk` read no file).
constexpr const char* kListExitCodes =
    "Exit codes: 0 listed; 2 bad command line (a list elevbench does not have).";
constexpr const char* kTraceExitCodes =
    "Exit codes: 0 printed; 2 bad command line, or a file that is not a readable block trace.";
constexpr const char* kDiskExitCodes =
    "Exit codes: 0 done; 1 disk serve's daemon failed; 2 bad command line, or a profile or "
    "--disk-set that disk serve cannot use.";
constexpr const char* kKernelsExitCodes =
    "Exit codes: 0 listed (and fetched); 1 a fetch or copy failed (apt-get download, dpkg-deb, "
    "depmod); 2 bad command line, a word that names no Debian kernel package, or a build that is "
    "no bzImage or lacks its modules or config.";

}  // namespace

const std::vector<SubcommandText>& SubcommandTexts() {
  static const std::vector<SubcommandText> kCommands = {
      {"run", "Run a suite and print the 2003-style tables", kRunExitCodes},
      {"report", "Print the tables of saved results files"},
      {"compare",
       "Compare two results files row by row (Mann-Whitney U); exit 1 on a significant "
       "regression beyond the threshold, 3 when it cannot judge",
       kCompareExitCodes},
      {"merge",
       "Join the shards of `run --shard I/N` into the whole plan's results (--out), printed "
       "and recorded in the history as one run"},
      {"history", "List the recorded runs (the run history)", kHistoryExitCodes},
      {"trend", "One metric of one configuration over the recorded runs", kTrendExitCodes},
      {"list", "List the suites, formats, schedulers or profiles (for people and scripts)",
       kListExitCodes},
      {"devices", "List block devices and their schedulers", kDevicesExitCodes},
      {"kernels",
       "List the kernels `run --kernels` can boot in a guest (the kernel cache), or fetch "
       "Debian's into it, or copy your own build there",
       kKernelsExitCodes},
      {"restore", "Undo what a killed run left: sysfs values, loop devices, mounts",
       kRestoreExitCodes},
      {"capture",
       "Record every bio of a disk into a block trace (a disk of yours read-only, or one "
       "elevbench makes with a command run on it)",
       kCaptureExitCodes},
      {"trace", "Summarize a block trace made by `capture`", kTraceExitCodes},
      {"disk", "The emulated rotating disk (FUSE daemon)", kDiskExitCodes},
      {"internal", "Iterations of contest's loads (internal)", kUsageExitCodes, /*hidden=*/true},
  };
  return kCommands;
}

const char* ProgramExitCodes() {
  return "Exit codes: 0 done; 1 a run, a cell, a restore or a device operation failed; 2 bad "
         "command line or input, or a refusal; 3 compare could not judge; 130 interrupted, after "
         "cleanup. Each command's --help lists its own.";
}

const char* NestedExitCodes(const std::string& path) {
  static const std::vector<std::pair<std::string, const char*>> kNested = {
      {"disk serve",
       "Exit codes: 0 unmounted and stopped; 1 the daemon failed; 2 bad command line or "
       "profile."},
      {"disk profiles", "Exit codes: 0 printed; 2 bad command line."},
      {"disk calibrate",
       "Exit codes: 0 every figure the profile claims within 10 %; 1 one is not, or the "
       "calibration failed; 2 bad command line or profile."},
      {"history import",
       "Exit codes: 0 every file recorded (or there already); 1 a file could not be recorded; 2 "
       "bad command line, an unreadable file or database, or a run refused (recorded with other "
       "cells: --replace replaces it)."}};
  for (const auto& [name, codes] : kNested) {
    if (name == path) return codes;
  }
  return kUsageExitCodes;
}

std::vector<std::string> SubcommandNames(bool hidden) {
  std::vector<std::string> names;
  for (const SubcommandText& command : SubcommandTexts()) {
    if (hidden || !command.hidden) names.push_back(command.name);
  }
  return names;
}

}  // namespace elevbench
