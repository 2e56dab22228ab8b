#include "scenarios/fiojobs/user_job_file.h"

#include <algorithm>
#include <array>

namespace elevbench {
namespace {

// Options a job file may not use on elevbench's target, and why (one word for the message).
struct RefusedOption {
  std::string_view key;
  std::string_view why;
};
constexpr std::array<RefusedOption, 20> kRefused = {{
    {"exec_prerun", "runs a command"},
    {"exec_postrun", "runs a command"},
    {"ioscheduler", "switches the scheduler (elevbench does, and restores it)"},
    {"cgroup", "makes cgroups"},
    {"cgroup_weight", "makes cgroups"},
    {"cgroup_nodelete", "makes cgroups"},
    {"write_iolog", "writes a file outside the target"},
    {"read_iolog", "replays a log (use `run replay`)"},
    {"replay_redirect", "replays a log (use `run replay`)"},
    {"write_bw_log", "writes a file outside the target"},
    {"write_lat_log", "writes a file outside the target"},
    {"write_iops_log", "writes a file outside the target"},
    {"write_hist_log", "writes a file outside the target"},
    {"opendir", "scans a directory"},
    {"filename_format", "names files elevbench cannot place"},
    {"unified_rw_reporting", "merges read and write results elevbench reports apart"},
    {"trigger_file", "runs a command"},
    {"trigger", "runs a command"},
    {"trigger_cmd", "runs a command"},
    {"lockfile_path", "writes a file outside the target"},
}};

std::string_view Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Why `key`=`value` is refused, or empty.
std::string RefusalOf(const std::string& key, const std::string& value) {
  for (const RefusedOption& r : kRefused) {
    if (key == r.key) return std::string(r.why);
  }
  if (key == "ioengine" && (value == "exec" || value.rfind("external", 0) == 0)) {
    return "runs a program or loads a library";
  }
  if ((key == "filename" || key == "directory") && value.find('$') != std::string::npos) {
    return "expands variables elevbench cannot check";
  }
  return "";
}

// Appends one "key=value" line of `section` after checking it.
bool AddOption(std::string_view body, UserJobSection* section, const std::string& where,
               std::string* err) {
  if (body.rfind("include ", 0) == 0 || body.rfind("$include ", 0) == 0) {
    *err = where + ": include files are not supported (put everything in one file)";
    return false;
  }
  const size_t eq = body.find('=');
  const std::string key(Trim(body.substr(0, eq)));
  const std::string value(eq == std::string_view::npos ? "" : Trim(body.substr(eq + 1)));
  if (key.empty() || !std::all_of(key.begin(), key.end(), IsKeyChar)) {
    *err = where + ": not an option line";
    return false;
  }
  if (key == "include" || key == "$include") {
    *err = where + ": include files are not supported (put everything in one file)";
    return false;
  }
  if (const std::string why = RefusalOf(key, value); !why.empty()) {
    *err = where + ": " + key + " is refused: it " + why;
    return false;
  }
  section->options.emplace_back(key, value);
  return true;
}

// A section's effective value of `key`: its own, else the last [global]'s before it.
std::string Effective(const UserJobSection& job, const UserJobSection* global,
                      const std::string& key) {
  std::string value;
  if (global != nullptr) {
    for (const auto& [k, v] : global->options) {
      if (k == key) value = v;
    }
  }
  for (const auto& [k, v] : job.options) {
    if (k == key) value = v;
  }
  return value;
}

std::vector<std::string> SplitColons(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t colon; (colon = s.find(':', start)) != std::string::npos; start = colon + 1) {
    parts.push_back(s.substr(start, colon - start));
  }
  parts.push_back(s.substr(start));
  return parts;
}

bool HasDotDot(const std::string& path) {
  for (const std::string& part : SplitColons(path)) {
    size_t start = 0;
    while (start <= part.size()) {
      const size_t slash = part.find('/', start);
      const std::string piece =
          part.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
      if (piece == "..") return true;
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
  }
  return false;
}

bool Under(const std::string& path, const std::string& dir) {
  return path == dir || path.rfind(dir + "/", 0) == 0;
}

bool WritesRw(const std::string& rw) { return !rw.empty() && rw != "read" && rw != "randread"; }

// One file name of a job resolved onto the target; `base` is where relative names go.
bool ResolveName(const std::string& name, const std::string& base, const JobPlacement& p,
                 bool writes, std::string* out, std::string* err) {
  if (!p.device.empty() && name == p.device) {
    if (writes && !p.allow_writes) {
      *err = "writes to " + p.device +
             ", destroying its data: add --allow-writes if that is "
             "what you want";
      return false;
    }
    *out = name;
    return true;
  }
  if (!name.empty() && name.front() == '/') {
    if (!Under(name, p.target_dir)) {
      *err = "filename " + name + " is outside the target " + p.target_dir +
             (p.device.empty() ? "" : " and is not --device " + p.device);
      return false;
    }
    *out = name;
    return true;
  }
  *out = base + "/" + name;
  return true;
}

// The lines elevbench writes into one job: its files, the overrides, clat percentiles.
bool PlacedJobLines(const UserJobSection& job, const UserJobSection* global, const JobPlacement& p,
                    std::string* lines, std::string* base_dir, std::string* err) {
  const std::string directory = Effective(job, global, "directory");
  const std::string filename = Effective(job, global, "filename");
  if (HasDotDot(directory) || HasDotDot(filename)) {
    *err = "'..' in a path (elevbench places files inside its target)";
    return false;
  }
  if (!directory.empty() &&
      (directory.front() == '/' || directory.find(':') != std::string::npos)) {
    *err = "directory " + directory + " must be relative to the target (one directory)";
    return false;
  }
  const std::string base = p.target_dir + (directory.empty() ? "" : "/" + directory);
  *base_dir = base;
  const bool writes = WritesRw(Effective(job, global, "rw")) ||
                      WritesRw(Effective(job, global, "readwrite")) ||
                      !Effective(job, global, "verify").empty();
  if (filename.empty()) {
    *lines += "directory=" + base + "\n";
  } else {
    std::string resolved;
    for (const std::string& name : SplitColons(filename)) {
      std::string one;
      if (!ResolveName(name, base, p, writes, &one, err)) return false;
      resolved += (resolved.empty() ? "" : ":") + one;
    }
    *lines += "filename=" + resolved + "\n";
  }
  for (const auto& [k, v] : p.overrides) *lines += k + (v.empty() ? "" : "=" + v) + "\n";
  *lines += "clat_percentiles=1\n";
  return true;
}

}  // namespace

bool ParseUserJobFile(std::string_view text, const std::string& path, UserJobFile* out,
                      std::string* err) {
  UserJobFile file;
  file.path = path;
  int line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = Trim(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    const std::string where = path + ":" + std::to_string(line_no);
    if (line.empty() || line.front() == ';' || line.front() == '#') continue;
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 3) {
        *err = where + ": malformed section header";
        return false;
      }
      file.sections.push_back({std::string(Trim(line.substr(1, line.size() - 2))), {}, line_no});
      continue;
    }
    if (file.sections.empty()) {
      *err = where + ": an option before the first [section]";
      return false;
    }
    if (!AddOption(line, &file.sections.back(), where, err)) return false;
  }
  if (std::none_of(file.sections.begin(), file.sections.end(),
                   [](const UserJobSection& s) { return s.name != "global"; })) {
    *err = path + ": no job section (only [global] or nothing)";
    return false;
  }
  *out = std::move(file);
  return true;
}

