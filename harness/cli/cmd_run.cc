// `elevbench run`: validates the options, prepares the target (directory, scratch device or
// emulated disk), journals and applies device settings, runs the session, prints the tables, and
// restores everything on every exit path.

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>

#include "harness/device/block_device.h"
#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/device/device_control.h"
#include "harness/disk/emulated_stack.h"
#include "harness/fio/fio_runner.h"
#include "harness/core/interrupt.h"
#include "harness/device/restore_journal.h"
#include "harness/run/run_session.h"
#include "harness/device/scratch_device.h"
#include "harness/core/system_info.h"
#include "reporters/tiobench_text.h"

namespace elevbench {
namespace {

// Undoes the journal when the run ends, however it ends.
class JournalGuard {
 public:
  explicit JournalGuard(RestoreJournal* journal) : journal_(journal) {}
  ~JournalGuard() { Restore(); }
  bool Restore() {
    if (!journal_->is_open() || journal_->entries().empty()) return true;
    std::vector<std::string> log;
    std::string err;
    if (!journal_->RestoreAll(&log, &err)) {
      PrintError("restore incomplete: " + err + " (run 'elevbench restore')");
      return false;
    }
    return true;
  }

 private:
  RestoreJournal* journal_;
};

std::string DefaultOutPath(const std::string& suite, const std::string& host) {
  std::error_code ec;
  std::filesystem::create_directories("results", ec);
  const std::string stamp = NowIso8601();
  std::string compact;
  for (char c : stamp) {
    if (c != '-' && c != ':') compact += c;
  }
  return (ec ? std::string(".") : std::string("results")) + "/" + compact + "-" + host + "-" +
         suite + ".json";
}

bool WritableDirectory(const std::string& dir) {
  struct stat st {};
  return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && access(dir.c_str(), W_OK) == 0;
}

std::string SelfExe() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("elevbench") : p.string();
}

bool ContainsDisk(const std::vector<std::string>& disks, const std::string& name) {
  for (const std::string& d : disks) {
    if (d == name) return true;
  }
  return false;
}

}  // namespace

