#include "harness/machine/machine_cgroups.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "harness/core/error.h"
#include "harness/core/strings.h"
#include "harness/process/proc_cgroup.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCgroupRoot = "/sys/fs/cgroup";

bool HasWord(const std::string& text, const std::string& word) {
  std::istringstream in(text);
  for (std::string w; in >> w;) {
    if (w == word) return true;
  }
  return false;
}

// "/sys/fs/cgroup/memory" + "/a/b" -> "/sys/fs/cgroup/memory/a/b"; "/" adds nothing.
std::string Under(const std::string& root, const std::string& path) {
  return path == "/" || path.empty() ? root : root + path;
}

bool Exists(const Sysfs& sysfs, const std::string& path) {
  std::error_code ec;
  return fs::exists(sysfs.Map(path), ec);
}

// The kernel's cpulist format ("1", "2-3", "0,2-3"), which is also what it reads back.
std::string FormatCpuList(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(cpus[i]);
    if (j > i) out += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace

bool MakeCgroupDirectoryPlainly(const std::string& mapped_path, std::string* err) {
  if (mkdir(mapped_path.c_str(), 0755) == 0) return true;
  return Fail(err, "mkdir " + mapped_path + ": " + strerror(errno));
}

bool MakeJournaledCgroup(const Sysfs& sysfs, const MakeCgroupDirectory& make,
                         const std::string& path, RestoreJournal* journal, std::string* err) {
  if (!journal->Record(JournalEntry::Cgroup(path), err)) return false;
  if (!make(sysfs.Map(path), err)) return Fail(err, "cannot create cgroup " + path + ": " + *err);
  return true;
}

bool DetectCgroupLayout(const Sysfs& sysfs, std::string_view proc_self_cgroup, CgroupLayout* layout,
                        std::string* err) {
  const std::string root = kCgroupRoot;
  std::string controllers, ignored;
  if (sysfs.Read(root + "/cgroup.controllers", &controllers, &ignored) &&
      HasWord(controllers, "memory") && HasWord(controllers, "cpuset")) {
    std::string subtree;
    if (!sysfs.Read(root + "/cgroup.subtree_control", &subtree, err)) return false;
    if (!HasWord(subtree, "memory") || !HasWord(subtree, "cpuset")) {
      return Fail(err,
                  "--machine: cgroup v2 has memory and cpuset, but they are not enabled for "
                  "child cgroups (echo +memory +cpuset > " +
                      root + "/cgroup.subtree_control)");
    }
    std::string self;
    if (!CgroupPathOf(proc_self_cgroup, "", &self)) {
      return Fail(err, "--machine: no cgroup v2 line (0::/…) in /proc/self/cgroup");
    }
    layout->version = 2;
    layout->memory_parent = layout->cpuset_parent = root;
    layout->memory_origin = layout->cpuset_origin = Under(root, self);
    return true;
  }
  const std::string memory_root = root + "/memory";
  const std::string cpuset_root = root + "/cpuset";
  std::string memory_self, cpuset_self;
  if (!Exists(sysfs, memory_root + "/memory.limit_in_bytes") ||
      !Exists(sysfs, cpuset_root + "/cpuset.cpus") ||
      !CgroupPathOf(proc_self_cgroup, "memory", &memory_self) ||
      !CgroupPathOf(proc_self_cgroup, "cpuset", &cpuset_self)) {
    return Fail(err,
                "--machine needs the memory and cpuset cgroup controllers: neither cgroup v2 "
                "with both at " +
                    root + " nor the v1 hierarchies " + memory_root + " and " + cpuset_root);
  }
  layout->version = 1;
  layout->memory_parent = layout->memory_origin = Under(memory_root, memory_self);
  layout->cpuset_parent = layout->cpuset_origin = Under(cpuset_root, cpuset_self);
  std::error_code ec;
  if (fs::equivalent(sysfs.Map(memory_root), sysfs.Map(cpuset_root), ec)) {
    layout->cpuset_parent = layout->cpuset_origin = layout->memory_parent;  // co-mounted
  }
  for (const std::string& dir : {layout->memory_parent, layout->cpuset_parent}) {
    if (!fs::is_directory(sysfs.Map(dir), ec)) {
      return Fail(err, "--machine: this process's cgroup " + dir + " is not there");
    }
  }
  return true;
}

bool ParseCpuList(std::string_view list, std::vector<int>* cpus) {
  std::vector<int> out;
  std::string text = TrimWhitespace(list);
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    const size_t dash = part.find('-');
    const std::string lo = part.substr(0, dash);
    const std::string hi = dash == std::string::npos ? lo : part.substr(dash + 1);
    auto digits = [](const std::string& s) {
      return !s.empty() && s.size() < 6 && s.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!digits(lo) || !digits(hi) || std::stoi(hi) < std::stoi(lo)) return false;
    for (int c = std::stoi(lo); c <= std::stoi(hi); ++c) out.push_back(c);
  }
  *cpus = std::move(out);
  return true;
}

