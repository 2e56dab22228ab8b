#include "scenarios/command/command_suite.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "harness/core/atomic_file.h"
#include "harness/core/plain_range.h"
#include "harness/core/strings.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/disk_stat.h"
#include "harness/device/sysfs.h"
#include "harness/engine/load_probe.h"
#include "harness/engine/page_cache.h"
#include "harness/engine/process_load.h"
#include "harness/fio/fio_job_file.h"
#include "harness/process/bounded_call.h"
#include "harness/trace/block_capture.h"
#include "scenarios/command/command_records.h"
#include "scenarios/command/program_bios.h"

namespace elevbench {

namespace fs = std::filesystem;

namespace {

constexpr double kCommandDefaultTimeoutSeconds = 20 * 60;  // the probes' "DNF after 20 minutes"
constexpr uint32_t kCommandSeqBlockBytes = 1 << 20;        // dd bs=1M, cat's large reads
constexpr uint32_t kCommandRandBlockBytes = 4096;          // tiobench's random reads

std::string CommandWorkDir(const std::string& dir) { return dir + "/elevbench-command"; }
std::string CommandLoadDir(const std::string& dir) { return dir + "/elevbench-command-load"; }
std::string CommandLoadFile(const std::string& dir) { return CommandLoadDir(dir) + "/data"; }

// True when `name` (no slash) is an executable file in a directory of PATH.
bool CommandInPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path == nullptr ? "/usr/bin:/bin" : path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return true;
  }
  return false;
}

// Empties (or makes) the program's working directory, so every cell starts alike.
bool CommandFreshDirectory(const std::string& dir, std::string* err) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (!ec) fs::create_directories(dir, ec);
  if (ec) {
    *err = "cannot make an empty " + dir + ": " + ec.message();
    return false;
  }
  return true;
}

// The program's bios, traced on the target disk from just before its fork to just after its
// reap (a private tracefs instance: root, the run's journal). Untraced when it cannot be.
class ProgramBioTrace {
 public:
  void Start(const CellEnvironment& env, uint32_t major, uint32_t minor) {
    if (env.journal == nullptr || major == 0) {
      problem_ = env.journal == nullptr ? "not root" : "the target's disk is not known";
      return;
    }
    raw_ = env.work_dir + "/" + env.label_prefix + "command-bios.trace";
    tid_ = static_cast<int32_t>(gettid());
    started_ = capture_.Start(env.journal, major, minor, raw_, &problem_, ProgramTraceEvents());
  }
  void Stop() {
    if (started_ && !capture_.Stop(&trace_, &problem_)) problem_ = "stopping: " + problem_;
    stopped_ = started_ && problem_.empty();
  }
  void Fill(CommandRecord* rec) {
    std::string text, ignored;
    if (stopped_ && ReadWholeFile(raw_, &text, &ignored)) {
      const ProgramBios b = ProgramBiosOf(trace_.records, DescendantsInTrace(text, tid_));
      rec->bios_traced = true;
      rec->bios = b.bios;
      rec->untimed_bios = b.untimed;
      rec->kernel_read = b.read;
      rec->kernel_write = b.write;
    }
    if (!rec->bios_traced)
      rec->bios_problem = problem_.empty() ? "its trace was not read" : problem_;
    if (!raw_.empty()) unlink(raw_.c_str());
  }

 private:
  BlockCapture capture_;
  BlockTrace trace_;
  std::string raw_;
  int32_t tid_ = 0;
  bool started_ = false, stopped_ = false;
  std::string problem_;  // why the bios are not traced, one line
};

}  // namespace

std::string CommandText(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& word : argv) {
    if (!text.empty()) text += ' ';
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                            "0123456789-_./=:,+@%^") == std::string::npos;
    if (plain) {
      text += word;
      continue;
    }
    text += '\'';
    for (const char c : word) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += '\'';
  }
  return text;
}

std::string StderrTail(const std::string& text, size_t max_lines, size_t max_bytes) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t end = line.find_last_not_of(" \t\r");
    if (end != std::string::npos) lines.push_back(line.substr(0, end + 1));
  }
  const size_t first = lines.size() > max_lines ? lines.size() - max_lines : 0;
  std::string tail;
  for (size_t i = first; i < lines.size(); ++i) tail += (tail.empty() ? "" : " | ") + lines[i];
  if (tail.size() > max_bytes) tail = "…" + tail.substr(tail.size() - max_bytes);
  return tail;
}

