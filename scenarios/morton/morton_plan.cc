#include "scenarios/morton/morton_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace elevbench {
namespace {

constexpr uint64_t kMiB = 1 << 20;

uint64_t ScaledMiB(double mib, double scale) {
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(mib * scale))) * kMiB;
}

double MiB(uint64_t bytes) { return static_cast<double>(bytes) / kMiB; }

std::string FindCat(const std::string& tree) {
  return "find " + tree + " -type f | xargs cat > /dev/null";
}

}  // namespace

MortonSizes MortonSizesFor(double scale, uint64_t tree_mb) {
  MortonSizes s;
  s.scale = scale;
  s.stream_file_bytes = ScaledMiB(100, scale);
  s.load_file_bytes = ScaledMiB(512, scale);
  s.write_bytes = ScaledMiB(100, scale);
  s.tree_bytes = std::max<uint64_t>(
      1'000'000, static_cast<uint64_t>(std::llround(static_cast<double>(tree_mb) * 1e6 * scale)));
  return s;
}

bool ParseMortonTests(const std::string& text, std::vector<int>* tests, std::string* err) {
  std::vector<int> parsed;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    int n = 0;
    const bool digit = item.size() == 1 && item[0] >= '1' && item[0] <= '9';
    if (digit) n = item[0] - '0';
    if (!digit) {
      *err = "--tests: unknown test '" + item + "' (1 to 9)";
      return false;
    }
    if (std::find(parsed.begin(), parsed.end(), n) != parsed.end()) {
      *err = "--tests: " + item + " is listed twice";
      return false;
    }
    parsed.push_back(n);
  }
  if (parsed.empty() || (!text.empty() && text.back() == ',')) {
    *err = parsed.empty() ? "--tests needs at least one test (1 to 9)"
                          : "--tests: unknown test '' (1 to 9)";
    return false;
  }
  *tests = std::move(parsed);
  return true;
}

MortonPaths MortonPathsFor(const std::string& directory) {
  MortonPaths p;
  p.root = directory + "/morton";
  p.streams = p.root + "/streams";
  p.load_file = p.root + "/load/512M-file";
  p.trees = p.root + "/trees";
  p.three = p.trees + "/dir-with-three-kernel-trees";
  p.copy = p.trees + "/new-dir";
  p.cold_start = p.root + "/cold-start";
  p.outfile = p.root + "/outfile";
  return p;
}

std::string MortonTreeRoot(const MortonPaths& paths, int i) {
  return (i <= 3 ? paths.three : paths.trees) + "/kernel-tree-" + std::to_string(i);
}

std::string MortonStreamFileName(int i) { return "100-meg-file-" + std::to_string(i); }

MortonNeeds MortonNeedsOf(const std::vector<int>& tests) {
  MortonNeeds n;
  for (int t : tests) {
    if (t == 1) n.stream_files = 10;
    if (t == 6) n.stream_files = std::max(n.stream_files, 1);
    if (t == 4) n.trees = std::max(n.trees, 3);
    if (t == 5) n.trees = 6;
    if (t == 7 || t == 8) n.trees = std::max(n.trees, 1);
    if (!MortonLoadDirection(t).empty()) n.load_file = true;
    if (t == 2 || t == 3) n.cold_start = true;
  }
  return n;
}

