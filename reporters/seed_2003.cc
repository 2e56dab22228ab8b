#include "reporters/seed_2003.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "harness/core/strings.h"

namespace elevbench {

// Seed 000 (lkml, 27 Mar 2003), from its first probe line to Bench 6's note, as posted (the mail
// had expanded the tabs to spaces).
const char kSeed2003Post[] =
    "Cat kernel source during seq read\n"
    "DL - 0.03user 0.13system 5:21.39elapsed\n"
    "AS - 0.02user 0.14system 0:14.50elapsed\n"
    "CF - 0.01user 0.13system 4:52.79elapsed\n"
    "Cat kernel source during seq write\n"
    "DL - 0.03user 0.14system 14:06.45elapsed\n"
    "AS - 0.02user 0.14system 0:16.33elapsed\n"
    "CF - N/A\n"
    "* Test DNF after 20 minutes. \"Equilibrium\" state is\n"
    "5s pauses between reads of ~500K and continual ~45MB/s writes\n"
    "ls -lr kernel source during seq read\n"
    "DL - 0.18user 0.31system 0:24.32elapsed\n"
    "AS - 0.19user 0.32system 0:09.39elapsed\n"
    "CF - 0.18user 0.29system 0:23.76elapsed\n"
    "ls -lr kernel source during seq write\n"
    "DL - 0.23user 0.34system 1:13.90elapsed\n"
    "AS - 0.18user 0.32system 0:05.49elapsed\n"
    "CF - 0.20user 0.33system 0:47.19elapsed\n"
    "Contest\n"
    "no_load:\n"
    "Kernel [runs] Time CPU% Loads LCPU% Ratio\n"
    "2.5.65-mm4-dl 1 69 95.7 0.0 0.0 1.00\n"
    "2.5.65-mm4-as 1 69 95.7 0.0 0.0 1.00\n"
    "2.5.65-mm4-cf 1 69 95.7 0.0 0.0 1.00\n"
    "io_load:\n"
    "Kernel [runs] Time CPU% Loads LCPU% Ratio\n"
    "2.5.65-mm4-dl 1 149 46.3 121.0 22.8 2.16\n"
    "2.5.65-mm4-as 1 100 70.0 81.2 22.0 1.45\n"
    "2.5.65-mm4-cf 1 121 57.9 77.8 18.0 1.75\n"
    "read_load:\n"
    "Kernel [runs] Time CPU% Loads LCPU% Ratio\n"
    "2.5.65-mm4-dl 1 91 78.0 12.8 6.6 1.32\n"
    "2.5.65-mm4-as 1 100 72.0 15.6 8.0 1.45\n"
    "2.5.65-mm4-cf 1 92 76.1 12.5 6.5 1.33\n"
    "list_load:\n"
    "Kernel [runs] Time CPU% Loads LCPU% Ratio\n"
    "2.5.65-mm4-dl 1 87 78.2 5.0 18.4 1.26\n"
    "2.5.65-mm4-as 1 94 72.3 6.0 19.1 1.36\n"
    "2.5.65-mm4-cf 1 89 76.4 5.0 18.0 1.29\n"
    "tiobench\n"
    "Only did 1 and 4 threads for CFQ. It is not a scheduler for a server.\n"
    "Unit information\n"
    "================\n"
    "File size = 1024MB\n"
    "Blk Size = 4096B\n"
    "Sequential Reads\n"
    "Num Avg Maximum Lat% Lat% CPU\n"
    "Identifier Thr Rate (CPU%) Latency Latency >2s >10s Eff\n"
    "--------------- --- ------ ------ --------- ----------- ----- ------ -----\n"
    "2.5.65-mm4-dl 1 48.21 11.09% 0.080 36.49 0.00 0.00 435\n"
    "2.5.65-mm4-dl 4 11.47 2.500% 1.358 86.84 0.00 0.00 459\n"
    "2.5.65-mm4-dl 16 13.18 3.049% 4.704 311.43 0.00 0.00 432\n"
    "2.5.65-mm4-dl 256 10.32 2.489% 58.877 69755.23 0.09 0.07 414\n"
    "2.5.65-mm4-as 1 49.23 11.52% 0.078 28.10 0.00 0.00 427\n"
    "2.5.65-mm4-as 4 39.56 9.461% 0.387 217.46 0.00 0.00 418\n"
    "2.5.65-mm4-as 16 37.81 8.902% 1.571 929.76 0.00 0.00 425\n"
    "2.5.65-mm4-as 256 33.10 7.822% 17.405 26072.15 0.25 0.05 423\n"
    "2.5.65-mm4-cf 1 48.80 12.66% 0.079 28.16 0.00 0.00 385\n"
    "2.5.65-mm4-cf 4 12.38 2.607% 1.184 276.88 0.00 0.00 475\n"
    "Random Reads\n"
    "2.5.65-mm4-dl 1 0.59 0.488% 6.647 23.35 0.00 0.00 120\n"
    "2.5.65-mm4-dl 4 0.59 0.178% 26.003 96.85 0.00 0.00 332\n"
    "2.5.65-mm4-dl 16 0.67 0.327% 88.082 403.66 0.00 0.00 206\n"
    "2.5.65-mm4-dl 256 0.61 0.480% 1064.411 16058.51 3.02 2.68 127\n"
    "2.5.65-mm4-as 1 0.57 0.504% 6.829 28.33 0.00 0.00 113\n"
    "2.5.65-mm4-as 4 0.63 0.584% 23.283 220.36 0.00 0.00 108\n"
    "2.5.65-mm4-as 16 0.63 0.624% 87.513 596.26 0.00 0.00 101\n"
    "2.5.65-mm4-as 256 0.85 0.852% 659.708 14613.03 13.15 1.04 99\n"
    "2.5.65-mm4-cf 1 0.59 0.554% 6.581 22.38 0.00 0.00 107\n"
    "2.5.65-mm4-cf 4 0.59 0.203% 25.473 105.73 0.00 0.00 289\n"
    "Sequential Writes\n"
    "2.5.65-mm4-dl 1 42.85 20.66% 0.082 992.45 0.00 0.00 207\n"
    "2.5.65-mm4-dl 4 43.04 20.94% 0.291 1104.10 0.00 0.00 205\n"
    "2.5.65-mm4-dl 16 37.10 17.68% 1.188 6594.20 0.02 0.00 210\n"
    "2.5.65-mm4-dl 256 29.38 14.76% 15.689 30675.42 0.17 0.06 199\n"
    "2.5.65-mm4-as 1 44.15 21.43% 0.080 1025.37 0.00 0.00 206\n"
    "2.5.65-mm4-as 4 40.94 19.79% 0.299 1087.51 0.00 0.00 207\n"
    "2.5.65-mm4-as 16 35.62 16.89% 1.220 5965.63 0.02 0.00 211\n"
    "2.5.65-mm4-as 256 28.20 14.15% 16.388 33732.92 0.17 0.06 199\n"
    "2.5.65-mm4-cf 1 45.22 21.20% 0.078 1222.02 0.00 0.00 213\n"
    "2.5.65-mm4-cf 4 33.45 15.87% 0.367 1602.89 0.00 0.00 211\n"
    "Random Writes\n"
    "2.5.65-mm4-dl 1 0.81 0.467% 0.033 32.69 0.00 0.00 174\n"
    "2.5.65-mm4-dl 4 0.79 0.509% 0.934 75.36 0.00 0.00 155\n"
    "2.5.65-mm4-dl 16 0.81 0.484% 3.573 518.44 0.00 0.00 166\n"
    "2.5.65-mm4-dl 256 0.99 0.561% 48.837 7073.10 0.60 0.00 176\n"
    "2.5.65-mm4-as 1 0.82 0.472% 0.034 32.15 0.00 0.00 174\n"
    "2.5.65-mm4-as 4 0.81 0.518% 0.818 137.50 0.00 0.00 156\n"
    "2.5.65-mm4-as 16 0.79 0.516% 4.735 476.85 0.00 0.00 153\n"
    "2.5.65-mm4-as 256 0.94 0.524% 79.319 7416.65 0.96 0.00 179\n"
    "2.5.65-mm4-cf 1 0.78 0.433% 0.334 25.19 0.00 0.00 180\n"
    "2.5.65-mm4-cf 4 0.89 0.515% 4.068 12795.50 0.03 0.03 172\n"
    "* CFQ has latency problems here for some reason.\n"
    "OraSim (bigger is better)\n"
    "DL - 132, 144\n"
    "AS - 129, 140\n"
    "CF - 97, 121\n"
    "nickbench (IO rate is total combined throughput)\n"
    "Bench 2 - 2 threads, streaming reader and streaming writer\n"
    "DL - IO Rate: 33.36 MB/s, Reads per write: 0.08\n"
    "AS - IO Rate: 42.19 MB/s, Reads per write: 2.08\n"
    "CF - IO Rate: 32.00 MB/s, Reads per write: 0.12\n"
    "Bench 3 - 2 threads, streaming readers\n"
    "DL - IO Rate: 12.64 MB/s, Reads per read: 0.95\n"
    "AS - IO Rate: 45.56 MB/s, Reads per read: 1.00\n"
    "CF - IO Rate: 11.93 MB/s, Reads per read: 0.99\n"
    "Bench 4 - 2 threads, streaming writers\n"
    "DL - IO Rate: 38.59 MB/s, Writes per write: 1.45\n"
    "AS - IO Rate: 40.64 MB/s, Writes per write: 1.68\n"
    "CF - IO Rate: 37.88 MB/s, Writes per write: 1.66\n"
    "Bench 5 - 1 thread, read then write each block of 1 file\n"
    "DL - IO Rate: 40.24 MB/s, CPU time per byte: 4732.421875 us/B\n"
    "AS - IO Rate: 45.30 MB/s, CPU time per byte: 5238.281250 us/B\n"
    "CF - IO Rate: 38.80 MB/s, CPU time per byte: 4718.750000 us/B\n"
    "Bench 6 - 4 threads, streaming readers\n"
    "DL - IO Rate: 11.87 MB/s, Greatest unfairness between 4 readers: 0.95\n"
    "AS - IO Rate: 44.89 MB/s, Greatest unfairness between 4 readers: 0.95\n"
    "CF - IO Rate: 11.27 MB/s, Greatest unfairness between 4 readers: 0.5\n";

namespace {

std::vector<std::string> Words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool IsLabel(const std::string& s) {
  return !s.empty() && s.size() <= 12 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

}  // namespace

std::string PostSectionOf(const std::string& line) {
  static const char* const kTitles[] = {"Sequential Reads", "Random Reads", "Sequential Writes",
                                        "Random Writes"};
  for (const char* t : kTitles) {
    if (line == t) return line;
  }
  if (StartsWith(line, "Cat kernel source during ") ||
      StartsWith(line, "ls -lr kernel source during ")) {
    return line;
  }
  if (StartsWith(line, "OraSim")) return "OraSim";
  if (StartsWith(line, "Bench ") && line.size() > 6 &&
      std::isdigit(static_cast<unsigned char>(line[6]))) {
    return line.substr(0, 7);
  }
  if (line.size() > 6 && line.back() == ':' && line.find(' ') == std::string::npos &&
      line.find("_load") != std::string::npos) {
    return line;
  }
  if (line == "cacherun:") return line;
  return "";
}

bool PostRowKeyOf(const std::string& section, const std::string& line, PostRowKey* key) {
  if (section.empty()) return false;
  const size_t dash = line.find(" - ");
  if (dash != std::string::npos && IsLabel(line.substr(0, dash))) {
    *key = {section, Uppercase(line.substr(0, dash)), ""};
    return true;
  }
  const std::vector<std::string> words = Words(line);
  if (words.size() < 3 || words[0] == "Kernel" || words[0] == "Identifier") return false;
  const size_t last = words[0].rfind('-');
  if (last == std::string::npos || last + 1 == words[0].size()) return false;
  if (!std::all_of(words[1].begin(), words[1].end(),
                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    return false;
  }
  const bool tiobench = section.back() != ':';
  *key = {section, Uppercase(words[0].substr(last + 1)), tiobench ? words[1] : ""};
  return true;
}

const std::map<PostRowKey, std::string>& Seed2003Rows() {
  static const std::map<PostRowKey, std::string> rows = [] {
    std::map<PostRowKey, std::string> out;
    std::istringstream in(kSeed2003Post);
    std::string line, section;
    while (std::getline(in, line)) {
      const std::string title = PostSectionOf(line);
      if (!title.empty()) {
        section = title;
        continue;
      }
      PostRowKey key;
      if (PostRowKeyOf(section, line, &key)) out.emplace(key, line);
    }
    return out;
  }();
  return rows;
}

}  // namespace elevbench
