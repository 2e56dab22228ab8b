// The plan of a kernel-like tree (source_tree.h): the measured constants and the generator of
// names, directories and sizes. The text of the files is in source_tree_text.cc; writing,
// copying and digesting trees are in source_tree_io.cc. docs/source-tree.md explains the model.

#include "harness/tree/source_tree.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <unordered_set>

#include "harness/tree/source_tree_internal.h"

namespace elevbench {
namespace source_tree_internal {

constexpr const char* kWords[] = {
    "acpi",   "adb",     "aha",      "alloc",    "apm",          "arp",     "ata",     "atm",
    "audit",  "auth",    "bitmap",   "block",    "bluez",        "bond",    "boot",    "bridge",
    "buffer", "bus",     "cache",    "capi",     "cdrom",        "char",    "chip",    "clock",
    "cmd",    "codec",   "console",  "core",     "cpu",          "crc",     "crypt",   "ctrl",
    "dcache", "debug",   "dev",      "dma",      "dquot",        "driver",  "dsp",     "eeprom",
    "elf",    "entry",   "event",    "exec",     "ext2",         "ext3",    "fat",     "fault",
    "fb",     "fcntl",   "fifo",     "file",     "filter",       "fw",      "flash",   "floppy",
    "fork",   "frame",   "gadget",   "gpio",     "hash",         "hdlc",    "head",    "hid",
    "host",   "hub",     "i2c",      "icmp",     "ide",          "init",    "inode",   "input",
    "ioctl",  "iomap",   "ipc",      "ipv4",     "ipv6",         "irq",     "isa",     "isdn",
    "joy",    "journal", "kbd",      "kmod",     "ksyms",        "lapb",    "link",    "lock",
    "loop",   "lp",      "mach",     "mca",      "md",           "media",   "mem",     "misc",
    "mmap",   "module",  "mouse",    "msg",      "mtd",          "namei",   "nbd",     "net",
    "nfs",    "nls",     "nvram",    "open",     "page",         "parport", "pci",     "pcmcia",
    "phy",    "pipe",    "pnp",      "power",    "ppp",          "printk",  "proc",    "ptrace",
    "queue",  "radio",   "raid",     "ram",      "reiser",       "route",   "rtc",     "sbus",
    "sched",  "scsi",    "sem",      "serial",   "setup",        "shm",     "signal",  "slab",
    "smp",    "sock",    "sound",    "spi",      "stat",         "super",   "swap",    "sys",
    "sysctl", "tcp",     "time",     "timer",    "trace",        "tty",     "udp",     "uart",
    "usb",    "util",    "vfs",      "video",    "vmalloc",      "vt",      "wdt",     "wireless",
    "xattr",  "zlib",    "elevator", "deadline", "anticipatory", "bio",     "request", "ll_rw",
};

const char* Word(Rng& rng) { return kWords[rng.Below(std::size(kWords))]; }

Kind KindOfPath(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  auto ends = [&](std::string_view s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  auto starts = [&](std::string_view s) { return name.compare(0, s.size(), s) == 0; };
  if (starts("Makefile") || starts("Kconfig") || starts("Kbuild") || ends(".mk") ||
      ends(".include") || name == "Rules.make") {
    return kBuild;
  }
  if (ends(".c")) return kC;
  if (ends(".h")) return kH;
  if (ends(".S") || ends(".s")) return kAsm;
  if (path.compare(0, 14, "Documentation/") == 0 || ends(".rst") || ends(".txt") ||
      starts("README") || slash == std::string_view::npos) {
    return kDoc;
  }
  return kOther;
}

}  // namespace source_tree_internal

namespace {

using source_tree_internal::kAsm;
using source_tree_internal::kBuild;
using source_tree_internal::kC;
using source_tree_internal::kDoc;
using source_tree_internal::kH;
using source_tree_internal::Kind;
using source_tree_internal::kKindCount;
using source_tree_internal::Mix64;
using source_tree_internal::Rng;
using source_tree_internal::Word;

// ---------------------------------------------------------------------------------------------
// Measured constants: scripts/measure-kernel-tree --cxx /usr/src/linux-source-6.1.tar.xz
// (Debian linux-source-6.1 6.1.192-3). The quantile table holds each distribution's value at
// each knot; knots are in units of 1/10000 of the probability. The sizes leave out the 45 files
// above 1,766,692 bytes (the largest file of linux-2.4.19; 6.1's generated amdgpu register
// headers).
// ---------------------------------------------------------------------------------------------

// The distributions of kQuantiles, its columns: a file's size in bytes for each Kind (kC to
// kOther, the Kind's own value), the files of a leaf directory, the files of a non-leaf directory
// and the subdirectories of a non-leaf directory.
enum QuantileColumn {
  kFilesPerLeafDir = kKindCount,
  kFilesPerInnerDir,
  kSubdirsPerInnerDir,
  kQuantileColumns,
};

/// A knot of the measured quantile table: its probability in units of 1/10000, and the value of
/// each distribution (QuantileColumn) there.
struct QuantileKnot {
  uint32_t knot;
  uint32_t values[kQuantileColumns];
};

// Generated by scripts/measure-kernel-tree --cxx --cap 1766692 /usr/src/linux-source-6.1.tar.xz
// Sizes of 32004 c, 23356 h, 4684 build, 9134 doc, 1322 asm, 8034 other files of at most 1766692
// bytes.
constexpr QuantileKnot kQuantiles[] = {
    {0, {18, 0, 0, 0, 29, 0, 0, 0, 1}},
    {100, {244, 121, 62, 126, 75, 19, 1, 0, 1}},
    {200, {473, 187, 72, 195, 120, 38, 1, 0, 1}},
    {300, {676, 222, 78, 248, 209, 50, 1, 0, 1}},
    {400, {855, 255, 84, 298, 258, 57, 1, 0, 1}},
    {500, {1046, 284, 90, 336, 290, 70, 1, 0, 1}},
    {600, {1212, 310, 99, 377, 316, 86, 1, 0, 1}},
    {700, {1352, 336, 107, 421, 352, 112, 1, 0, 1}},
    {800, {1499, 364, 117, 465, 383, 141, 1, 0, 1}},
    {900, {1633, 392, 123, 502, 424, 172, 2, 0, 1}},
    {1000, {1761, 418, 128, 538, 456, 203, 2, 0, 1}},
    {1100, {1886, 441, 132, 580, 495, 239, 2, 0, 1}},
    {1200, {2018, 468, 137, 617, 530, 264, 2, 0, 1}},
    {1300, {2154, 497, 142, 663, 584, 286, 2, 0, 1}},
    {1400, {2287, 528, 147, 698, 620, 311, 2, 0, 1}},
    {1500, {2427, 556, 156, 735, 648, 337, 2, 0, 1}},
    {1600, {2576, 587, 162, 763, 714, 363, 2, 0, 1}},
    {1700, {2712, 618, 168, 793, 759, 379, 2, 0, 1}},
    {1800, {2864, 651, 174, 816, 779, 402, 3, 0, 1}},
    {1900, {3019, 687, 180, 849, 827, 422, 3, 0, 1}},
    {2000, {3166, 722, 185, 875, 870, 441, 3, 0, 1}},
    {2100, {3300, 757, 191, 900, 910, 468, 3, 0, 1}},
    {2200, {3449, 799, 198, 926, 968, 500, 3, 0, 1}},
    {2300, {3598, 835, 204, 951, 999, 536, 3, 0, 1}},
    {2400, {3743, 876, 210, 977, 1035, 570, 3, 0, 1}},
    {2500, {3907, 914, 217, 1003, 1070, 608, 3, 0, 1}},
    {2600, {4061, 955, 224, 1038, 1122, 657, 3, 0, 1}},
    {2700, {4210, 1000, 231, 1069, 1185, 698, 3, 0, 1}},
    {2800, {4387, 1045, 240, 1100, 1220, 737, 3, 0, 1}},
    {2900, {4554, 1086, 246, 1131, 1282, 793, 4, 0, 1}},
    {3000, {4734, 1128, 254, 1161, 1309, 838, 4, 1, 1}},
    {3100, {4918, 1177, 265, 1201, 1360, 887, 4, 1, 1}},
    {3200, {5097, 1229, 273, 1239, 1417, 948, 4, 1, 1}},
    {3300, {5302, 1272, 283, 1280, 1475, 1019, 4, 1, 1}},
    {3400, {5479, 1312, 290, 1310, 1514, 1082, 4, 1, 1}},
    {3500, {5672, 1362, 297, 1342, 1585, 1159, 4, 1, 1}},
    {3600, {5880, 1407, 309, 1375, 1649, 1212, 4, 2, 1}},
    {3700, {6067, 1464, 318, 1403, 1690, 1275, 4, 2, 1}},
    {3800, {6266, 1520, 328, 1439, 1786, 1334, 5, 2, 1}},
    {3900, {6460, 1572, 340, 1476, 1864, 1412, 5, 2, 1}},
    {4000, {6684, 1622, 350, 1508, 1933, 1488, 5, 2, 1}},
    {4100, {6902, 1677, 360, 1556, 1990, 1561, 5, 2, 1}},
    {4200, {7152, 1742, 371, 1595, 2050, 1657, 5, 2, 1}},
    {4300, {7382, 1806, 382, 1634, 2144, 1730, 5, 2, 1}},
    {4400, {7604, 1874, 396, 1683, 2244, 1826, 5, 2, 2}},
    {4500, {7855, 1937, 409, 1731, 2335, 1926, 6, 2, 2}},
    {4600, {8130, 2009, 424, 1778, 2411, 1998, 6, 2, 2}},
    {4700, {8384, 2087, 440, 1834, 2501, 2070, 6, 2, 2}},
    {4800, {8662, 2163, 457, 1884, 2577, 2132, 6, 3, 2}},
    {4900, {8923, 2244, 469, 1936, 2677, 2204, 6, 3, 2}},
    {5000, {9196, 2332, 486, 1988, 2762, 2287, 6, 3, 2}},
    {5100, {9490, 2419, 499, 2051, 2817, 2371, 7, 3, 2}},
    {5200, {9816, 2510, 521, 2104, 2874, 2435, 7, 3, 2}},
    {5300, {10117, 2595, 537, 2170, 2975, 2512, 7, 4, 2}},
    {5400, {10444, 2698, 557, 2228, 3069, 2585, 7, 4, 2}},
    {5500, {10804, 2801, 578, 2298, 3182, 2680, 7, 4, 2}},
    {5600, {11133, 2899, 599, 2364, 3344, 2788, 7, 5, 2}},
    {5700, {11478, 3010, 623, 2438, 3483, 2907, 8, 5, 2}},
    {5800, {11888, 3138, 649, 2504, 3625, 3030, 8, 5, 2}},
    {5900, {12302, 3264, 674, 2575, 3735, 3153, 8, 6, 2}},
    {6000, {12685, 3390, 706, 2672, 3836, 3261, 8, 6, 2}},
    {6100, {13081, 3550, 740, 2745, 3972, 3424, 9, 6, 2}},
    {6200, {13513, 3694, 769, 2825, 4088, 3619, 9, 7, 2}},
    {6300, {13991, 3852, 804, 2909, 4280, 3807, 9, 7, 2}},
    {6400, {14435, 3996, 835, 3004, 4343, 3975, 9, 8, 3}},
    {6500, {14967, 4173, 873, 3092, 4541, 4179, 10, 8, 3}},
    {6600, {15478, 4347, 904, 3197, 4967, 4372, 10, 9, 3}},
    {6700, {16065, 4527, 935, 3311, 5152, 4556, 10, 9, 3}},
    {6800, {16686, 4743, 968, 3423, 5349, 4755, 11, 10, 3}},
    {6900, {17345, 4932, 1006, 3549, 5677, 4958, 11, 10, 3}},
    {7000, {17946, 5167, 1058, 3692, 5955, 5196, 11, 11, 3}},
    {7100, {18607, 5392, 1121, 3839, 6199, 5392, 12, 12, 3}},
    {7200, {19309, 5638, 1181, 3984, 6490, 5663, 12, 14, 3}},
    {7300, {19997, 5891, 1264, 4179, 6818, 5906, 13, 14, 4}},
    {7400, {20835, 6155, 1318, 4355, 7065, 6223, 13, 16, 4}},
    {7500, {21703, 6493, 1370, 4522, 7233, 6472, 14, 17, 4}},
    {7600, {22565, 6770, 1429, 4764, 7623, 6785, 14, 18, 4}},
    {7700, {23539, 7095, 1496, 5007, 7975, 7100, 15, 19, 4}},
    {7800, {24494, 7479, 1576, 5215, 8441, 7503, 15, 20, 4}},
    {7900, {25562, 7879, 1667, 5448, 9006, 7913, 16, 22, 4}},
    {8000, {26644, 8337, 1755, 5749, 9303, 8330, 17, 23, 5}},
    {8100, {27884, 8824, 1846, 6050, 9627, 8839, 18, 25, 5}},
    {8200, {29136, 9329, 2011, 6321, 9985, 9377, 18, 26, 5}},
    {8300, {30567, 9869, 2129, 6661, 10281, 9974, 19, 29, 5}},
    {8400, {31996, 10442, 2270, 6999, 10706, 10604, 20, 31, 6}},
    {8500, {33772, 11235, 2469, 7361, 11094, 11197, 21, 33, 6}},
    {8600, {35532, 12152, 2658, 7785, 11557, 12032, 23, 36, 7}},
    {8700, {37589, 13141, 2936, 8272, 12204, 13014, 24, 39, 7}},
    {8800, {39738, 14259, 3234, 8850, 12946, 14197, 25, 41, 8}},
    {8900, {42197, 15504, 3537, 9548, 13591, 15061, 27, 44, 8}},
    {9000, {44962, 16928, 3966, 10419, 14342, 16077, 29, 49, 9}},
    {9100, {48275, 18581, 4565, 11377, 15374, 17196, 31, 56, 10}},
    {9200, {51946, 20867, 5047, 12435, 16356, 18774, 34, 61, 12}},
    {9300, {56545, 23555, 5693, 13456, 17739, 20620, 37, 72, 14}},
    {9400, {62036, 27421, 6459, 15217, 19334, 23410, 41, 78, 17}},
    {9500, {68472, 32569, 7505, 17085, 21802, 26208, 46, 89, 20}},
    {9600, {76883, 38600, 8900, 19737, 24634, 31177, 51, 112, 24}},
    {9700, {88875, 48056, 11088, 23626, 28240, 40157, 62, 129, 27}},
    {9800, {106881, 65207, 15559, 28653, 33980, 53045, 80, 158, 33}},
    {9900, {149784, 122322, 26397, 43086, 51758, 79339, 126, 203, 45}},
    {9910, {156679, 131444, 27767, 44798, 53280, 83942, 136, 206, 55}},
    {9920, {163778, 148190, 31437, 48216, 54541, 90592, 144, 213, 67}},
    {9930, {173413, 174840, 37216, 52849, 68599, 95048, 152, 240, 69}},
    {9940, {185702, 219816, 38333, 56687, 84807, 102397, 166, 283, 75}},
    {9950, {196969, 299694, 42237, 63081, 90420, 107518, 189, 305, 81}},
    {9960, {215629, 355665, 46563, 80495, 97364, 114504, 199, 314, 84}},
    {9970, {239803, 543304, 51958, 89151, 106589, 137200, 229, 325, 91}},
    {9980, {279589, 815812, 66171, 106783, 186370, 149267, 267, 333, 94}},
    {9990, {358084, 1226021, 73948, 137346, 408338, 238526, 455, 528, 101}},
    {9995, {472947, 1416472, 85832, 189359, 564056, 578416, 513, 941, 118}},
    {9999, {1069104, 1574211, 98570, 323717, 722073, 876146, 1758, 1309, 133}},
    {10000, {1747157, 1632633, 102111, 688553, 761577, 1215659, 2541, 1401, 137}},
};
// Per mille of the directories at each depth (1..) that have subdirectories.
constexpr uint32_t kInnerPermilleByDepth[] = {
    833, 352, 204, 208, 138, 139, 206, 244, 0, 0,
};

/// A top-level subtree of linux-source-6.1: its files, per-kind file counts (c, h, build, doc,
/// asm, other) and its directories at depth 2, 3, ... 10.
struct MeasuredTop {
  const char* name;
  uint32_t files;
  uint32_t kinds[6];
  uint32_t dirs_by_depth[9];
};
constexpr MeasuredTop kMeasuredTops[] = {
    {"Documentation", 8869, {2, 2, 8, 8857, 0, 0}, {85, 144, 223, 169, 6, 2, 0, 0, 0}},
    {"arch", 16790, {4523, 5041, 846, 12, 1247, 5121}, {22, 341, 273, 208, 31, 0, 0, 0, 0}},
    {"drivers",
     31595,
     {18920, 9601, 2755, 74, 11, 234},
     {137, 589, 512, 261, 120, 194, 153, 55, 0}},
    {"fs", 2078, {1329, 568, 165, 6, 0, 10}, {78, 16, 1, 0, 0, 0, 0, 0, 0}},
    {"include", 5912, {0, 5909, 3, 0, 0, 0}, {29, 156, 108, 4, 0, 0, 0, 0, 0}},
    {"init", 15, {10, 1, 2, 0, 0, 2}, {0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"ipc", 13, {11, 1, 1, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"kernel", 562, {410, 92, 41, 1, 0, 18}, {20, 3, 2, 2, 0, 0, 0, 0, 0}},
    {"lib", 538, {420, 70, 36, 0, 1, 11}, {20, 4, 0, 0, 0, 0, 0, 0, 0}},
    {"mm", 176, {148, 19, 8, 0, 0, 1}, {4, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"net", 1887, {1459, 256, 165, 0, 1, 6}, {70, 21, 1, 0, 0, 0, 0, 0, 0}},
    {"scripts", 448, {65, 30, 56, 4, 1, 292}, {15, 16, 12, 4, 0, 0, 0, 0, 0}},
};

/// A draw from a measured distribution (a column of kQuantiles): linear interpolation between
/// the knots, in integers.
uint64_t SampleQuantiles(QuantileColumn column, Rng& rng) {
  constexpr size_t kN = std::size(kQuantiles);
  const uint64_t r = rng.Below(1'000'000);  // probability in millionths
  size_t i = 0;
  while (i + 2 < kN && uint64_t{kQuantiles[i + 1].knot} * 100 <= r) ++i;
  const uint64_t lo = uint64_t{kQuantiles[i].knot} * 100,
                 hi = uint64_t{kQuantiles[i + 1].knot} * 100;
  const uint64_t a = kQuantiles[i].values[column], b = kQuantiles[i + 1].values[column];
  return a + (b - a) * (r - lo) / (hi - lo);
}

__extension__ typedef unsigned __int128 Uint128;

/// Splits `total` into parts proportional to `weights` (largest remainder; ties to the lower
/// index). All-zero weights split evenly.
std::vector<uint64_t> Apportion(uint64_t total, const std::vector<uint64_t>& weights) {
  std::vector<uint64_t> out(weights.size(), 0);
  if (weights.empty()) return out;
  std::vector<uint64_t> w = weights;
  uint64_t sum = std::accumulate(w.begin(), w.end(), uint64_t{0});
  if (sum == 0) {
    std::fill(w.begin(), w.end(), 1);
    sum = w.size();
  }
  std::vector<std::pair<uint64_t, size_t>> rem;  // (remainder, index)
  uint64_t given = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    const Uint128 p = Uint128{total} * w[i];
    out[i] = static_cast<uint64_t>(p / sum);
    rem.emplace_back(static_cast<uint64_t>(p % sum), i);
    given += out[i];
  }
  std::sort(rem.begin(), rem.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  for (size_t k = 0; given < total; ++k, ++given) ++out[rem[k % rem.size()].second];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Names.
// ---------------------------------------------------------------------------------------------

struct TopLevelFixed {
  const char* name;
  std::vector<const char*> first_subdirs;  // names of its first depth-2 directories
};

/// A directory or file stem: "sched", "ext2_super", "aha1542", "pci-dma".
std::string Stem(Rng& rng) {
  std::string s = Word(rng);
  switch (rng.Below(10)) {
    case 0:
    case 1:
    case 2:
      s += '_';
      s += Word(rng);
      break;
    case 3:
      s += '-';
      s += Word(rng);
      break;
    case 4:
    case 5:
      s += std::to_string(rng.Below(rng.Chance(500) ? 10 : 1000));
      break;
    default:
      break;
  }
  return s;
}

constexpr const char* kOtherSuffixes[] = {"",     ".sh", ".pl",  ".py",  ".lds", ".y",   ".l",
                                          ".awk", ".in", ".cfg", ".dts", ".map", ".tbl", ".uc"};

/// A file name of the given kind not used in the directory yet; KindOfPath() gives the kind back.
/// Build files take Makefile, Kconfig, Kbuild first, as in a kernel directory.
std::string FileName(Kind kind, bool in_documentation, Rng& rng,
                     std::unordered_set<std::string>* taken) {
  static constexpr const char* kBuildNames[] = {"Makefile", "Kconfig", "Kbuild"};
  for (int attempt = 0;; ++attempt) {
    std::string name;
    if (kind == kBuild && attempt < 3) {
      name = kBuildNames[attempt];
    } else {
      std::string stem = Stem(rng);
      if (attempt >= 8) stem += "_" + std::to_string(attempt);
      switch (kind) {
        case kC:
          name = stem + ".c";
          break;
        case kH:
          name = stem + ".h";
          break;
        case kBuild:
          name = (rng.Chance(500) ? "Makefile." : "Kconfig.") + stem;
          break;
        case kDoc:
          name = in_documentation || rng.Chance(500) ? stem + ".txt" : "README." + stem;
          break;
        case kAsm:
          name = stem + ".S";
          break;
        default:
          name = stem + kOtherSuffixes[rng.Below(std::size(kOtherSuffixes))];
          break;
      }
    }
    if (taken->insert(name).second) return name;
  }
}

std::string DirName(Rng& rng, std::unordered_set<std::string>* taken) {
  for (int attempt = 0;; ++attempt) {
    std::string name = Stem(rng);
    if (attempt >= 8) name += "_" + std::to_string(attempt);
    if (taken->insert(name).second) return name;
  }
}

/// linux-2.4.19's top-level directories with their first depth-2 names, most files first.
const std::vector<TopLevelFixed>& TopLevels() {
  static const std::vector<TopLevelFixed> kTops = {
      {"drivers", {"block", "char", "net", "scsi", "usb", "ide", "video", "sound", "pci"}},
      {"arch",
       {"i386", "alpha", "arm", "ia64", "m68k", "mips", "ppc", "sparc", "sparc64", "s390", "sh",
        "parisc", "cris", "mips64", "ppc64", "s390x"}},
      {"Documentation", {"filesystems", "networking", "block", "sound", "usb", "video4linux"}},
      {"include", {"linux", "asm-i386", "net", "scsi", "asm-generic", "video", "pcmcia"}},
      {"fs", {"ext2", "ext3", "nfs", "proc", "fat", "isofs", "jbd", "reiserfs", "devpts"}},
      {"net", {"ipv4", "ipv6", "core", "unix", "sched", "bridge", "packet"}},
      {"kernel", {}},
      {"lib", {}},
      {"scripts", {"lxdialog"}},
      {"mm", {}},
      {"init", {}},
      {"ipc", {}},
  };
  return kTops;
}

const MeasuredTop& MeasuredFor(const char* name) {
  for (const MeasuredTop& m : kMeasuredTops) {
    if (std::strcmp(m.name, name) == 0) return m;
  }
  return kMeasuredTops[0];
}

/// The top directory's files in linux-2.4.19, with their kinds.
constexpr std::pair<const char*, Kind> kRootFiles[] = {
    {"COPYING", kDoc}, {"CREDITS", kDoc},        {"MAINTAINERS", kDoc},  {"Makefile", kBuild},
    {"README", kDoc},  {"REPORTING-BUGS", kDoc}, {"Rules.make", kBuild},
};

struct PlanDir {
  std::string path;
  uint32_t subdirs = 0;
  std::unordered_set<std::string> names;
};

/// Spreads `n` children over the directories `parents` (all at depth `parent_depth`): as many of
/// them get children as 6.1's share of non-leaf directories at that depth says, each drawing its
/// fan-out from 6.1's subdirectories-per-non-leaf-directory table, scaled to add up to n.
std::vector<uint64_t> SpreadChildren(size_t parents, uint64_t n, int parent_depth, Rng& rng) {
  std::vector<uint64_t> counts(parents, 0);
  if (parents == 0 || n == 0) return counts;
  const size_t di = std::min<size_t>(parent_depth - 1, std::size(kInnerPermilleByDepth) - 1);
  uint64_t k = (uint64_t{parents} * kInnerPermilleByDepth[di] + 500) / 1000;
  k = std::clamp<uint64_t>(k, 1, std::min<uint64_t>(parents, n));
  std::vector<size_t> order(parents);
  std::iota(order.begin(), order.end(), size_t{0});
  for (size_t i = 0; i < k; ++i) std::swap(order[i], order[i + rng.Below(parents - i)]);
  std::vector<uint64_t> extra_weight(k);
  for (size_t i = 0; i < k; ++i) extra_weight[i] = SampleQuantiles(kSubdirsPerInnerDir, rng) - 1;
  const std::vector<uint64_t> extra = Apportion(n - k, extra_weight);
  for (size_t i = 0; i < k; ++i) counts[order[i]] = 1 + extra[i];
  return counts;
}

/// How many files and directories the tree gets, and how many top-level subtrees hold them.
struct TreeShape {
  uint64_t root_files = 0;
  uint64_t sub_files = 0;
  uint64_t dirs = 0;
  size_t tops = 0;
};

TreeShape PlanTreeShape(const TreeSpec& spec) {
  TreeShape shape;
  uint64_t files = spec.file_count;
  if (files == 0) {
    files = (spec.total_bytes + kSourceTreeBytesPerFile / 2) / kSourceTreeBytesPerFile;
    if (files == 0 && spec.total_bytes > 0) files = 1;
  }
  shape.root_files = std::min<uint64_t>(std::size(kRootFiles), files);
  shape.sub_files = files - shape.root_files;
  // Directories below the top one: 6.1's files per directory, at least one to hold sub_files.
  uint64_t dirs =
      static_cast<uint64_t>(static_cast<double>(files) / kSourceTreeFilesPerDirectory + 0.5);
  dirs = dirs > 0 ? dirs - 1 : 0;
  if (shape.sub_files > 0 && dirs == 0) dirs = 1;
  shape.dirs = dirs;
  shape.tops = std::min<size_t>(dirs, TopLevels().size());
  return shape;
}

constexpr size_t kTreeDepths = std::size(kMeasuredTops[0].dirs_by_depth);

/// Directories per (top-level subtree, depth 2..), apportioned from 6.1's counts: cell
/// t * kTreeDepths + d is subtree t's count at depth d + 2.
std::vector<uint64_t> ApportionTreeDirCells(const TreeShape& shape) {
  std::vector<uint64_t> cell_weights;
  for (size_t t = 0; t < shape.tops; ++t) {
    const MeasuredTop& m = MeasuredFor(TopLevels()[t].name);
    cell_weights.insert(cell_weights.end(), std::begin(m.dirs_by_depth), std::end(m.dirs_by_depth));
  }
  std::vector<uint64_t> cells = Apportion(shape.dirs - shape.tops, cell_weights);
  for (size_t t = 0; t < shape.tops; ++t) {  // a level needs the one above it: move counts up
    uint64_t* c = &cells[t * kTreeDepths];
    for (size_t d = kTreeDepths - 1; d >= 1; --d) {
      if (c[d] > 0 && c[d - 1] == 0) {
        c[d - 1] = c[d];
        c[d] = 0;
      }
    }
  }
  return cells;
}

/// Files per subtree, apportioned from 6.1's counts.
std::vector<uint64_t> ApportionTreeTopFiles(const TreeShape& shape) {
  std::vector<uint64_t> top_file_weights;
  for (size_t t = 0; t < shape.tops; ++t) {
    top_file_weights.push_back(MeasuredFor(TopLevels()[t].name).files);
  }
  return Apportion(shape.sub_files, top_file_weights);
}

/// The directories of subtree `fixed`, breadth first, with `cells` (its counts per depth).
std::vector<PlanDir> GrowTreeSubtree(const TopLevelFixed& fixed, const uint64_t* cells, Rng& rng) {
  std::vector<PlanDir> tree;
  tree.push_back({fixed.name, 0, {}});
  size_t level_begin = 0, level_end = 1;
  for (size_t d = 0; d < kTreeDepths && cells[d] > 0; ++d) {
    const std::vector<uint64_t> counts =
        SpreadChildren(level_end - level_begin, cells[d], static_cast<int>(d) + 1, rng);
    for (size_t p = level_begin; p < level_end; ++p) {
      for (uint64_t c = 0; c < counts[p - level_begin]; ++c) {
        std::string name;
        if (d == 0 && c < fixed.first_subdirs.size()) {
          name = fixed.first_subdirs[c];
          tree[p].names.insert(name);
        } else {
          name = DirName(rng, &tree[p].names);
        }
        tree[p].subdirs++;
        tree.push_back({tree[p].path + "/" + name, 0, {}});
      }
    }
    level_begin = level_end;
    level_end = tree.size();
  }
  return tree;
}

/// Files per directory: 6.1's tables for leaf and non-leaf directories, scaled to the
/// subtree's share (`files`); a leaf directory keeps at least one file when there are enough.
std::vector<uint64_t> SpreadTreeFiles(const std::vector<PlanDir>& tree, uint64_t files, Rng& rng) {
  std::vector<uint64_t> raw(tree.size());
  size_t leaves = 0;
  for (size_t i = 0; i < tree.size(); ++i) {
    if (tree[i].subdirs == 0) {
      raw[i] = std::max<uint64_t>(1, SampleQuantiles(kFilesPerLeafDir, rng));
      ++leaves;
    } else {
      raw[i] = SampleQuantiles(kFilesPerInnerDir, rng);
    }
  }
  std::vector<uint64_t> per_dir = Apportion(files, raw);
  if (files >= leaves) {
    auto spare = [&](size_t i) { return per_dir[i] - (tree[i].subdirs == 0 && per_dir[i] > 0); };
    for (size_t i = 0; i < tree.size(); ++i) {
      if (tree[i].subdirs != 0 || per_dir[i] > 0) continue;
      size_t donor = 0;  // the directory with the most files it can give away
      for (size_t j = 1; j < tree.size(); ++j) {
        if (spare(j) > spare(donor)) donor = j;
      }
      --per_dir[donor];
      ++per_dir[i];
    }
  }
  return per_dir;
}

/// The plan's entries as they are drawn, with each file's unscaled size beside it.
struct TreePlanDraft {
  TreePlan* plan;
  Rng& rng;
  std::vector<uint64_t> raw_sizes;

  void AddFile(std::string path, Kind kind) {
    raw_sizes.push_back(SampleQuantiles(static_cast<QuantileColumn>(kind), rng));
    plan->entries.push_back({TreeEntryType::kFile, std::move(path), 0, "", 0644});
  }
};

/// Adds subtree `tree`'s directories and, in each, its `per_dir` files of kinds drawn from
/// `measured`'s mix.
void AddTreeSubtreeEntries(const TopLevelFixed& fixed, const MeasuredTop& measured,
                           std::vector<PlanDir>* tree, const std::vector<uint64_t>& per_dir,
                           TreePlanDraft* draft) {
  std::vector<uint64_t> kind_weights(std::begin(measured.kinds), std::end(measured.kinds));
  const uint64_t kind_total =
      std::accumulate(kind_weights.begin(), kind_weights.end(), uint64_t{0});
  const bool documentation = std::strcmp(fixed.name, "Documentation") == 0;
  for (size_t i = 0; i < tree->size(); ++i) {
    PlanDir& dir = (*tree)[i];
    draft->plan->entries.push_back({TreeEntryType::kDirectory, dir.path, 0, "", 0755});
    for (uint64_t f = 0; f < per_dir[i]; ++f) {
      uint64_t pick = draft->rng.Below(kind_total);
      int k = 0;
      while (pick >= kind_weights[k]) pick -= kind_weights[k++];
      const Kind kind = static_cast<Kind>(k);
      draft->AddFile(dir.path + "/" + FileName(kind, documentation, draft->rng, &dir.names), kind);
    }
  }
}

/// Sizes: the drawn sizes scaled to add up to total_bytes exactly, then the totals and the
/// entries in path order. The model's mean is within 1.4 % of kSourceTreeBytesPerFile; the
/// factor varies with the seed (0.94-1.02 for seeds 1-8).
void FinishTreePlan(uint64_t total_bytes, const std::vector<uint64_t>& raw_sizes, TreePlan* plan) {
  const std::vector<uint64_t> sizes = Apportion(total_bytes, raw_sizes);
  size_t fi = 0;
  for (TreeEntry& e : plan->entries) {
    if (e.type != TreeEntryType::kFile) continue;
    e.bytes = sizes[fi++];
    plan->total_bytes += e.bytes;
    plan->file_count++;
  }
  plan->directory_count = plan->entries.size() - plan->file_count;
  std::sort(plan->entries.begin(), plan->entries.end(),
            [](const TreeEntry& a, const TreeEntry& b) { return a.path < b.path; });
}

}  // namespace

TreePlan PlanSourceTree(const TreeSpec& spec) {
  TreePlan plan;
  plan.seed = spec.seed;
  Rng rng(Mix64(spec.seed ^ 0x5eed0f7eeULL));

  const TreeShape shape = PlanTreeShape(spec);
  const std::vector<uint64_t> cells = ApportionTreeDirCells(shape);
  const std::vector<uint64_t> top_files = ApportionTreeTopFiles(shape);

  TreePlanDraft draft{&plan, rng, {}};
  for (uint64_t i = 0; i < shape.root_files; ++i) {
    draft.AddFile(kRootFiles[i].first, kRootFiles[i].second);
  }
  for (size_t t = 0; t < shape.tops; ++t) {
    const TopLevelFixed& fixed = TopLevels()[t];
    std::vector<PlanDir> tree = GrowTreeSubtree(fixed, &cells[t * kTreeDepths], rng);
    const std::vector<uint64_t> per_dir = SpreadTreeFiles(tree, top_files[t], rng);
    AddTreeSubtreeEntries(fixed, MeasuredFor(fixed.name), &tree, per_dir, &draft);
  }
  FinishTreePlan(spec.total_bytes, draft.raw_sizes, &plan);
  return plan;
}

}  // namespace elevbench
