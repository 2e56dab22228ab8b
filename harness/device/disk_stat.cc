#include "harness/device/disk_stat.h"

#include <sstream>

#include "harness/core/atomic_file.h"

namespace elevbench {

bool ParseDiskStat(const std::string& text, DiskIoCounters* counters, std::string* err) {
  std::istringstream in(text);
  std::vector<uint64_t> fields;
  std::string word;
  while (in >> word) {
    if (word.find_first_not_of("0123456789") != std::string::npos) {
      *err = "disk stat: field " + std::to_string(fields.size() + 1) + " is not a number: '" +
             word + "'";
      return false;
    }
    fields.push_back(std::stoull(word));
  }
  if (fields.size() < 7) {
    *err = "disk stat: " + std::to_string(fields.size()) + " fields, expected at least 7";
    return false;
  }
  counters->read_bytes = fields[2] * 512;
  counters->written_bytes = fields[6] * 512;
  return true;
}

bool ReadDiskIoCounters(const std::vector<std::string>& disks, const SystemPaths& paths,
                        DiskIoCounters* counters, std::string* err) {
  DiskIoCounters sum;
  std::string root = paths.root;
  if (root.empty() || root.back() != '/') root += '/';
  for (const std::string& disk : disks) {
    const std::string path = root + "sys/block/" + disk + "/stat";
    std::string text;
    DiskIoCounters one;
    if (!ReadWholeFile(path, &text, err) || !ParseDiskStat(text, &one, err)) {
      *err = disk + ": " + *err;
      return false;
    }
    sum.read_bytes += one.read_bytes;
    sum.written_bytes += one.written_bytes;
  }
  *counters = sum;
  return true;
}

DiskIoCounters DiskIoDelta(const DiskIoCounters& before, const DiskIoCounters& after) {
  DiskIoCounters d;
  d.read_bytes = after.read_bytes > before.read_bytes ? after.read_bytes - before.read_bytes : 0;
  d.written_bytes =
      after.written_bytes > before.written_bytes ? after.written_bytes - before.written_bytes : 0;
  return d;
}

}  // namespace elevbench