namespace {

class CommandSuite : public Suite {
 public:
  void AddOptions(CLI::App* cmd) override {
    cmd->add_option("program", argv_,
                    "The program and its arguments, after --: run command [options] -- CMD ARGS")
        ->type_name("COMMAND");
    cmd->add_option("--setup", setup_,
                    "Shell command (sh -c) run in the program's directory before each cell, "
                    "e.g. 'tar -xf /src/linux.tar'; the caches are dropped after it")
        ->type_name("COMMAND");
    cmd->add_option("--load", load_,
                    "Background load while the program runs: none (default), seq-write, "
                    "seq-read, rand-read, command (--load-command)")
        ->type_name("LOAD");
    cmd->add_option("--load-command", load_command_,
                    "A shell command (sh -c) run again and again as the load, in a directory of "
                    "its own on the target (implies --load command)")
        ->type_name("COMMAND");
    load_size_option_ =
        cmd->add_option("--load-size", load_mb_,
                        "MiB (2^20 bytes) of the file the load loops over (default 512)")
            ->type_name("SIZE")
            ->transform(MiBSize())
            ->check(PlainRange(1, 1 << 20, "MiB"));
    warmup_option_ = cmd->add_option("--warmup", warmup_seconds_,
                                     "Seconds the load runs before the program starts (default 5; "
                                     "needs a --load)")
                         ->check(PlainRange(0.0, 3600.0, "seconds"));
    cmd->add_option(
           "--space", space_mb_,
           "MiB (2^20 bytes) the program and its set-up need on the target, to size a device "
           "elevbench makes (default 256)")
        ->type_name("SIZE")
        ->transform(MiBSize())
        ->check(PlainRange(1, 1 << 24, "MiB"));
  }

  bool Prepare(const MachineInfo&, std::string* err) override {
    if (argv_.empty()) {
      *err = "run command needs the program after --: elevbench run command [options] -- CMD ARGS";
      return false;
    }
    if (TrimWhitespace(argv_[0]).empty()) {
      *err = "run command: the program's name is empty";
      return false;
    }
    if (std::ranges::find(CommandLoads(), load_) == CommandLoads().end()) {
      *err = "--load: unknown load '" + load_ + "' (none, seq-write, seq-read, rand-read, command)";
      return false;
    }
    if (!load_command_.empty() && load_ != "none" && load_ != "command") {
      *err = "--load " + load_ + " and --load-command are alternatives: give one";
      return false;
    }
    if (!load_command_.empty()) load_ = "command";
    if (load_ == "command" && TrimWhitespace(load_command_).empty()) {
      *err = "--load command needs the command: --load-command 'CMD'";
      return false;
    }
    if (load_size_option_->count() > 0 && !FioLoad()) {  // #45: passed over silently
      *err =
          "--load-size applies to a fio load (--load seq-write, seq-read or rand-read), not "
          "to --load " +
          load_;
      return false;
    }
    if (warmup_option_->count() > 0 && load_ == "none") {  // #45, fourth pass: was ignored
      *err = "--warmup applies to a background load (--load or --load-command); no load is given";
      return false;
    }
    if (argv_[0].find('/') == std::string::npos && !CommandInPath(argv_[0])) {
      *err = "run command: program '" + argv_[0] + "' not found in PATH";
      return false;
    }
    return true;
  }

  uint64_t BytesNeeded() const override {
    const uint64_t load = FioLoad() ? static_cast<uint64_t>(load_mb_) << 20 : 0;
    return (static_cast<uint64_t>(space_mb_) << 20) + load + load / 4 + (64ULL << 20);
  }

  /// Roles with a --load (after Prepare): the program is the probe, the load the load.
  bool HasRoles() const override { return load_ != "none"; }

  // A program named by its path (one found in PATH is the guest's own, as the host's).
  std::vector<HostPathUse> HostPaths() const override {
    if (argv_.empty() || argv_[0].find('/') == std::string::npos) return {};
    return {{"program", argv_[0]}};
  }

