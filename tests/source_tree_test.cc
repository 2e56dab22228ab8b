#include "harness/tree/source_tree.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>
#include <string>

#include "test_util.h"

namespace elevbench {
namespace {

using testing::ScopedTempDir;

std::string ReadWholeStream(SourceTextGenerator::Stream s, size_t chunk = 4096) {
  std::string out;
  std::string buf(chunk, '\0');
  while (size_t n = s.Read(buf.data(), buf.size())) out.append(buf.data(), n);
  return out;
}

void WriteFile(const std::string& path, const std::string& content, mode_t mode = 0644) {
  std::ofstream(path, std::ios::binary) << content;
  ASSERT_EQ(chmod(path.c_str(), mode), 0) << path;
}

bool SamePlan(const TreePlan& a, const TreePlan& b) {
  if (a.entries.size() != b.entries.size() || a.total_bytes != b.total_bytes) return false;
  for (size_t i = 0; i < a.entries.size(); ++i) {
    if (a.entries[i].path != b.entries[i].path || a.entries[i].bytes != b.entries[i].bytes ||
        a.entries[i].type != b.entries[i].type) {
      return false;
    }
  }
  return true;
}

TEST(SourceTreePlan, SameSpecGivesSamePlan) {
  const TreePlan a = PlanSourceTree(TreeSpec{});
  const TreePlan b = PlanSourceTree(TreeSpec{});
  EXPECT_TRUE(SamePlan(a, b));
  EXPECT_EQ(a.seed, 1u);
}

TEST(SourceTreePlan, DifferentSeedGivesDifferentPlan) {
  TreeSpec other;
  other.seed = 2;
  const TreePlan a = PlanSourceTree(TreeSpec{});
  const TreePlan b = PlanSourceTree(other);
  EXPECT_FALSE(SamePlan(a, b));
  EXPECT_EQ(a.total_bytes, b.total_bytes);
}

TEST(SourceTreePlan, DefaultPlanHasTheDocumentedSize) {
  const TreePlan plan = PlanSourceTree(TreeSpec{});
  // docs/source-tree.md: 142,000,000 bytes in 11,100 files and 719 directories (720 with the
  // top one, at linux-source-6.1's 15.42 files per directory).
  EXPECT_EQ(plan.total_bytes, 142'000'000u);
  EXPECT_EQ(plan.file_count, 11'100u);
  EXPECT_EQ(plan.directory_count, 719u);
  EXPECT_EQ(plan.symlink_count, 0u);
  uint64_t sum = 0, files = 0, dirs = 0, largest = 0;
  std::set<std::string> tops;
  for (const TreeEntry& e : plan.entries) {
    if (e.type == TreeEntryType::kFile) {
      sum += e.bytes;
      ++files;
      largest = std::max(largest, e.bytes);
    } else {
      ++dirs;
    }
    if (e.type == TreeEntryType::kDirectory && e.path.find('/') == std::string::npos) {
      tops.insert(e.path);
    }
  }
  EXPECT_EQ(sum, plan.total_bytes);
  EXPECT_EQ(files, plan.file_count);
  EXPECT_EQ(dirs, plan.directory_count);
  EXPECT_LT(largest, 2'000'000u);  // 6.1's sizes without the files above 1,766,692 bytes
  EXPECT_EQ(tops, (std::set<std::string>{"Documentation", "arch", "drivers", "fs", "include",
                                         "init", "ipc", "kernel", "lib", "mm", "net", "scripts"}));
}

TEST(SourceTreePlan, TotalWithinOnePercentForOtherSizes) {
  for (uint64_t total :
       {uint64_t{1}, uint64_t{50'000}, uint64_t{2'000'000}, uint64_t{700'000'000}}) {
    TreeSpec spec;
    spec.total_bytes = total;
    const TreePlan plan = PlanSourceTree(spec);
    EXPECT_EQ(plan.total_bytes, total) << total;
    EXPECT_GE(plan.file_count, 1u) << total;
    EXPECT_NEAR(static_cast<double>(plan.file_count),
                static_cast<double>(total) / kSourceTreeBytesPerFile, 1.0)
        << total;
  }
  TreeSpec counted;
  counted.total_bytes = 1'000'000;
  counted.file_count = 500;
  const TreePlan plan = PlanSourceTree(counted);
  EXPECT_EQ(plan.file_count, 500u);
  EXPECT_EQ(plan.total_bytes, 1'000'000u);
}

TEST(SourceTreePlan, OrderIsExtractionOrder) {
  const TreePlan plan = PlanSourceTree(TreeSpec{});
  std::set<std::string> dirs_seen;
  for (size_t i = 0; i < plan.entries.size(); ++i) {
    const TreeEntry& e = plan.entries[i];
    ASSERT_FALSE(e.path.empty());
    ASSERT_NE(e.path[0], '/');
    if (i > 0) {
      ASSERT_LT(plan.entries[i - 1].path, e.path) << "byte order, no duplicates";
    }
    const size_t slash = e.path.rfind('/');
    if (slash != std::string::npos) {
      ASSERT_TRUE(dirs_seen.count(e.path.substr(0, slash)))
          << e.path << " comes before its directory";
    }
    if (e.type == TreeEntryType::kDirectory) dirs_seen.insert(e.path);
  }
}

TEST(SourceTreeText, IsPrintableTextAndNotConstant) {
  const SourceTextGenerator gen(7);
  for (const char* path :
       {"drivers/block/ll_rw_blk.c", "include/linux/fs.h", "arch/i386/entry.S", "fs/ext2/Makefile",
        "Documentation/block/elevator.txt", "scripts/mkdep.pl", "README"}) {
    const std::string text = ReadWholeStream(gen.Open(path, 200'000), 1000);
    ASSERT_EQ(text.size(), 200'000u) << path;
    std::set<char> distinct;
    for (char c : text) {
      ASSERT_TRUE((c >= 0x20 && c <= 0x7e) || c == '\n' || c == '\t')
          << path << ": byte " << static_cast<int>(static_cast<unsigned char>(c));
      distinct.insert(c);
    }
    EXPECT_GT(distinct.size(), 25u) << path;
    EXPECT_EQ(text.back(), '\n') << path;
    EXPECT_NE(text.find(path), std::string::npos) << "the header names the file";
    // Not one line repeated: many distinct lines.
    std::set<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
      const size_t end = text.find('\n', start);
      lines.insert(text.substr(start, end - start));
      start = end + 1;
    }
    EXPECT_GT(lines.size(), 500u) << path;
  }
  EXPECT_NE(ReadWholeStream(gen.Open("a.c", 50'000)).find('{'), std::string::npos);
}

TEST(SourceTreeText, DeterministicAndIndependentOfReadSize) {
  const SourceTextGenerator a(3), b(3), c(4);
  const std::string one = ReadWholeStream(a.Open("kernel/sched.c", 123'457), 65'536);
  EXPECT_EQ(one, ReadWholeStream(b.Open("kernel/sched.c", 123'457), 17));
  EXPECT_NE(one, ReadWholeStream(c.Open("kernel/sched.c", 123'457)));
  EXPECT_NE(one, ReadWholeStream(a.Open("kernel/fork.c", 123'457)));
  EXPECT_EQ(ReadWholeStream(a.Open("x.c", 0)), "");
  EXPECT_EQ(ReadWholeStream(a.Open("x.c", 1)), "\n");
}

TEST(SourceTreeWrite, SameSeedSameBytesDifferentSeedDifferentBytes) {
  ScopedTempDir tmp;
  TreeSpec spec;
  spec.total_bytes = 3'000'000;
  const TreePlan plan = PlanSourceTree(spec);
  std::string err, d1, d2, d3;
  ASSERT_TRUE(WriteSourceTree(plan, tmp.path() + "/one", &err)) << err;
  TreeWriteOptions no_sync;  // the first write covers syncfs(); it can take long on a busy disk
  no_sync.sync = false;
  ASSERT_TRUE(WriteSourceTree(PlanSourceTree(spec), tmp.path() + "/two", &err, no_sync)) << err;
  spec.seed = 9;
  ASSERT_TRUE(WriteSourceTree(PlanSourceTree(spec), tmp.path() + "/three", &err, no_sync)) << err;
  ASSERT_TRUE(DigestTree(tmp.path() + "/one", &d1, &err)) << err;
  ASSERT_TRUE(DigestTree(tmp.path() + "/two", &d2, &err)) << err;
  ASSERT_TRUE(DigestTree(tmp.path() + "/three", &d3, &err)) << err;
  EXPECT_EQ(d1.size(), 64u);
  EXPECT_EQ(d1, d2);
  EXPECT_NE(d1, d3);

  // Same seed, same paths, different content seed: the bytes differ.
  TreePlan reseeded = plan;
  reseeded.seed = 77;
  std::string d4;
  ASSERT_TRUE(WriteSourceTree(reseeded, tmp.path() + "/four", &err, no_sync)) << err;
  ASSERT_TRUE(DigestTree(tmp.path() + "/four", &d4, &err)) << err;
  EXPECT_NE(d1, d4);
}

TEST(SourceTreeWrite, SmallSpecWritesQuicklyWithPlannedSizes) {
  ScopedTempDir tmp;
  TreeSpec spec;
  spec.total_bytes = 2'000'000;
  spec.seed = 5;
  const TreePlan plan = PlanSourceTree(spec);
  const std::string root = tmp.path() + "/linux";
  std::string err;
  uint64_t last_done = 0, calls = 0;
  const auto start = std::chrono::steady_clock::now();
  TreeWriteOptions options;
  options.sync = false;  // syncfs() time depends on everything else dirty on the filesystem
  options.progress = [&](uint64_t done, uint64_t total) {
    EXPECT_GE(done, last_done);
    EXPECT_EQ(total, plan.total_bytes);
    last_done = done;
    ++calls;
  };
  ASSERT_TRUE(WriteSourceTree(plan, root, &err, options)) << err;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0);
  EXPECT_EQ(last_done, plan.total_bytes);
  EXPECT_EQ(calls, plan.file_count);
  for (const TreeEntry& e : plan.entries) {
    struct stat st;
    ASSERT_EQ(lstat((root + "/" + e.path).c_str(), &st), 0) << e.path;
    if (e.type == TreeEntryType::kDirectory) {
      EXPECT_TRUE(S_ISDIR(st.st_mode)) << e.path;
    } else {
      EXPECT_TRUE(S_ISREG(st.st_mode)) << e.path;
      EXPECT_EQ(static_cast<uint64_t>(st.st_size), e.bytes) << e.path;
    }
  }
}

TEST(SourceTreeWrite, RefusesNonEmptyOrUnusableRoot) {
  ScopedTempDir tmp;
  TreeSpec spec;
  spec.total_bytes = 100'000;
  const TreePlan plan = PlanSourceTree(spec);
  std::string err;

  WriteFile(tmp.path() + "/file", "x");
  EXPECT_FALSE(WriteSourceTree(plan, tmp.path(), &err));
  EXPECT_NE(err.find("is not empty"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;

  err.clear();
  EXPECT_FALSE(WriteSourceTree(plan, tmp.path() + "/file", &err));
  EXPECT_NE(err.find("not a directory"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;

  err.clear();
  EXPECT_FALSE(WriteSourceTree(plan, tmp.path() + "/file/sub", &err));  // ENOTDIR
  EXPECT_NE(err.find(tmp.path() + "/file/sub"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;

  err.clear();
  EXPECT_FALSE(WriteSourceTree(plan, tmp.path() + "/missing/parent", &err));
  EXPECT_NE(err.find("No such file"), std::string::npos) << err;

  // An unwritable place; root ignores permission bits, so use sysfs (mkdir there fails with
  // EPERM, or EROFS where /sys is mounted read-only) and a 0555 directory otherwise.
  err.clear();
  std::string unwritable = "/sys/elevbench-source-tree";
  if (geteuid() != 0) {
    unwritable = tmp.path() + "/ro";
    ASSERT_EQ(mkdir(unwritable.c_str(), 0555), 0);
  }
  EXPECT_FALSE(WriteSourceTree(plan, unwritable, &err));
  EXPECT_FALSE(err.empty());
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;

  TreePlan bad = plan;
  bad.entries.push_back({TreeEntryType::kFile, "../escape", 1, "", 0644});
  err.clear();
  EXPECT_FALSE(WriteSourceTree(bad, tmp.path() + "/bad", &err));
  EXPECT_NE(err.find("../escape"), std::string::npos) << err;
}

TEST(SourceTreeCopy, CopiesAFixtureFaithfully) {
  ScopedTempDir tmp;
  const std::string src = tmp.path() + "/src";
  ASSERT_EQ(mkdir(src.c_str(), 0755), 0);
  ASSERT_EQ(mkdir((src + "/a").c_str(), 0755), 0);
  ASSERT_EQ(mkdir((src + "/a/b").c_str(), 0750), 0);
  WriteFile(src + "/a/b-c", "int x;\n");
  WriteFile(src + "/a/b/empty", "");
  std::string binary;
  for (int i = 0; i < 200'000; ++i) binary += static_cast<char>(i % 256);
  WriteFile(src + "/a/b/data.bin", binary);
  WriteFile(src + "/run.sh", "#!/bin/sh\necho hi\n", 0755);
  ASSERT_EQ(symlink("a/b-c", (src + "/link").c_str()), 0);
  ASSERT_EQ(symlink("nowhere", (src + "/a/dangling").c_str()), 0);
  ASSERT_EQ(mkfifo((src + "/a/fifo").c_str(), 0644), 0);  // skipped
  ASSERT_EQ(mkdir((src + "/ro").c_str(), 0755), 0);
  WriteFile(src + "/ro/inside", "kept\n");
  ASSERT_EQ(chmod((src + "/ro").c_str(), 0555), 0);

  const std::string dst = tmp.path() + "/dst";
  TreePlan copied;
  std::string err;
  uint64_t progress_calls = 0, progress_done = 0;
  TreeWriteOptions options;
  options.progress = [&](uint64_t done, uint64_t total) {
    ++progress_calls;
    progress_done = done;
    EXPECT_EQ(total, 200'030u);
  };
  ASSERT_TRUE(CopySourceTree(src, dst, &copied, &err, options)) << err;
  EXPECT_EQ(progress_calls, 5u);
  EXPECT_EQ(progress_done, 200'030u);
  EXPECT_EQ(copied.file_count, 5u);
  EXPECT_EQ(copied.directory_count, 3u);
  EXPECT_EQ(copied.symlink_count, 2u);
  EXPECT_EQ(copied.total_bytes, 7u + 0u + 200'000u + 18u + 5u);
  ASSERT_EQ(copied.entries.size(), 10u);
  EXPECT_EQ(copied.entries[0].path, "a");
  EXPECT_EQ(copied.entries[1].path, "a/b");
  EXPECT_EQ(copied.entries[2].path, "a/b-c");  // byte order, like tar tf
  EXPECT_EQ(copied.entries[3].path, "a/b/data.bin");

  std::string d_src, d_dst;
  ASSERT_TRUE(DigestTree(src, &d_src, &err)) << err;
  ASSERT_TRUE(DigestTree(dst, &d_dst, &err)) << err;
  EXPECT_EQ(d_src, d_dst);

  struct stat st;
  ASSERT_EQ(stat((dst + "/run.sh").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0755u);
  ASSERT_EQ(stat((dst + "/a/b").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0750u);
  ASSERT_EQ(lstat((dst + "/a/fifo").c_str(), &st), -1);

  // A written tree copies to the same digest too.
  TreeSpec spec;
  spec.total_bytes = 500'000;
  options = {};
  options.sync = false;
  ASSERT_TRUE(WriteSourceTree(PlanSourceTree(spec), tmp.path() + "/gen", &err, options)) << err;
  ASSERT_TRUE(CopySourceTree(tmp.path() + "/gen", tmp.path() + "/gen-copy", &copied, &err, options))
      << err;
  ASSERT_TRUE(DigestTree(tmp.path() + "/gen", &d_src, &err)) << err;
  ASSERT_TRUE(DigestTree(tmp.path() + "/gen-copy", &d_dst, &err)) << err;
  EXPECT_EQ(d_src, d_dst);
  EXPECT_EQ(copied.total_bytes, 500'000u);
}

TEST(SourceTreeCopy, RefusesBadSourceAndRoot) {
  ScopedTempDir tmp;
  const std::string src = tmp.path() + "/src";
  ASSERT_EQ(mkdir(src.c_str(), 0755), 0);
  WriteFile(src + "/f", "x");
  TreePlan copied;
  copied.file_count = 42;  // untouched on failure
  std::string err;
  EXPECT_FALSE(CopySourceTree(src, src + "/inside", &copied, &err));
  EXPECT_NE(err.find("lies inside"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  struct stat st;
  EXPECT_NE(stat((src + "/inside").c_str(), &st), 0) << "nothing made before the refusal";
  EXPECT_FALSE(CopySourceTree(src, src + "/../src/y", &copied, &err));
  EXPECT_NE(err.find("lies inside"), std::string::npos) << err;
  EXPECT_FALSE(CopySourceTree(tmp.path() + "/missing", tmp.path() + "/dst", &copied, &err));
  EXPECT_NE(err.find("missing"), std::string::npos) << err;
  EXPECT_FALSE(CopySourceTree(src + "/f", tmp.path() + "/dst", &copied, &err));
  EXPECT_NE(err.find("not a directory"), std::string::npos) << err;
  EXPECT_FALSE(CopySourceTree(src, src, &copied, &err));  // root not empty
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  EXPECT_EQ(copied.file_count, 42u);
}

TEST(SourceTreeDigest, MatchesTheDocumentedManifest) {
  ScopedTempDir tmp;
  const std::string root = tmp.path();
  ASSERT_EQ(mkdir((root + "/d").c_str(), 0755), 0);
  WriteFile(root + "/d/f", "abc");
  std::string pattern;
  for (int i = 0; i < 100'000; ++i) pattern += static_cast<char>(i % 251);
  WriteFile(root + "/d/g", pattern);
  WriteFile(root + "/e", "");
  ASSERT_EQ(symlink("d/f", (root + "/l").c_str()), 0);
  // Python: hashlib.sha256 of "d d\nf 3 <sha256(abc)> d/f\nf 100000 <sha256(pattern)> d/g\n"
  //         "f 0 <sha256()> e\nl l -> d/f\n".
  std::string hex, err;
  ASSERT_TRUE(DigestTree(root, &hex, &err)) << err;
  EXPECT_EQ(hex, "dbbdfac506df51b05eacf843dda543d8dfe4b452f2599d07becb247073c0a87b");
  EXPECT_FALSE(DigestTree(root + "/nope", &hex, &err));
  EXPECT_NE(err.find("nope"), std::string::npos) << err;
}

}  // namespace
}  // namespace elevbench
