#include "scenarios/contest/contest_loads.h"

#include <algorithm>
#include <sstream>

#include "harness/fio/fio_job_file.h"

namespace elevbench {
namespace {

constexpr uint64_t kWeekMs = 7ULL * 24 * 3600 * 1000;  // "until stopped": fio time-based
constexpr uint32_t kStreamBlockBytes = 1 << 20;        // dd bs=1M, cat's large reads
constexpr uint64_t kRingHopsPerIteration = 10'000;
constexpr int kDbenchSecondsPerIteration = 10;

StreamSpec Stream(const std::string& name, const std::string& rw, const std::string& file,
                  uint64_t bytes) {
  StreamSpec s =
      FileStream(name, rw, file, std::max<uint64_t>(bytes, kStreamBlockBytes), kStreamBlockBytes);
  s.runtime_ms = kWeekMs;  // loops over the file until the load is stopped
  return s;
}

std::string Parent(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

std::string Base(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

const std::vector<ContestLoadInfo>& ContestLoads() {
  static const std::vector<ContestLoadInfo> kLoads = {
      {"no_load", ContestLoadKind::kNone, "nothing", 1},
      {"cacherun", ContestLoadKind::kNone, "nothing", 1},
      {"process_load", ContestLoadKind::kCommand, "chunk hops round the pipe ring", 10'000},
      {"ctar_load", ContestLoadKind::kCommand, "completed tar creations of the tree", 1},
      {"xtar_load", ContestLoadKind::kCommand, "completed extractions of the tree's tarball", 1},
      {"io_load", ContestLoadKind::kFio, "MiB written", 100},
      {"io_other", ContestLoadKind::kFio, "MiB written", 100},
      {"read_load", ContestLoadKind::kFio, "MiB read", 100},
      {"list_load", ContestLoadKind::kCommand, "completed runs of ls -lRa", 1},
      {"mem_load", ContestLoadKind::kCommand, "MiB referenced", 100},
      {"dbench_load", ContestLoadKind::kCommand, "completed dbench runs", 1},
  };
  return kLoads;
}

const ContestLoadInfo* FindContestLoad(const std::string& name) {
  for (const ContestLoadInfo& l : ContestLoads()) {
    if (name == l.name) return &l;
  }
  return nullptr;
}

bool ParseContestLoads(const std::string& text, std::vector<std::string>* loads, std::string* err) {
  loads->clear();
  if (text.empty()) {
    for (const ContestLoadInfo& l : ContestLoads()) loads->push_back(l.name);
    return true;
  }
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (FindContestLoad(item) == nullptr) {
      std::string names;
      for (const ContestLoadInfo& l : ContestLoads()) {
        names += (names.empty() ? "" : ", ") + std::string(l.name);
      }
      *err = "--loads: unknown load '" + item + "' (" + names + ")";
      return false;
    }
    if (std::find(loads->begin(), loads->end(), item) != loads->end()) {
      *err = "--loads: '" + item + "' is listed twice";
      return false;
    }
    if (item == "cacherun" && (loads->empty() || loads->back() != "no_load")) {
      *err =
          "--loads: cacherun must directly follow no_load (it is no_load again without "
          "dropping the caches)";
      return false;
    }
    loads->push_back(item);
  }
  if (loads->empty()) {
    *err = "--loads needs at least one load";
    return false;
  }
  return true;
}

std::string ContestIoFile(const ContestLoadContext& c, const std::string& load) {
  if (load == "io_other") return c.other_dir + "/elevbench-contest-io_other";
  return c.load_dir + "/" + (load == "read_load" ? "read_load" : "io_load");
}

std::string ContestTarball(const ContestLoadContext& c) { return c.load_dir + "/tree.tar"; }

FioGlobalSpec ContestFioGlobal() { return LegacyToolFioGlobal(); }

ContestLoadPlan PlanContestLoad(const std::string& load, const ContestLoadContext& c) {
  ContestLoadPlan plan;
  const ContestLoadInfo* info = FindContestLoad(load);
  if (info == nullptr) return plan;
  plan.kind = info->kind;
  const int cpus = std::max(1, c.cpus);
  const uint64_t ram = c.memory_bytes;
  if (load == "io_load" || load == "io_other") {
    if (load == "io_other" && c.other_dir.empty()) {
      plan.kind = ContestLoadKind::kNone;
      plan.absent = true;
      return plan;
    }
    plan.fio.global = ContestFioGlobal();
    StreamSpec s = Stream(load, "write", ContestIoFile(c, load), ram);
    s.extra.emplace_back("zero_buffers", "");  // /dev/zero's bytes
    plan.fio.streams = {s};
  } else if (load == "read_load") {
    plan.fio.global = ContestFioGlobal();
    plan.fio.streams = {Stream(load, "read", ContestIoFile(c, load), ram)};
  } else if (load == "process_load") {
    plan.command.argv = {c.self_exe,
                         "internal",
                         "process-ring",
                         "--processes",
                         std::to_string(4 * cpus),
                         "--chunks",
                         std::to_string(cpus),
                         "--hops",
                         std::to_string(kRingHopsPerIteration)};
    plan.work_per_iteration = static_cast<double>(kRingHopsPerIteration);
  } else if (load == "mem_load") {
    const uint64_t bytes = ram + ram / 10;
    plan.command.argv = {c.self_exe, "internal", "mem-load", "--bytes", std::to_string(bytes)};
    plan.work_per_iteration = static_cast<double>(bytes) / (1 << 20);
  } else if (load == "ctar_load") {
    // The tree as the compile changes it, without what the compile writes; GNU tar's exit 1
    // ("file changed as we read it") is expected beside a compile.
    plan.command.argv = {"tar",
                         "cf",
                         c.load_dir + "/ctar.tar",
                         "--exclude=*.o",
                         "--exclude=vmlinux",
                         "-C",
                         Parent(c.tree_root),
                         Base(c.tree_root)};
    plan.command.success_exit_codes = {0, 1};
  } else if (load == "xtar_load") {
    plan.command.argv = {"sh",
                         "-c",
                         "rm -rf \"$1\" && mkdir \"$1\" && exec tar xf \"$2\" -C \"$1\"",
                         "xtar_load",
                         c.load_dir + "/xtar",
                         ContestTarball(c)};
  } else if (load == "list_load") {
    plan.command.argv = {"ls", "-lRa", c.list_dir};
    plan.command.success_exit_codes = {0, 1};  // 1: an entry vanished while it was listed
  } else if (load == "dbench_load") {
    plan.command.argv = {"dbench", "-t", std::to_string(kDbenchSecondsPerIteration)};
    if (!c.dbench_loadfile.empty()) {
      plan.command.argv.push_back("-c");
      plan.command.argv.push_back(c.dbench_loadfile);
    }
    plan.command.argv.push_back("-D");
    plan.command.argv.push_back(c.load_dir + "/dbench");
    plan.command.argv.push_back(std::to_string(16 * cpus));
  }
  return plan;
}

}  // namespace elevbench
