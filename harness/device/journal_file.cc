#include "harness/device/journal_file.h"

#include <nlohmann/json.hpp>

#include "harness/core/error.h"
#include "harness/core/json_fields.h"
#include "harness/device/journal_undo.h"

namespace elevbench {
namespace {

constexpr int kSchemaVersion = 1;

constexpr const char* kKindNames[] = {
    "sysfs_value",      "loop_device",    "mount",       "fuse_mount",   "file",
    "directory",        "process",        "driver_tags", "loop_created", "cgroup",
    "tracefs_instance", "fuse_connection"};

bool IsLoopDevicePath(const std::string& p) {
  return p.rfind("/dev/loop", 0) == 0 && p.size() > 9 &&
         p.find_first_not_of("0123456789", 9) == std::string::npos;
}

bool PathIsSafe(const std::string& p) {
  bool dotdot_tail = p.size() >= 3 && p.compare(p.size() - 3, 3, "/..") == 0;
  return p.size() > 1 && p[0] == '/' && !dotdot_tail && p.find("/../") == std::string::npos &&
         p.find("/./") == std::string::npos && p.find('\n') == std::string::npos;
}

// A cgroup the run made: "/sys/fs/cgroup/<hierarchy path>/elevbench-<name>", never a hierarchy's
// root nor a directory someone else named, so a damaged journal cannot make restore remove one.
bool IsElevbenchCgroupPath(const std::string& p) {
  constexpr std::string_view kRoot = "/sys/fs/cgroup/";
  const size_t slash = p.rfind('/');
  if (p.rfind(kRoot, 0) != 0 || slash + 1 < kRoot.size() || p.find("//") != std::string::npos) {
    return false;
  }
  const std::string name = p.substr(slash + 1);
  return name.rfind("elevbench-", 0) == 0 && name.size() > 10 &&
         name.find_first_not_of(
             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
             std::string::npos;
}

// A tracefs instance the run made: "<tracefs>/instances/elevbench-<digits>" with no ".." and no
// empty component, so a damaged journal cannot make restore remove someone else's instance.
bool IsElevbenchInstancePath(const std::string& p) {
  constexpr std::string_view kParent = "/instances/elevbench-";
  const size_t at = p.rfind(kParent);
  if (at == std::string::npos || at == 0 || p.find("//") != std::string::npos) return false;
  // elevbench-<pid>, elevbench-<pid>-<lane> (--lanes), elevbench-<pid>-bios (a bio capture
  // beside the request tracer: run replay's own account).
  const std::string name = p.substr(at + kParent.size());
  const size_t dash = name.find('-');
  auto digits = [](const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  };
  const std::string rest = dash == std::string::npos ? std::string() : name.substr(dash + 1);
  return digits(name.substr(0, dash)) &&
         (dash == std::string::npos || digits(rest) || rest == "bios");
}

}  // namespace

bool ValidateJournalEntry(const JournalEntry& e, std::string* err) {
  bool ok = PathIsSafe(e.path);
  if (e.kind == JournalEntryKind::kSysfsValue) {
    ok = ok && (e.path.rfind("/sys/", 0) == 0 || e.path.rfind("/proc/sys/", 0) == 0);
  } else if (e.kind == JournalEntryKind::kLoopDevice || e.kind == JournalEntryKind::kLoopCreated) {
    ok = ok && IsLoopDevicePath(e.path) && PathIsSafe(e.backing_file);
  } else if (e.kind == JournalEntryKind::kDriverTags) {
    ok = ok && !DiskOfNrRequests(e.path).empty() && !e.original.empty() &&
         e.original.find_first_not_of("0123456789") == std::string::npos && e.original.size() < 7 &&
         std::stoi(e.original) >= 1;
  } else if (e.kind == JournalEntryKind::kProcess) {
    ok = e.pid > 1 && e.start_time > 0;
  } else if (e.kind == JournalEntryKind::kCgroup) {
    ok = ok && IsElevbenchCgroupPath(e.path);
  } else if (e.kind == JournalEntryKind::kTracefsInstance) {
    ok = ok && IsElevbenchInstancePath(e.path);
  } else if (e.kind == JournalEntryKind::kFuseConnection) {
    ok = ok && e.pid > 1 && e.start_time > 0 && !e.original.empty() && e.original.size() < 11 &&
         e.original.find_first_not_of("0123456789") == std::string::npos;
  }
  if (!ok) *err = std::string("invalid ") + KindName(e.kind) + " entry '" + e.path + "'";
  return ok;
}

namespace {

nlohmann::json EntryToJson(const JournalEntry& e) {
  nlohmann::json j = {{"kind", KindName(e.kind)}};
  if (e.kind == JournalEntryKind::kProcess || e.kind == JournalEntryKind::kFuseConnection) {
    j["pid"] = e.pid;
    j["start_time"] = e.start_time;
    j["comm"] = e.comm;
    if (e.kind == JournalEntryKind::kProcess) return j;
    j["path"] = e.path;
    j["connection"] = e.original;
    return j;
  }
  const bool loop =
      e.kind == JournalEntryKind::kLoopDevice || e.kind == JournalEntryKind::kLoopCreated;
  j[loop ? "device" : "path"] = e.path;
  if (e.kind == JournalEntryKind::kSysfsValue || e.kind == JournalEntryKind::kDriverTags) {
    j["original"] = e.original;
  }
  if (loop) j["backing_file"] = e.backing_file;
  return j;
}

bool EntryFromJson(const nlohmann::json& j, JournalEntry* e, std::string* err) {
  try {
    std::string kind = j.at("kind").get<std::string>();
    size_t i = 0;
    while (i < std::size(kKindNames) && kind != kKindNames[i]) ++i;
    if (i == std::size(kKindNames)) return Fail(err, "unknown journal entry kind '" + kind + "'");
    *e = JournalEntry();
    e->kind = static_cast<JournalEntryKind>(i);
    if (e->kind == JournalEntryKind::kProcess || e->kind == JournalEntryKind::kFuseConnection) {
      // Numbers through GetJsonField: a float such as 1e56 read as an integer is undefined
      // behaviour in nlohmann's get<>.
      if (!GetJsonField(j, "pid", &e->pid, err) ||
          !GetJsonField(j, "start_time", &e->start_time, err)) {
        return Fail(err, "bad journal entry: " + *err);
      }
      e->comm = j.value("comm", "");
      if (e->kind == JournalEntryKind::kFuseConnection) {
        e->path = j.at("path");
        e->original = j.at("connection");
      }
    } else {
      const bool loop =
          e->kind == JournalEntryKind::kLoopDevice || e->kind == JournalEntryKind::kLoopCreated;
      e->path = j.at(loop ? "device" : "path");
      if (e->kind == JournalEntryKind::kSysfsValue || e->kind == JournalEntryKind::kDriverTags) {
        e->original = j.at("original");
      }
      if (loop) e->backing_file = j.at("backing_file");
    }
  } catch (const nlohmann::json::exception& ex) {
    return Fail(err, std::string("bad journal entry: ") + ex.what());
  }
  return ValidateJournalEntry(*e, err);
}

}  // namespace

std::string SerializeJournal(const JournalContents& jf) {
  nlohmann::json entries = nlohmann::json::array();
  for (const JournalEntry& e : jf.entries) entries.push_back(EntryToJson(e));
  nlohmann::json j = {{"schema_version", kSchemaVersion},
                      {"tool", "elevbench"},
                      {"owner", jf.owner},
                      {"owner_pid", jf.owner_pid},
                      {"owner_start_time", jf.owner_start_time},
                      {"sysfs_root", jf.sysfs_root},
                      {"entries", entries}};
  // Invalid UTF-8 in a path must not throw; the replacement only affects the log text.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

bool ParseJournal(std::string_view text, const std::string& name, JournalContents* out,
                  std::string* err) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return Fail(err, name + " is not valid JSON; inspect it and remove it by hand");
  }
  try {
    int schema = 0;
    if (!GetJsonField(j, "schema_version", &schema, err) || schema != kSchemaVersion) {
      return Fail(err, name + " has an unknown schema_version");
    }
    out->owner = j.value("owner", "");
    if (!GetJsonField(j, "owner_pid", &out->owner_pid, err)) return Fail(err, name + ": " + *err);
    out->owner_start_time = 0;
    if (j.contains("owner_start_time") &&
        !GetJsonField(j, "owner_start_time", &out->owner_start_time, err)) {
      return Fail(err, name + ": " + *err);
    }
    out->sysfs_root = j.at("sysfs_root").get<std::string>();
    for (const nlohmann::json& e : j.at("entries")) {
      out->entries.emplace_back();
      if (!EntryFromJson(e, &out->entries.back(), err)) return Fail(err, name + ": " + *err);
    }
  } catch (const nlohmann::json::exception& ex) {
    return Fail(err, name + ": " + ex.what());
  }
  return true;
}

const char* KindName(JournalEntryKind kind) { return kKindNames[static_cast<int>(kind)]; }

bool JournalEntry::SameResource(const JournalEntry& other) const {
  if (kind != other.kind) return false;
  if (kind == JournalEntryKind::kProcess) {
    return pid == other.pid && start_time == other.start_time;
  }
  return path == other.path;
}

}  // namespace elevbench
