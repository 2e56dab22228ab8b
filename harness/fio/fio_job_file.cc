#include "harness/fio/fio_job_file.h"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

namespace elevbench {
namespace {

constexpr std::array<std::string_view, 6> kAllowedRw = {"read",      "write", "randread",
                                                        "randwrite", "rw",    "randrw"};

bool IsRandomRw(const std::string& rw) { return rw.rfind("rand", 0) == 0; }

// Quotes a user string for an error message, escaping control characters so err stays one line.
std::string Quote(const std::string& s) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string q = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      q += "\\x";
      q += kHex[u >> 4];
      q += kHex[u & 0xf];
    } else {
      q += c;
    }
  }
  return q + "\"";
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Builds one section: remembers which keys it emitted so extras cannot silently override them.
class Section {
 public:
  explicit Section(std::string* out) : out_(out) {}

  void Flag(const std::string& key) { Line(key, ""); }
  void Option(const std::string& key, const std::string& value) { Line(key, value); }
  void Option(const std::string& key, uint64_t value) { Line(key, std::to_string(value)); }
  bool Emitted(const std::string& key) const { return keys_.count(key) != 0; }

 private:
  void Line(const std::string& key, const std::string& value) {
    keys_.insert(key);
    *out_ += key;
    if (!value.empty()) *out_ += "=" + value;
    *out_ += "\n";
  }

  std::string* out_;
  std::set<std::string> keys_;
};

// Values end up after "key=" on one line: no line breaks, no NUL, no blanks fio would strip.
bool CheckValue(const std::string& what, const std::string& value, std::string* err) {
  if (value.find_first_of(std::string("\n\r\0", 3)) != std::string::npos) {
    *err = what + " contains a line break or NUL";
    return false;
  }
  if (!value.empty() && (value.front() == ' ' || value.front() == '\t' || value.back() == ' ' ||
                         value.back() == '\t')) {
    *err = what + " has leading or trailing blanks";
    return false;
  }
  return true;
}

// Paths: additionally no ':' (fio splits directory= and filename= lists on it).
bool CheckPath(const std::string& what, const std::string& value, std::string* err) {
  if (!CheckValue(what, value, err)) return false;
  if (value.find(':') != std::string::npos) {
    *err = what + " " + Quote(value) + " contains ':', which fio treats as a list separator";
    return false;
  }
  return true;
}

bool AppendExtras(const std::string& where,
                  const std::vector<std::pair<std::string, std::string>>& extra, Section* section,
                  std::string* err) {
  for (const auto& [key, value] : extra) {
    if (key.empty() || !std::all_of(key.begin(), key.end(), IsNameChar)) {
      *err = where + ": extra option key " + Quote(key) + " must be non-empty [A-Za-z0-9_]";
      return false;
    }
    if (section->Emitted(key)) {
      *err = where + ": extra option " + Quote(key) + " is already set";
      return false;
    }
    if (!CheckValue(where + ": extra option " + key, value, err)) return false;
    section->Option(key, value);
  }
  return true;
}

bool CheckStream(const StreamSpec& s, std::string* err) {
  const std::string where = "stream " + Quote(s.name);
  const bool name_ok = !s.name.empty() && std::all_of(s.name.begin(), s.name.end(), [](char c) {
    return IsNameChar(c) || c == '-' || c == '.';
  });
  if (!name_ok) {
    *err = where + ": name must be non-empty [A-Za-z0-9_.-]";
    return false;
  }
  if (s.name == "global") {
    *err = where + ": \"global\" is reserved for fio's [global] section";
    return false;
  }
  if (std::find(kAllowedRw.begin(), kAllowedRw.end(), s.rw) == kAllowedRw.end()) {
    *err = where + ": rw " + Quote(s.rw) +
           " is not one of read, write, randread, randwrite, rw, randrw";
    return false;
  }
  if (s.block_size_bytes == 0) {
    *err = where + ": block size must be > 0";
    return false;
  }
  if (s.numjobs == 0 || s.iodepth == 0) {
    *err = where + ": numjobs and iodepth must be >= 1";
    return false;
  }
  if (s.ioengine.empty() || s.ioengine.find('=') != std::string::npos) {
    *err = where + ": ioengine must be non-empty and contain no '='";
    return false;
  }
  return CheckPath(where + ": directory", s.directory, err) &&
         CheckPath(where + ": filename", s.filename, err) &&
         CheckValue(where + ": ioengine", s.ioengine, err);
}

