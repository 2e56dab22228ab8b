// `elevbench report`, `devices`, `restore` and `disk`: the small subcommands.

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <iostream>
#include <thread>
#include <vector>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/restore_journal.h"
#include "harness/disk/disk_daemon.h"
#include "harness/disk/disk_model.h"
#include "harness/results/results_document.h"
#include "reporters/render.h"

namespace elevbench {

namespace {

// Runs fn(0) … fn(n-1) on up to `threads` threads; each index exactly once.
void ParallelFor(size_t n, unsigned threads, const std::function<void(size_t)>& fn) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) fn(i);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads && t < n; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
}

// One file of a per-file report: loaded, rendered and dropped by a worker.
struct RenderedFile {
  bool ok = false;
  bool complete = true;
  std::string text;  // its framed text, or the one-line error
};

// Per-file formats: every file is loaded and rendered on its own, on every CPU, holding one
// document per thread instead of all of them (1,000 files of 69 KB: 283 MB and page faults
// otherwise). Nothing is printed unless every file renders: a bad file is a usage error.
int ReportFileByFile(const std::vector<std::string>& paths, const std::string& format) {
  std::vector<RenderedFile> out(paths.size());
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  ParallelFor(paths.size(), cpus, [&](size_t i) {
    ResultsDocument doc;
    std::string err, text;
    if (!LoadResultsFile(paths[i], &doc, &err)) {
      out[i].text = err;
      return;
    }
    if (!RenderResults(doc, format, &text, &err)) {
      out[i].text = paths[i] + ": " + err;
      return;
    }
    out[i] = {true, doc.complete, FramePerFileText(paths[i], text, paths.size(), format)};
  });
  for (const RenderedFile& f : out) {
    if (!f.ok) {
      PrintError(f.text);
      return kExitUsage;
    }
  }
  for (const RenderedFile& f : out) std::cout << f.text;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!out[i].complete) PrintNote(paths[i] + " is from an unfinished run");
  }
  return kExitOk;
}

}  // namespace

int ReportCommand(const std::vector<std::string>& paths, const std::string& format) {
  if (IsPerFileFormat(format)) return ReportFileByFile(paths, format);
  std::vector<NamedResults> files(paths.size());
  std::string err;
  for (size_t i = 0; i < paths.size(); ++i) {
    files[i].name = paths[i];
    if (!LoadResultsFile(paths[i], &files[i].doc, &err)) {
      PrintError(err);
      return kExitUsage;
    }
  }
  std::string text;
  if (!RenderReport(files, format, GnuplotOptions{}, &text, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  std::cout << text;
  for (const NamedResults& file : files) {
    if (!file.doc.complete) PrintNote(file.name + " is from an unfinished run");
  }
  return kExitOk;
}

int DevicesCommand(bool json) {
  std::vector<BlockDeviceInfo> devices;
  std::string err;
  if (!ListBlockDevices(SystemPaths{}, &devices, &err)) {
    PrintError(err);
    return kExitFailure;
  }
  if (json) {
    nlohmann::json all = nlohmann::json::array();
    for (const BlockDeviceInfo& d : devices) all.push_back(ToJson(d));
    std::cout << all.dump(2) << "\n";
    return kExitOk;
  }
  std::printf("%-10s %-24s %9s %-4s %-32s %7s %8s  %s\n", "DEVICE", "MODEL", "SIZE", "ROT",
              "SCHEDULERS", "NR_REQ", "RA_KB", "MOUNTED");
  for (const BlockDeviceInfo& d : devices) {
    std::string scheds;
    for (const std::string& s : d.available_schedulers) {
      if (!scheds.empty()) scheds += " ";
      scheds += s == d.current_scheduler ? "[" + s + "]" : s;
    }
    if (scheds.empty()) scheds = "(none: bio-based)";
    std::string mounts;
    for (const MountInfo& m : d.mounts) {
      if (!mounts.empty()) mounts += ", ";
      mounts += m.mountpoint + " (" + m.fstype + ")";
    }
    if (d.is_loop && !d.loop_backing_file.empty()) {
      mounts += (mounts.empty() ? "" : "; ") + std::string("backs ") + d.loop_backing_file;
    }
    char size[32];
    std::snprintf(size, sizeof size, "%.1fG", static_cast<double>(d.size_bytes) / (1 << 30));
    std::printf("%-10s %-24.24s %9s %-4s %-32s %7s %8s  %s\n", d.name.c_str(),
                d.model.empty() ? "-" : d.model.c_str(), size, d.rotational ? "yes" : "no",
                scheds.c_str(), d.nr_requests ? std::to_string(*d.nr_requests).c_str() : "-",
                d.read_ahead_kb ? std::to_string(*d.read_ahead_kb).c_str() : "-", mounts.c_str());
  }
  return kExitOk;
}

int RestoreCommand() {
  if (!RunningAsRoot()) {
    PrintError("restore needs root (it writes sysfs values and removes loop devices)");
    return kExitUsage;
  }
  std::vector<std::string> log;
  std::string err;
  const bool ok = RestoreJournal::ApplyLeftoverJournal(DefaultStateDir(), &log, &err);
  for (const std::string& line : log) std::printf("%s\n", line.c_str());
  if (!ok) {
    PrintError(err);
    return kExitFailure;
  }
  if (log.empty()) std::printf("nothing to restore\n");
  return kExitOk;
}

int DiskServeCommand(const DiskServeOptions& o) {
  DiskDaemonOptions d;
  d.backing_path = o.backing;
  d.mountpoint = o.mountpoint;
  d.trace_path = o.trace;
  std::string err;
  if (!LookupDiskProfile(o.profile, &d.profile, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  for (const std::string& s : o.settings) {
    if (!ApplyDiskOverride(s, &d.profile, &err)) {
      PrintError("--set: " + err);
      return kExitUsage;
    }
  }
  if (!ValidateDiskProfile(d.profile, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  const int rc = RunDiskDaemon(d, &err);
  if (rc != 0) PrintError("disk: " + err);
  return rc == 0 ? kExitOk : kExitFailure;
}

int DiskProfilesCommand(bool json) {
  nlohmann::json all = nlohmann::json::array();
  for (const std::string& name : DiskProfileNames()) {
    DiskProfile p;
    std::string err;
    if (!LookupDiskProfile(name, &p, &err)) continue;
    all.push_back(DiskProfileToJson(p));
  }
  if (json) {
    std::cout << all.dump(2) << "\n";
  } else {
    for (const auto& p : all) std::cout << p.dump() << "\n";
  }
  return kExitOk;
}

}  // namespace elevbench
