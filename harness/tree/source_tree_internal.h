#pragma once
// Internals shared by the source_tree units (measured model, plan, text, io); not part of the API.
// See source_tree.h for the contracts and docs/source-tree.md for the model.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace elevbench::source_tree_internal {

// ---------------------------------------------------------------------------------------------
// Deterministic randomness: splitmix64 (Steele, Lea, Flood 2014), the generator Java's
// SplittableRandom uses. One 64-bit state, every output a bijective mix of a Weyl sequence.
// ---------------------------------------------------------------------------------------------

inline uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() { return Mix64(state_ += 0x9e3779b97f4a7c15ULL); }
  /// Uniform in [0, n) (modulo bias below 2^-40 for the n used here); 0 when n == 0.
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }
  /// True with probability per_mille / 1000.
  bool Chance(uint32_t per_mille) { return Below(1000) < per_mille; }

 private:
  uint64_t state_;
};

/// FNV-1a of a string, then mixed: a stable 64-bit hash of names.
inline uint64_t HashString(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return Mix64(h);
}

/// File kinds, in the order of scripts/measure-kernel-tree's tables.
enum Kind { kC = 0, kH = 1, kBuild = 2, kDoc = 3, kAsm = 4, kOther = 5, kKindCount = 6 };

/// The kind of a file from its path, as scripts/measure-kernel-tree classifies it.
Kind KindOfPath(std::string_view path);

/// A kernel-flavoured word ("sched", "ext2", "irq") for names and identifiers; one draw of rng.
const std::string& Word(Rng& rng);

// ---------------------------------------------------------------------------------------------
// The measured model (source_tree.cc): draws from linux-source-6.1's distributions.
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

/// A draw from a measured distribution (a column of kQuantiles): linear interpolation between
/// the knots, in integers.
uint64_t SampleQuantiles(QuantileColumn column, Rng& rng);

/// Per mille of the directories at `depth` (1..) that have subdirectories; the deepest measured
/// depth's share for deeper ones.
uint32_t InnerPermilleByDepth(int depth);

/// The depths of a top-level subtree's directories that are measured: 2, 3, ... 10.
constexpr size_t kTreeDepths = 9;

/// A top-level subtree of linux-source-6.1: its files, per-kind file counts (c, h, build, doc,
/// asm, other) and its directories at depth 2, 3, ... 10.
struct MeasuredTop {
  const char* name;
  uint32_t files;
  uint32_t kinds[6];
  uint32_t dirs_by_depth[kTreeDepths];
};

/// The measured subtree called `name`; the first one (Documentation) for an unknown name.
const MeasuredTop& MeasuredFor(const char* name);

}  // namespace elevbench::source_tree_internal
