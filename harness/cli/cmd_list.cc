// `elevbench list suites|formats|schedulers|profiles [--json]`: the project's tables, printed
// from the tables themselves, for people and for scripts (scripts/killsweep reads `list suites
// --json`), so that no list is kept twice.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/device/block_device.h"
#include "harness/disk/disk_model.h"
#include "harness/machine/machine_spec.h"
#include "reporters/render.h"
#include "scenarios/suites.h"

namespace elevbench {
namespace {

using nlohmann::json;

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

json ProfilesJson() {
  json profiles = json::array();
  for (const std::string& name : DiskProfileNames()) {
    DiskProfile p;
    std::string err;
    if (!LookupDiskProfile(name, &p, &err)) continue;
    profiles.push_back({{"kind", "disk"}, {"name", name}, {"profile", DiskProfileToJson(p)}});
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

// One line an entry: its name, then what a person wants to know of it.
std::string ListText(const std::string& what, const json& list) {
  std::string text;
  for (const json& item : list) {
    if (what == "schedulers") {
      text += item.get<std::string>() + "\n";
    } else if (what == "suites") {
      text +=
          item["name"].get<std::string>() + "  " + item["description"].get<std::string>() + "\n";
    } else if (what == "formats") {
      text += item["name"].get<std::string>() + "  " +
              (item["suite"].is_null() ? std::string("every suite")
                                       : "a format of " + item["suite"].get<std::string>()) +
              "\n";
    } else {
      text += item["name"].get<std::string>() + "  " + item["kind"].get<std::string>() +
              (item.contains("description") ? ": " + item["description"].get<std::string>()
                                            : std::string()) +
              "\n";
    }
  }
  return text;
}

struct ListArgs {
  std::string what;
  bool json = false;
};

int ListCommand(const ListArgs& a) {
  const json list = a.what == "suites"       ? SuitesJson()
                    : a.what == "formats"    ? FormatsJson()
                    : a.what == "schedulers" ? SchedulersJson()
                                             : ProfilesJson();
  std::cout << (a.json ? list.dump(2) + "\n" : ListText(a.what, list));
  return kExitOk;
}

}  // namespace

SubcommandRunner AddListSubcommand(CLI::App* cmd, const std::string&) {
  auto args = std::make_shared<ListArgs>();
  cmd->add_option("what", args->what, "suites, formats, schedulers or profiles")
      ->required()
      ->check(CLI::IsMember({"suites", "formats", "schedulers", "profiles"}));
  cmd->add_flag("--json", args->json, "JSON output (an array)");
  return [args] { return ListCommand(*args); };
}

}  // namespace elevbench