bool PlaceUserJobFile(const UserJobFile& file, const JobPlacement& p, std::string* text,
                      std::vector<std::string>* directories, std::string* err) {
  std::string out = "; " + file.path + " placed on " + p.target_dir + " by elevbench\n";
  const UserJobSection* global = nullptr;
  for (const UserJobSection& section : file.sections) {
    out += "[" + section.name + "]\n";
    for (const auto& [k, v] : section.options) {
      if (k == "directory" || k == "filename") continue;
      out += k + (v.empty() ? "" : "=" + v) + "\n";
    }
    if (section.name == "global") {
      global = &section;
      continue;
    }
    std::string base;
    if (!PlacedJobLines(section, global, p, &out, &base, err)) {
      *err = file.path + ": job " + section.name + ": " + *err;
      return false;
    }
    if (directories != nullptr &&
        std::find(directories->begin(), directories->end(), base) == directories->end()) {
      directories->push_back(base);
    }
  }
  *text = std::move(out);
  return true;
}

bool ParseFioOverride(const std::string& text, std::pair<std::string, std::string>* out,
                      std::string* err) {
  const size_t eq = text.find('=');
  const std::string key = text.substr(0, eq);
  const std::string value = eq == std::string::npos ? "" : text.substr(eq + 1);
  if (key.empty() || !std::all_of(key.begin(), key.end(), IsKeyChar)) {
    *err = "--fio-set '" + text + "': expected key=value";
    return false;
  }
  if (value.find_first_of(std::string("\n\r\0", 3)) != std::string::npos) {
    *err = "--fio-set " + key + ": the value has a line break";
    return false;
  }
  if (key == "filename" || key == "directory") {
    *err = "--fio-set " + key + ": elevbench places the files on its target";
    return false;
  }
  if (const std::string why = RefusalOf(key, value); !why.empty()) {
    *err = "--fio-set " + key + " is refused: it " + why;
    return false;
  }
  *out = {key, value};
  return true;
}

}  // namespace elevbench