int RunCommand(const RunOptions& o) {
  // ---- 1. Validate everything a user can get wrong before touching the machine.
  if (o.suite != "tiobench") {
    PrintError("unknown suite '" + o.suite + "' (available: tiobench)");
    return kExitUsage;
  }
  if (o.format != "nick" && o.format != "tiobench" && o.format != "json") {
    PrintError("unknown --format '" + o.format + "' (nick, tiobench or json)");
    return kExitUsage;
  }
  if (!o.tio.directory.empty() + !o.scratch.empty() + !o.emulated.empty() > 1) {
    PrintError("--dir, --scratch and --emulated are alternatives: give one");
    return kExitUsage;
  }
  if (o.repetitions == 0 || o.repetitions > 1000) {
    PrintError("--repetitions must be between 1 and 1000");
    return kExitUsage;
  }
  std::string err;
  std::vector<SchedulerConfig> configs;
  const bool all_schedulers = o.schedulers == "all";
  if (!o.schedulers.empty() && !all_schedulers &&
      !ParseSchedulerList(o.schedulers, &configs, &err)) {
    PrintError("--schedulers: " + err);
    return kExitUsage;
  }
  std::vector<std::pair<std::string, std::string>> queue_attrs;
  if (!o.queue.empty() && !ParseQueueAttrs(o.queue, &queue_attrs, &err)) {
    PrintError("--queue: " + err);
    return kExitUsage;
  }
  if (!SupportedScratchFs(o.fs)) {
    PrintError("unsupported --fs '" + o.fs + "' (ext2, ext4 or xfs)");
    return kExitUsage;
  }
  uint64_t scratch_bytes = 0;
  if (!o.scratch.empty() && !ParseSizeBytes(o.scratch, &scratch_bytes, &err)) {
    PrintError("--scratch: " + err);
    return kExitUsage;
  }
  EmulatedOptions emu;
  if (!o.emulated.empty()) {
    if (!ParseEmulatedSpec(o.emulated, &emu, &err)) {
      PrintError(err);
      return kExitUsage;
    }
    emu.overrides = o.disk_settings;
    emu.fs = o.fs;
    emu.trace_path = o.disk_trace;
    emu.self_exe = SelfExe();
    DiskProfile probe;
    if (!LookupDiskProfile(emu.profile_name, &probe, &err)) {
      PrintError(err);
      return kExitUsage;
    }
    for (const std::string& s : emu.overrides) {
      if (!ApplyDiskOverride(s, &probe, &err)) {
        PrintError("--disk-set: " + err);
        return kExitUsage;
      }
    }
  }
  if (!o.tio.directory.empty() && !WritableDirectory(o.tio.directory)) {
    PrintError("--dir " + o.tio.directory + " is not a writable directory");
    return kExitUsage;
  }
  const MachineInfo machine = ReadMachineInfo();
  TiobenchParams params = o.tio;
  if (!o.size_given) params.size_mb = DefaultTiobenchSizeMb(machine.memory_bytes);
  if (!ValidateTiobenchParams(params, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  // A device elevbench makes must hold the file set: size it to fit when its size was not given,
  // and refuse a --size that cannot fit rather than failing with ENOSPC halfway through.
  const uint64_t needed_bytes = (params.size_mb << 20) + (params.size_mb << 20) / 4 + (64ULL << 20);
  const uint64_t fitting_bytes = std::max<uint64_t>(needed_bytes + (192ULL << 20), 1ULL << 30);
  if (!o.emulated.empty() && o.emulated.find(':') == std::string::npos) {
    emu.size_bytes = std::max<uint64_t>(emu.size_bytes, fitting_bytes);
  }
  for (const auto& [flag, bytes] : {std::pair<const char*, uint64_t>{"--scratch", scratch_bytes},
                                    {"--emulated", o.emulated.empty() ? 0 : emu.size_bytes}}) {
    if (bytes > 0 && bytes < needed_bytes) {
      PrintError("--size " + std::to_string(params.size_mb) + " MB does not fit on the " +
                 std::to_string(bytes >> 20) + " MiB device of " + flag +
                 "; give a larger device or a smaller --size");
      return kExitUsage;
    }
  }
  std::string fio_version;
  if (!FioVersion(&fio_version, &err)) {
    PrintError("fio is required: " + err);
    return kExitFailure;
  }
  const std::string out_path = o.out.empty() ? DefaultOutPath(o.suite, machine.hostname) : o.out;
  // fio's job files and raw json+ outputs are kept beside the results for audit.
  const std::string fio_dir = out_path + ".fio";
  {
    std::error_code ec;
    std::filesystem::create_directories(fio_dir, ec);
    if (ec) {
      PrintError("cannot write results next to " + out_path + ": " + ec.message());
      return kExitUsage;
    }
  }

  // ---- 2. Root or not.
  const bool root = RunningAsRoot();
  Progress progress = Progress::ForStderr();
  bool want_switching = !o.schedulers.empty() || !queue_attrs.empty();
  bool scratch_wanted = !o.scratch.empty();
  bool emulated_wanted = !o.emulated.empty();
  if (!root) {
    if (want_switching || scratch_wanted || emulated_wanted) {
      progress.Note(
          "elevbench: not root: running on the current scheduler only (no switching, no scratch "
          "or emulated device, no cache drop)");
    } else {
      progress.Note(
          "elevbench: not root: caches are not dropped between cells (the test files are still "
          "evicted before each read phase)");
    }
    want_switching = scratch_wanted = emulated_wanted = false;
  } else if (o.tio.directory.empty() && !scratch_wanted && !emulated_wanted) {
    scratch_wanted = true;  // the default target as root: a scratch device
    scratch_bytes = fitting_bytes;
  }

  InstallInterruptHandlers();
  RestoreJournal journal;
  JournalGuard guard(&journal);
  if (root) {
    const std::string state_dir = DefaultStateDir();
    std::vector<std::string> log;
    const bool leftover =
        access((state_dir + "/" + RestoreJournal::kJournalFile).c_str(), F_OK) == 0;
    if (leftover && !RestoreJournal::ApplyLeftoverJournal(state_dir, &log, &err)) {
      PrintError("cannot restore what an earlier run left: " + err);
      return kExitFailure;
    }
    if (leftover) {
      progress.Note("elevbench: restored what an earlier run left behind (" +
                    std::to_string(log.size()) + " steps):");
      for (const std::string& line : log) progress.Note("  " + line);
    }
    if (!journal.Open(state_dir, "elevbench run (pid " + std::to_string(getpid()) + ")", &err)) {
      PrintError(err);
      return kExitFailure;
    }
  }

  // ---- 3. The target.
  std::string directory = o.tio.directory;
  std::string temp_dir;  // non-root default target, removed at the end
  std::vector<std::string> disks;
  bool created_device = false;
  nlohmann::json target_json;
  EmulatedStack stack;
  if (emulated_wanted) {
    progress.Note("elevbench: building the emulated " + emu.profile_name + " disk (" +
                  std::to_string(emu.size_bytes >> 20) + " MiB, " + emu.fs + ")");
    if (!CreateEmulatedStack(emu, &journal, &stack, &err)) {
      PrintError("emulated disk: " + err);
      return InterruptRequested() ? kExitInterrupted : kExitFailure;
    }
    directory = stack.mountpoint;
    disks = {stack.loop_name};
    created_device = true;
    target_json = {{"kind", "emulated"},
                   {"profile", DiskProfileToJson(stack.profile)},
                   {"loop_device", stack.loop_device},
                   {"backing", stack.backing_path},
                   {"size_bytes", emu.size_bytes}};
  } else if (scratch_wanted) {
    ScratchOptions so;
    so.size_bytes = scratch_bytes;
    so.fs = o.fs;
    ScratchDevice scratch;
    if (!CreateScratchDevice(so, &journal, &scratch, &err)) {
      PrintError("scratch device: " + err);
      return InterruptRequested() ? kExitInterrupted : kExitFailure;
    }
    directory = scratch.mountpoint;
    disks = {scratch.loop_name};
    created_device = true;
    target_json = {{"kind", "scratch"},
                   {"loop_device", scratch.loop_device},
                   {"image", scratch.image_path},
                   {"size_bytes", scratch_bytes}};
  } else {
    if (directory.empty()) {
      char tmpl[] = "/var/tmp/elevbench-XXXXXX";
      if (!mkdtemp(tmpl)) {
        PrintError("cannot create a scratch directory in /var/tmp");
        return kExitFailure;
      }
      directory = temp_dir = tmpl;
    }
    target_json = {{"kind", "directory"}};
    if (!ResolveQueueDevices(directory, SystemPaths{}, &disks, &err)) disks.clear();
  }
  target_json["path"] = directory;
  std::string fstype, mountpoint;
  if (FilesystemOf(directory, &fstype, &mountpoint, &err)) {
    target_json["filesystem"] = fstype;
    target_json["mountpoint"] = mountpoint;
  }
  auto remove_temp_dir = [&] {
    if (!temp_dir.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(temp_dir, ec);
    }
  };

  // ---- 4. Device control: only on devices we made, or that the user named with --device.
  Sysfs sysfs;
  DeviceControl control(sysfs, &journal, disks);
  if (want_switching && !created_device) {
    if (disks.empty()) {
      PrintError("cannot find the block device under " + directory + " to switch its scheduler");
      remove_temp_dir();
      return kExitUsage;
    }
    if (o.device.empty() || !ContainsDisk(disks, o.device)) {
      PrintError("refusing to change the queue of " + disks.front() + " (it holds " + directory +
                 "); name it with --device " + disks.front() + " to allow this");
      remove_temp_dir();
      return kExitUsage;
    }
  }
  std::vector<std::pair<std::string, std::string>> pinned;
  if (emulated_wanted) pinned = EmulatedQueueAttrs(stack.profile);
  for (const auto& a : queue_attrs) pinned.push_back(a);
  const bool switching = root && (want_switching || created_device);
  if (switching) {
    // A device elevbench made exists for the comparison: without --schedulers, compare them all.
    if (all_schedulers || configs.empty()) {
      std::vector<std::string> available;
      if (!control.AvailableSchedulers(&available, &err)) {
        PrintError(err);
        return kExitFailure;
      }
      configs = ExpandAll(available);
    }
    if (!pinned.empty() && !control.PinQueueAttrs(pinned, &err)) {
      PrintError("--queue: " + err);
      return kExitFailure;
    }
  }
  if (emulated_wanted && !ApplyVmSettings(sysfs, &journal, EmulatedVmSettings(), &err)) {
    PrintError("vm writeback settings: " + err);
    return kExitFailure;
  }

  // ---- 5. Identifiers and context.
  const std::string prefix =
      o.identifier.empty() ? ShortKernelVersion(machine.kernel) : o.identifier;
  std::vector<std::string> identifiers;
  if (!switching || configs.empty()) {
    identifiers.push_back(o.identifier.empty() ? machine.kernel : o.identifier);
  } else {
    for (const SchedulerConfig& c : configs) identifiers.push_back(prefix + "-" + ShortCode(c));
  }
  uint64_t seed = o.seed;
  if (!o.seed_given) seed = std::random_device{}();
  const bool drop = root && !o.no_drop_caches;

  ResultsDocument doc;
  doc.suite = o.suite;
  doc.params = params;
  doc.params.directory = directory;
  nlohmann::json devices = nlohmann::json::array();
  for (const std::string& d : disks) {
    BlockDeviceInfo info;
    if (ReadBlockDevice(d, SystemPaths{}, &info, &err)) {
      nlohmann::json dj = ToJson(info);
      if (emulated_wanted)
        dj["model"] = "elevbench emulated " + stack.profile.name + " disk";
      else if (created_device)
        dj["model"] = "elevbench scratch loop device";
      devices.push_back(dj);
    }
  }
  doc.context = {
      {"elevbench_version", ELEVBENCH_VERSION},
      {"command_line", o.command_line},
      {"kernel", machine.kernel},
      {"hostname", machine.hostname},
      {"cpus", machine.cpus},
      {"cpu_model", machine.cpu_model},
      {"memory_bytes", machine.memory_bytes},
      {"swap_bytes", machine.swap_bytes},
      {"fio_version", fio_version},
      {"start_time", NowIso8601()},
      {"root", root},
      {"target", target_json},
      {"filesystem", target_json.value("filesystem", std::string())},
      {"devices", devices},
      {"switching", switching},
      {"pinned_queue", switching ? pinned : decltype(pinned){}},
      {"repetitions", o.repetitions},
      {"seed", seed},
      {"drop_caches", drop},
      {"cache_policy",
       std::string("Test files evicted from the page cache before each read phase") +
           (drop ? "; all caches dropped before each cell"
                 : (root ? " (--no-drop-caches: no global drop)" : " (not root: no global drop)")) +
           " (the 2003 runs used a 2xRAM file set instead)"},
  };
  if (emulated_wanted) {
    doc.context["vm_settings"] = EmulatedVmSettings();
  }

  // ---- 6. Run.
  SessionConfig sc;
  sc.params = params;
  sc.configs = switching ? configs : std::vector<SchedulerConfig>{};
  sc.identifiers = identifiers;
  sc.repetitions = o.repetitions;
  sc.seed = seed;
  sc.drop_caches = drop;
  sc.out_path = out_path;
  sc.fio_work_dir = fio_dir;
  SessionTarget target;
  target.directory = directory;
  if (switching)
    target.control = &control;
  else
    target.snapshot = [&] { return control.Snapshot(); };
  if (emulated_wanted) {
    target.disk_counters = [&]() -> nlohmann::json {
      nlohmann::json counters;
      std::string e;
      return ReadDiskCounters(stack, &counters, &e) ? counters : nlohmann::json(nullptr);
    };
  }
  size_t failed = 0;
  const bool finished = RunTiobenchSession(sc, target, &progress, &doc, &failed, &err);
  remove_temp_dir();
  const bool restored = guard.Restore();

  // ---- 7. Report.
  if (!doc.records.empty() || finished) {
    if (o.format == "json") {
      std::cout << ResultsToJson(doc).dump(2) << "\n";
    } else {
      std::cout << RenderTiobenchTables(
          doc, o.format == "nick" ? TioLayout::kNick : TioLayout::kTiobench);
    }
    std::cout.flush();
  }
  std::fprintf(stderr, "elevbench: results written to %s\n", out_path.c_str());
  if (!finished) {
    PrintError(err);
    return InterruptRequested() ? kExitInterrupted : kExitFailure;
  }
  if (failed > 0) {
    PrintError(std::to_string(failed) + " cell(s) failed; see " + out_path);
    return kExitFailure;
  }
  return restored ? kExitOk : kExitFailure;
}

}  // namespace elevbench