  nlohmann::json Parameters() const override {
    return {{"directory", directory_},
            {"working_directory", directory_.empty() ? "" : CommandWorkDir(directory_)},
            {"command", CommandText(argv_)},
            {"argv", argv_},
            {"setup", setup_},
            {"load", load_},
            {"load_command", load_command_},
            {"load_size_mb", load_mb_},
            {"warmup_seconds", warmup_seconds_},
            {"space_mb", space_mb_},
            {"disks", disks_}};
  }

  std::vector<SuiteVariant> Variants() const override {
    return {{CommandText(argv_), {{"command", CommandText(argv_)}}}};
  }

  bool SetUp(const CellEnvironment& env, nlohmann::json* setup, std::string* err) override {
    directory_ = env.directory;
    disks_.clear();
    std::string disk_err;
    if (!ResolveQueueDevices(env.directory, SystemPaths{}, &disks_, &disk_err) || disks_.empty()) {
      disks_.clear();
      if (load_ != "none") {
        *err = "--load " + load_ + ": cannot find the disk under " + env.directory +
               " to count the load's bytes: " + disk_err;
        return false;
      }
    }
    major_ = minor_ = 0;
    if (disks_.size() == 1 && env.journal != nullptr &&
        !ReadDiskNumbers(Sysfs(), disks_.front(), &major_, &minor_, &disk_err)) {
      major_ = minor_ = 0;  // the program's bios go untraced
    }
    if (!CommandFreshDirectory(CommandWorkDir(env.directory), err)) return false;
    if (FioLoad() && !LayOutLoadFile(env, err)) return false;
    *setup = {{"working_directory", CommandWorkDir(env.directory)},
              {"disks", disks_},
              {"load_file", FioLoad() ? CommandLoadFile(env.directory) : ""},
              {"load_file_bytes", FioLoad() ? static_cast<uint64_t>(load_mb_) << 20 : 0}};
    return true;
  }

  bool RunCell(const SuiteVariant&, const CellEnvironment& env,
               std::vector<nlohmann::json>* records, std::string* err) override {
    const std::string work = CommandWorkDir(env.directory);
    if (!CommandFreshDirectory(work, err)) return false;
    CommandRecord rec;
    rec.command = CommandText(argv_);
    rec.load = load_;
    if (!RunSetUp(env, &rec.setup_seconds, err)) return false;
    // The set-up's data goes to the disk now, not while the program runs.
    if (env.on_phase) env.on_phase("syncing the set-up");
    BoundedCallLimits limits;
    limits.deadline_seconds = 120;
    if (!SyncPathBounded(work, limits, err)) return false;
    ProbeSpec spec = ProgramSpec(env, work);
    spec.placement = env.probe_placement;  // --controls: the program is the probe role
    DiskIoCounters before, after;
    std::string counter_err;
    bool counted = true;
    ProgramBioTrace bios;
    spec.on_start = [&] {
      bios.Start(env, major_, minor_);
      counted = ReadCounters(&before, &counter_err);
    };
    spec.on_end = [&] {
      counted = counted && ReadCounters(&after, &counter_err);
      bios.Stop();
    };
    ProbeOutcome outcome;
    if (load_ == "none") {
      if (!Evict(env, err)) return false;
      if (env.on_phase) env.on_phase("running " + rec.command);
      if (!RunForegroundProbe(spec, &outcome, err)) return false;
    } else if (load_ == "command") {
      if (!RunBesideCommandLoad(env, spec, &outcome, &rec, err)) return false;
    } else {
      LoadProbeResult result;
      if (env.on_phase) env.on_phase(load_ + " warm-up");
      LoadSpec load = LoadOf(env.directory);
      load.placement = env.load_placement;
      if (!RunLoadWithProbe(env.fio, load, spec, env.work_dir, env.label_prefix + "command",
                            &result, err)) {
        return false;
      }
      outcome = result.probe;
      rec.load_streams = result.load;
    }
    if (outcome.process.interrupted) {
      *err = "interrupted while " + rec.command + " ran";
      return false;
    }
    if (!counted) {
      *err = "disk counters: " + counter_err;
      return false;
    }
    FillRecord(outcome, spec.timeout_seconds, DiskIoDelta(before, after), &rec);
    bios.Fill(&rec);
    records->push_back(CommandRecordToJson(rec));
    return true;
  }