void WriteStream(const StreamSpec& s, Section* sec) {
  if (s.stonewall) sec->Flag("stonewall");
  if (s.new_group) sec->Flag("new_group");
  sec->Option("rw", s.rw);
  if (!s.directory.empty()) sec->Option("directory", s.directory);
  if (!s.filename.empty()) sec->Option("filename", s.filename);
  if (s.file_size_bytes != 0) sec->Option("size", s.file_size_bytes);
  sec->Option("bs", s.block_size_bytes);
  sec->Option("numjobs", s.numjobs);
  sec->Option("ioengine", s.ioengine);
  sec->Option("iodepth", s.iodepth);
  sec->Option("direct", s.direct ? 1 : 0);
  if (s.random_repeats && IsRandomRw(s.rw)) sec->Option("norandommap", 1);
  if (s.number_ios != 0) sec->Option("number_ios", s.number_ios);
  if (s.end_fsync) sec->Option("end_fsync", 1);
  if (s.runtime_ms != 0) {
    sec->Option("runtime", std::to_string(s.runtime_ms) + "ms");
    sec->Flag("time_based");
  }
  if (s.rate_bytes_per_sec != 0) sec->Option("rate", s.rate_bytes_per_sec);
  if (s.start_delay_ms != 0) sec->Option("startdelay", std::to_string(s.start_delay_ms) + "ms");
}

}  // namespace

StreamSpec FileStream(const std::string& name, const std::string& rw, const std::string& filename,
                      uint64_t file_size_bytes, uint32_t block_size_bytes) {
  return {.name = name,
          .rw = rw,
          .filename = filename,
          .file_size_bytes = file_size_bytes,
          .block_size_bytes = block_size_bytes};
}

FioGlobalSpec LegacyToolFioGlobal() {
  FioGlobalSpec g;  // the defaults are the legacy tools' threads, no drop, unseeded, plain writes
  g.extra.emplace_back("fadvise_hint", "0");
  return g;
}

bool WriteFioJobFile(const FioGlobalSpec& global, const std::vector<StreamSpec>& streams,
                     std::string* text, std::string* err) {
  if (streams.empty()) {
    *err = "no streams: a fio job file needs at least one job section";
    return false;
  }
  std::set<std::string> names;
  for (const StreamSpec& s : streams) {
    if (!CheckStream(s, err)) return false;
    if (!names.insert(s.name).second) {
      *err = "stream " + Quote(s.name) + " appears twice (names must be unique)";
      return false;
    }
  }

  std::string out =
      "; fio job file generated by elevbench; change the elevbench options, not this file\n";
  out += "[global]\n";
  Section g(&out);
  if (global.thread) g.Flag("thread");
  if (global.group_reporting) g.Flag("group_reporting");
  if (global.exitall) g.Flag("exitall");
  g.Option("invalidate", global.invalidate ? 1 : 0);
  g.Option("randrepeat", global.randrepeat ? 1 : 0);
  if (global.random_seed != 0) g.Option("randseed", global.random_seed);
  if (global.fallocate_none) g.Option("fallocate", "none");
  g.Option("clat_percentiles", 1);
  g.Option("lat_percentiles", 0);
  g.Option("disable_slat", 1);
  g.Option("disable_lat", 1);
  if (!AppendExtras("global", global.extra, &g, err)) return false;

  for (const StreamSpec& s : streams) {
    out += "\n[" + s.name + "]\n";
    Section sec(&out);
    WriteStream(s, &sec);
    if (!AppendExtras("stream " + Quote(s.name), s.extra, &sec, err)) return false;
  }
  *text = std::move(out);
  return true;
}

}  // namespace elevbench