std::vector<MortonPlannedProbe> MortonProbesOf(int test, const MortonPaths& paths,
                                               const MortonSizes& sizes,
                                               const ColdStartProgram& cold_start) {
  std::vector<MortonPlannedProbe> probes;
  switch (test) {
    case 1:  // for i in $(seq 0 9); do time cat 100-meg-file-$i > /dev/null & done
      for (int i = 0; i < 10; ++i) {
        const std::string f = MortonStreamFileName(i);
        probes.push_back(
            {"cat " + f + " > /dev/null", {"cat", f}, paths.streams, sizes.stream_file_bytes});
      }
      break;
    case 2:
    case 3:  // time ssh testbox xterm -e true
      probes.push_back({ColdStartCommandText(cold_start), ColdStartArgv(cold_start),
                        paths.cold_start, cold_start.bytes});
      break;
    case 4: {  // cp -a ./dir-with-three-kernel-trees/ ./new-dir; sync
      const std::string cmd = "cp -a ./dir-with-three-kernel-trees/ ./new-dir; sync";
      probes.push_back({cmd, {"sh", "-c", cmd}, paths.trees, 3 * sizes.tree_bytes});
      break;
    }
    case 5:  // for i in 1 2 3 4 5 6; do time (find kernel-tree-$i -type f | xargs cat ...) & done
      for (int i = 1; i <= 6; ++i) {
        const std::string cmd = FindCat("kernel-tree-" + std::to_string(i));
        probes.push_back(
            {cmd, {"sh", "-c", cmd}, i <= 3 ? paths.three : paths.trees, sizes.tree_bytes});
      }
      break;
    case 6: {  // time cat 100m-file > /dev/null
      const std::string f = MortonStreamFileName(0);
      probes.push_back(
          {"cat " + f + " > /dev/null", {"cat", f}, paths.streams, sizes.stream_file_bytes});
      break;
    }
    case 7:
    case 8: {  // time (find kernel-tree -type f | xargs cat > /dev/null)
      const std::string cmd = FindCat("kernel-tree-1");
      probes.push_back({cmd, {"sh", "-c", cmd}, paths.three, sizes.tree_bytes});
      break;
    }
    case 9: {  // time write-and-fsync -f -m 100 outfile
      const std::string cmd =
          "dd if=/dev/zero of=outfile bs=1M count=" + std::to_string(sizes.write_bytes / kMiB) +
          " conv=fsync";
      probes.push_back({cmd,
                        {"dd", "if=/dev/zero", "of=outfile", "bs=1M",
                         "count=" + std::to_string(sizes.write_bytes / kMiB), "conv=fsync"},
                        paths.root,
                        sizes.write_bytes});
      break;
    }
    default:
      break;
  }
  return probes;
}

std::string MortonLoadDirection(int test) {
  if (test == 2 || test == 6 || test == 7) return "write";
  if (test == 3 || test == 8 || test == 9) return "read";
  return "";
}

StreamSpec MortonLoadStream(const std::string& direction, const MortonPaths& paths,
                            const MortonSizes& sizes) {
  const bool read = direction == "read";
  // In 1 MiB blocks: dd bs=1M, cat's large reads.
  StreamSpec s = FileStream(read ? "streaming-reader" : "streaming-writer", read ? "read" : "write",
                            paths.load_file, sizes.load_file_bytes, kMiB);
  s.runtime_ms = 7ULL * 24 * 3600 * 1000;             // runs until stopped, looping over the file
  if (read) s.extra.emplace_back("invalidate", "1");  // each loop reads from the disk
  return s;
}

std::string MortonMbText(double mb) {
  char buf[48];
  if (std::fabs(mb - std::round(mb)) < 0.05) {
    std::snprintf(buf, sizeof buf, "%.0f MB", mb);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MB", mb);
  }
  return buf;
}

std::string MortonDescription(int test, const MortonSizes& s) {
  const std::string file = MortonMbText(MiB(s.stream_file_bytes));
  const std::string load = MortonMbText(MiB(s.load_file_bytes));
  const std::string tree = MortonMbText(static_cast<double>(s.tree_bytes) / 1e6);
  const std::string writer = "a streaming write (dd loop over a " + load + " file)";
  const std::string reader = "a streaming read (cat loop over a " + load + " file)";
  switch (test) {
    case 1:
      return "ten " + file + " files read at once";
    case 2:
      return "a program started from the disk during " + writer;
    case 3:
      return "a program started from the disk during " + reader;
    case 4:
      return "cp -a of three " + tree + " kernel-like trees, then sync";
    case 5:
      return "six " + tree + " kernel-like trees read at once by find | xargs cat";
    case 6:
      return "cat of a " + file + " file during " + writer;
    case 7:
      return "find | xargs cat of a " + tree + " kernel-like tree during " + writer;
    case 8:
      return "find | xargs cat of a " + tree + " kernel-like tree during " + reader;
    case 9:
      return MortonMbText(MiB(s.write_bytes)) + " written and fsync'ed during " + reader;
    default:
      return "";
  }
}

}  // namespace elevbench