  void TearDown(const CellEnvironment& env) override {
    std::error_code ec;
    fs::remove_all(CommandWorkDir(env.directory), ec);
    fs::remove_all(fs::path(CommandLoadFile(env.directory)).parent_path(), ec);
  }

  std::string CachePolicy(const std::string& global_drop) const override {
    return std::string(
               "Before each run of the program: its set-up synced, then (with cache drops "
               "allowed) the clean page cache, dentries and inodes dropped without a sync, "
               "otherwise its directory's files evicted") +
           global_drop;
  }

  nlohmann::json Summarize(const ResultsDocument& doc) const override {
    return SummarizeRows(doc, CommandRecordsFromDocument, AggregateCommandRows,
                         CommandSummaryToJson);
  }

 private:
  bool ReadCounters(DiskIoCounters* counters, std::string* err) const {
    if (disks_.empty()) return true;  // no disk under the target: nothing to count
    return ReadDiskIoCounters(disks_, SystemPaths{}, counters, err);
  }

  double TimeoutOf(const CellEnvironment& env) const {
    return env.timeout_seconds > 0 ? env.timeout_seconds : kCommandDefaultTimeoutSeconds;
  }

  ProbeSpec ProgramSpec(const CellEnvironment& env, const std::string& work) const {
    ProbeSpec spec;
    spec.argv = argv_;
    spec.working_directory = work;
    spec.stdout_path = env.work_dir + "/" + env.label_prefix + "command.out";
    spec.timeout_seconds = TimeoutOf(env);
    spec.warmup_seconds = warmup_seconds_;
    spec.evict = [this, &env](std::string* e) { return Evict(env, e); };
    return spec;
  }

  bool FioLoad() const { return load_ != "none" && load_ != "command"; }

  // The user's load command, again and again in its own emptied directory, beside the program.
  bool RunBesideCommandLoad(const CellEnvironment& env, const ProbeSpec& spec,
                            ProbeOutcome* outcome, CommandRecord* rec, std::string* err) const {
    if (!CommandFreshDirectory(CommandLoadDir(env.directory), err)) return false;
    RepeatedCommandSpec load;
    load.argv = {"sh", "-c", load_command_};
    load.working_directory = CommandLoadDir(env.directory);
    load.placement = env.load_placement;
    if (env.on_phase) env.on_phase("load warm-up");
    RepeatedCommandResult result;
    if (!RunCommandLoadWithProbe(load, spec, &result, outcome, err)) {
      if (result.failed > 0 && !result.last_failure_output.empty()) {
        *err += " (the load's last failure: " + result.last_failure_output + ")";
      }
      return false;
    }
    // A load that never once succeeded is no load: the cell fails rather than measure beside it.
    if (result.failed > 0 && result.completed == 0) {
      *err = "--load-command failed every time (" + std::to_string(result.failed) +
             " iterations, the last exit " + std::to_string(result.last_failure_exit_code) + ")" +
             (result.last_failure_output.empty() ? "" : ": " + result.last_failure_output);
      return false;
    }
    rec->load_command = load_command_;
    rec->load_iterations = result.completed;
    return true;
  }

  // `sh -c SETUP` in the program's directory, under the run's timeout; a failure fails the cell.
  bool RunSetUp(const CellEnvironment& env, double* seconds, std::string* err) const {
    if (setup_.empty()) return true;
    if (env.on_phase) env.on_phase("set-up");
    ProbeSpec spec;
    spec.argv = {"sh", "-c", setup_};
    spec.working_directory = CommandWorkDir(env.directory);
    spec.stdout_path = env.work_dir + "/" + env.label_prefix + "setup.out";
    spec.timeout_seconds = TimeoutOf(env);
    ProbeOutcome outcome;
    if (!RunForegroundProbe(spec, &outcome, err)) {
      *err = "--setup: " + *err;
      return false;
    }
    const ProcessResult& p = outcome.process;
    *seconds = p.usage.elapsed_seconds;
    if (outcome.dnf) {
      *err = "--setup did not finish within " + std::to_string(spec.timeout_seconds) + " s";
      return false;
    }
    if (p.exit_code != 0) {
      const std::string tail = StderrTail(p.error_output);
      *err = "--setup failed (" + HowItEnded(p) + ")" + (tail.empty() ? "" : ": " + tail);
      return false;
    }
    return true;
  }

