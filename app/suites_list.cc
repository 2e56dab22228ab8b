#include "app/suites_list.h"

#include <algorithm>

#include "app/suites.h"
#include "harness/device/block_device.h"
#include "harness/disk/disk_model.h"
#include "harness/machine/machine_spec.h"
#include "reporters/render.h"

namespace elevbench {

using nlohmann::json;

namespace {

json SuitesJson() {
  json suites = json::array();
  for (const SuiteEntry& e : AllSuites()) {
    json defaults = json::object();
    if (!e.defaults.emulated.empty()) defaults["emulated"] = e.defaults.emulated;
    if (!e.defaults.fs.empty()) defaults["fs"] = e.defaults.fs;
    if (!e.defaults.machine.empty()) defaults["machine"] = e.defaults.machine;
    if (!e.defaults.schedulers.empty()) defaults["schedulers"] = e.defaults.schedulers;
    suites.push_back({{"name", e.name},
                      {"description", e.description},
                      {"formats", e.formats},
                      {"defaults", defaults},
                      {"smoke_args", e.smoke_args},
                      {"smoke_size", e.smoke_size},
                      {"lane_cpus", e.lane_cpus},
                      {"lanes_refused", e.lane_cpus > 0 ? "" : e.lanes_refused}});
  }
  return suites;
}

json FormatsJson() {
  json formats = json::array();
  for (const SuiteEntry& e : AllSuites()) {
    for (const std::string& f : e.formats) {
      formats.push_back({{"name", f}, {"suite", e.name}, {"per_file", true}});
    }
  }
  for (const ReportFormat& f : GenericReportFormats()) {
    formats.push_back({{"name", f.name}, {"suite", nullptr}, {"per_file", f.per_file}});
  }
  return formats;
}

json SchedulersJson() {
  json schedulers = json::array();
  for (const std::string& s : OfferedSchedulers()) schedulers.push_back(s);
  return schedulers;
}

// A disk profile in one line for `list profiles` (#45): "rotating, 7200 rpm, avg seek 9 ms,
// 40 GB, no command queueing"; `disk profiles` has every parameter.
std::string DiskProfileDescription(const DiskProfile& p) {
  char text[160];
  const double gb = static_cast<double>(p.capacity_bytes) / 1e9;
  if (p.rpm > 0) {
    std::snprintf(text, sizeof text, "rotating, %.0f rpm, avg seek %.3g ms, %.4g GB, %s", p.rpm,
                  p.avg_seek_ms, gb,
                  p.queue_depth > 1 ? ("queue depth " + std::to_string(p.queue_depth)).c_str()
                                    : "no command queueing");
  } else {
    std::snprintf(text, sizeof text, "solid state, %.4g GB, queue depth %d", gb, p.queue_depth);
  }
  return text;
}

json ProfilesJson() {
  json profiles = json::array();
  for (const std::string& name : DiskProfileNames()) {
    DiskProfile p;
    std::string err;
    if (!LookupDiskProfile(name, &p, &err)) continue;
    profiles.push_back({{"kind", "disk"},
                        {"name", name},
                        {"description", DiskProfileDescription(p)},
                        {"profile", DiskProfileToJson(p)}});
  }
  for (const MachineProfile& m : MachineProfiles()) {
    profiles.push_back({{"kind", "machine"},
                        {"name", m.name},
                        {"memory_bytes", m.memory_bytes},
                        {"cpus", m.cpus},
                        {"description", m.description}});
  }
  return profiles;
}

}  // namespace

bool CheckListName(const std::string& what, std::string* err) {
  const std::vector<std::string> lists = {"suites", "formats", "schedulers", "profiles"};
  if (std::find(lists.begin(), lists.end(), what) != lists.end()) return true;
  *err = "list: no list '" + what +
         "' (suites, formats, schedulers or profiles; see elevbench list --help)";
  return false;
}

json ListJson(const std::string& what) {
  return what == "suites"       ? SuitesJson()
         : what == "formats"    ? FormatsJson()
         : what == "schedulers" ? SchedulersJson()
                                : ProfilesJson();
}

std::string ListText(const std::string& what, const json& list) {
  if (what == "schedulers") {
    std::string text;
    for (const json& item : list) text += item.get<std::string>() + "\n";
    return text;
  }
  size_t width = 0;  // the names in one column (#45)
  for (const json& item : list) width = std::max(width, item["name"].get<std::string>().size());
  std::string text;
  for (const json& item : list) {
    std::string name = item["name"].get<std::string>();
    name.resize(width + 2, ' ');
    if (what == "suites") {
      text += name + item["description"].get<std::string>() + "\n";
    } else if (what == "formats") {
      text += name +
              (item["suite"].is_null() ? std::string("every suite")
                                       : "a format of " + item["suite"].get<std::string>()) +
              "\n";
    } else {
      text += name + item["kind"].get<std::string>() +
              (item.contains("description") ? ": " + item["description"].get<std::string>()
                                            : std::string()) +
              "\n";
    }
  }
  return text;
}

}  // namespace elevbench