bool ChooseCpus(std::string_view allowed, int count, std::string* chosen, std::string* err) {
  std::vector<int> cpus;
  if (!ParseCpuList(allowed, &cpus)) {
    return Fail(err, "cannot read the CPU list '" + std::string(allowed) + "'");
  }
  if (count < 1 || static_cast<size_t>(count) > cpus.size()) {
    return Fail(err, "--machine cpus=" + std::to_string(count) + ": only " +
                         std::to_string(cpus.size()) + " CPU(s) allowed here (" +
                         std::string(allowed) + ")");
  }
  *chosen = FormatCpuList(std::vector<int>(cpus.end() - count, cpus.end()));
  return true;
}

MachineCgroups::MachineCgroups(Sysfs sysfs, MakeDirectory make_directory)
    : sysfs_(std::move(sysfs)),
      make_directory_(make_directory ? std::move(make_directory)
                                     : MakeDirectory(MakeCgroupDirectoryPlainly)) {}

MachineCgroups::~MachineCgroups() {
  std::string ignored;
  (void)Leave(&ignored);  // the journal still moves what is left to the parent
}

bool MachineCgroups::MakeCgroup(const std::string& path, RestoreJournal* journal,
                                std::string* err) {
  if (!MakeJournaledCgroup(sysfs_, make_directory_, path, journal, err)) return false;
  paths_.push_back(path);
  return true;
}

bool MachineCgroups::SetMemory(const std::string& dir, uint64_t bytes, std::string* err) {
  const std::string value = std::to_string(bytes);
  if (layout_.version == 2) {
    if (!sysfs_.WriteVerified(dir + "/memory.max", value, err)) return false;
    // The 2003 box had no swap: none here either, where swap is accounted at all.
    return !Exists(sysfs_, dir + "/memory.swap.max") ||
           sysfs_.WriteVerified(dir + "/memory.swap.max", "0", err);
  }
  // memsw (memory + swap) may never be below the memory limit: set the limit first.
  if (!sysfs_.WriteVerified(dir + "/memory.limit_in_bytes", value, err)) return false;
  return !Exists(sysfs_, dir + "/memory.memsw.limit_in_bytes") ||
         sysfs_.WriteVerified(dir + "/memory.memsw.limit_in_bytes", value, err);
}