  // The probes' hygiene: with cache drops allowed, the clean page cache, dentries and inodes go
  // (no sync, which would stall a writing load); otherwise the directory's own files.
  bool Evict(const CellEnvironment& env, std::string* err) const {
    if (env.on_phase) env.on_phase("evicting the caches");
    if (env.drop_caches) return DropCleanCaches(err);
    (void)EvictTreeFromPageCache(CommandWorkDir(env.directory));
    return true;
  }

  void FillRecord(const ProbeOutcome& outcome, double timeout, const DiskIoCounters& device,
                  CommandRecord* rec) const {
    const ProcessResult& p = outcome.process;
    rec->status = outcome.dnf                              ? "dnf"
                  : outcome.oom_killed                     ? kCommandKilledOom
                  : p.exit_code == 0 && p.term_signal == 0 ? "ok"
                                                           : "failed";
    rec->exit_code = p.exit_code;
    rec->term_signal = p.term_signal;
    if (rec->status != "ok") rec->stderr_tail = StderrTail(p.error_output);
    rec->elapsed_seconds = p.usage.elapsed_seconds;
    rec->user_seconds = p.usage.user_seconds;
    rec->system_seconds = p.usage.system_seconds;
    rec->timeout_seconds = timeout;
    rec->warmup_seconds = outcome.warmup_seconds;
    rec->major_faults = p.usage.major_faults;
    rec->minor_faults = p.usage.minor_faults;
    rec->read_bytes = p.usage.block_input_ops * 512;
    rec->written_bytes = p.usage.block_output_ops * 512;
    rec->device_read_bytes = device.read_bytes;
    rec->device_written_bytes = device.written_bytes;
  }

  // The load: the suites' streams over one file, time-based until stopped.
  LoadSpec LoadOf(const std::string& dir) const {
    LoadSpec load;
    load.global = LegacyToolFioGlobal();
    StreamSpec s = Stream(dir);
    s.name = load_;
    s.runtime_ms = 7ULL * 24 * 3600 * 1000;  // runs until stopped, looping over the file
    if (load_ == "seq-read") s.extra.emplace_back("invalidate", "1");  // each loop from the disk
    load.streams = {s};
    return load;
  }

  StreamSpec Stream(const std::string& dir) const {
    StreamSpec s;
    s.rw = load_ == "seq-write" ? "write" : load_ == "seq-read" ? "read" : "randread";
    s.filename = CommandLoadFile(dir);
    s.file_size_bytes = static_cast<uint64_t>(load_mb_) << 20;
    s.block_size_bytes = load_ == "rand-read" ? kCommandRandBlockBytes : kCommandSeqBlockBytes;
    // Random 4 KiB reads of a file the page cache may come to hold: O_DIRECT, so every one of
    // them reaches the device.
    s.direct = load_ == "rand-read";
    s.ioengine = "psync";
    return s;
  }

  // Every load overwrites or reads a file that exists, in every cell alike.
  bool LayOutLoadFile(const CellEnvironment& env, std::string* err) const {
    if (env.on_phase) env.on_phase("laying out the load's file");
    std::error_code ec;
    fs::create_directories(fs::path(CommandLoadFile(env.directory)).parent_path(), ec);
    StreamSpec s = Stream(env.directory);
    s.name = "layout";
    s.rw = "write";
    s.direct = false;
    s.block_size_bytes = kCommandSeqBlockBytes;
    s.end_fsync = true;
    return LayOutWithFio(env, LegacyToolFioGlobal(), {s}, "command-layout", 0,
                         "laying out the load's file", err);
  }

  std::vector<std::string> argv_;
  std::string setup_;
  std::string load_ = "none";
  std::string load_command_;
  int64_t load_mb_ = 512;
  CLI::Option* load_size_option_ = nullptr;  // whether --load-size was given
  CLI::Option* warmup_option_ = nullptr;     // whether --warmup was given
  double warmup_seconds_ = 5;
  int64_t space_mb_ = 256;
  std::string directory_;
  std::vector<std::string> disks_;
  uint32_t major_ = 0, minor_ = 0;  // the target disk's number, for the program's bio trace
};

}  // namespace

std::unique_ptr<Suite> MakeCommandSuite() { return std::make_unique<CommandSuite>(); }

}  // namespace elevbench
