// The plan of a kernel-like tree (PlanSourceTree in source_tree.h): the names of files and
// directories, the directories of each top-level subtree, the files per directory and their
// sizes, drawn from the measured model in source_tree.cc. docs/source-tree.md explains the model.

#include <algorithm>
#include <cstring>
#include <iterator>
#include <numeric>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "harness/tree/source_tree.h"
#include "harness/tree/source_tree_internal.h"

namespace elevbench {
namespace {

using source_tree_internal::InnerPermilleByDepth;
using source_tree_internal::kAsm;
using source_tree_internal::kBuild;
using source_tree_internal::kC;
using source_tree_internal::kDoc;
using source_tree_internal::kFilesPerInnerDir;
using source_tree_internal::kFilesPerLeafDir;
using source_tree_internal::kH;
using source_tree_internal::Kind;
using source_tree_internal::kSubdirsPerInnerDir;
using source_tree_internal::kTreeDepths;
using source_tree_internal::MeasuredFor;
using source_tree_internal::MeasuredTop;
using source_tree_internal::Mix64;
using source_tree_internal::QuantileColumn;
using source_tree_internal::Rng;
using source_tree_internal::SampleQuantiles;
using source_tree_internal::Word;

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
  uint64_t k = (uint64_t{parents} * InnerPermilleByDepth(parent_depth) + 500) / 1000;
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