bool MachineCgroups::SetCpuset(const std::string& dir, const std::string& parent, int cpus,
                               const std::string& cpu_list, std::string* err) {
  std::string allowed;
  const std::string effective =
      parent + (layout_.version == 2 ? "/cpuset.cpus.effective" : "/cpuset.effective_cpus");
  if (!sysfs_.Read(effective, &allowed, err) &&
      !sysfs_.Read(parent + "/cpuset.cpus", &allowed, err)) {
    return false;
  }
  if (!cpu_list.empty()) {
    std::vector<int> wanted, have;
    if (!ParseCpuList(cpu_list, &wanted) || !ParseCpuList(allowed, &have) ||
        !std::all_of(wanted.begin(), wanted.end(),
                     [&](int c) { return std::find(have.begin(), have.end(), c) != have.end(); })) {
      return Fail(err, "CPUs " + cpu_list + " are not all allowed here (" + allowed + ")");
    }
    cpuset_cpus_ = FormatCpuList(wanted);
  } else if (!ChooseCpus(allowed, cpus, &cpuset_cpus_, err)) {
    return false;
  }
  if (!sysfs_.WriteVerified(dir + "/cpuset.cpus", cpuset_cpus_, err)) return false;
  if (layout_.version == 2) return true;  // v2: empty cpuset.mems means the parent's
  // v1 starts a cpuset with no memory nodes, and a task cannot join it until it has some.
  std::string mems;
  if (!sysfs_.Read(parent + "/cpuset.effective_mems", &mems, err) &&
      !sysfs_.Read(parent + "/cpuset.mems", &mems, err)) {
    return false;
  }
  return sysfs_.WriteVerified(dir + "/cpuset.mems", mems, err);
}

bool MachineCgroups::Create(const MachineSpec& spec, const CgroupLayout& layout,
                            const std::string& name, RestoreJournal* journal, std::string* err) {
  if (name.rfind("elevbench-", 0) != 0 || name.find('/') != std::string::npos) {
    return Fail(err, "cgroup name '" + name + "' must start with elevbench- and have no '/'");
  }
  layout_ = layout;
  // The kernel keeps limits in pages; a spec of odd bytes is rounded down so that it reads back.
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t bytes = spec.memory_bytes / page * page;
  if (spec.memory_bytes > 0) {
    memory_path_ = layout.memory_parent + "/" + name;
    if (!MakeCgroup(memory_path_, journal, err) || !SetMemory(memory_path_, bytes, err)) {
      return false;
    }
  }
  if (spec.cpus > 0) {
    cpuset_path_ = layout.cpuset_parent + "/" + name;
    if (cpuset_path_ != memory_path_ && !MakeCgroup(cpuset_path_, journal, err)) return false;
    if (!SetCpuset(cpuset_path_, layout.cpuset_parent, spec.cpus, spec.cpu_list, err)) {
      return false;
    }
  }
  return true;
}

bool MachineCgroups::Enter(pid_t pid, std::string* err) {
  for (const std::string& path : paths_) {
    if (!sysfs_.Write(path + "/cgroup.procs", std::to_string(pid), err)) {
      *err = "cannot move pid " + std::to_string(pid) + " into " + path + ": " + *err;
      return false;
    }
    entered_ = pid;
  }
  return true;
}

bool MachineCgroups::Leave(std::string* err) {
  if (entered_ == 0) return true;
  bool ok = true;
  std::vector<std::pair<std::string, std::string>> moves;  // made cgroup -> origin
  if (!memory_path_.empty()) moves.emplace_back(memory_path_, layout_.memory_origin);
  if (!cpuset_path_.empty() && cpuset_path_ != memory_path_) {
    moves.emplace_back(cpuset_path_, layout_.cpuset_origin);
  }
  for (const auto& [made, origin] : moves) {
    std::error_code ec;
    // Back where it came from; if that cgroup has gone meanwhile, to the hierarchy's root.
    std::string target = origin;
    if (!fs::is_directory(sysfs_.Map(target), ec)) {
      target = layout_.version == 2 ? kCgroupRoot : made.substr(0, made.find('/', 15));
    }
    std::string one;
    if (!sysfs_.Write(target + "/cgroup.procs", std::to_string(entered_), &one) && ok) {
      ok = Fail(err,
                "cannot move pid " + std::to_string(entered_) + " back to " + target + ": " + one);
    }
  }
  entered_ = 0;
  return ok;
}

nlohmann::json MachineCgroups::Describe(const MachineSpec& spec) const {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return {{"profile", spec.profile},
          {"spec", spec.text},
          {"memory_bytes", spec.memory_bytes / page * page},
          {"cpus", spec.cpus},
          {"swap_bytes", 0},
          {"cpuset_cpus", cpuset_cpus_},
          {"cgroup_version", layout_.version},
          {"cgroups", paths_}};
}

}  // namespace elevbench
