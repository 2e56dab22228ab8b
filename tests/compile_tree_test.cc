// The compile tree of contest's foreground job: deterministic, kernel-shaped, and it really
// builds with make and gcc -Werror (a small tree, a few seconds), products where the plan says,
// removed by the tree's `make clean`.

#include "harness/tree/compile_tree.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::ScopedTempDir;

bool Exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

TEST(CompileTreePlan, SameSpecGivesSameTreeAndSeedsDiffer) {
  CompileTreeSpec spec;
  spec.c_files = 30;
  const CompileTree a = PlanCompileTree(spec);
  const CompileTree b = PlanCompileTree(spec);
  ASSERT_EQ(a.files.size(), b.files.size());
  for (size_t i = 0; i < a.files.size(); ++i) {
    EXPECT_EQ(a.files[i].path, b.files[i].path);
    EXPECT_EQ(a.files[i].text, b.files[i].text);
  }
  spec.seed = 2;
  const CompileTree c = PlanCompileTree(spec);
  EXPECT_NE(a.files[1].text, c.files[1].text);
}

TEST(CompileTreePlan, HasTheKernelLikeShape) {
  CompileTreeSpec spec;
  spec.c_files = 90;
  const CompileTree tree = PlanCompileTree(spec);
  EXPECT_EQ(tree.c_files, 90u);
  EXPECT_EQ(tree.headers, 30u);  // one per three C files
  size_t c = 0, h = 0;
  std::set<std::string> top;
  uint64_t bytes = 0;
  const std::regex include("#include <[a-z]+/[a-z0-9_]+\\.h>");
  for (const CompileTreeFile& f : tree.files) {
    bytes += f.text.size();
    top.insert(f.path.substr(0, f.path.find('/')));
    if (f.path.size() > 2 && f.path.substr(f.path.size() - 2) == ".c") {
      ++c;
      if (f.path == "init/main.c") continue;
      // Every C file includes 12 to 30 shared headers.
      const auto n = std::distance(std::sregex_iterator(f.text.begin(), f.text.end(), include),
                                   std::sregex_iterator());
      EXPECT_GE(n, 12) << f.path;
      EXPECT_LE(n, 30) << f.path;
    }
    if (f.path.size() > 2 && f.path.substr(f.path.size() - 2) == ".h") ++h;
  }
  EXPECT_EQ(c, 90u);
  EXPECT_EQ(h, 30u);
  EXPECT_EQ(bytes, tree.source_bytes);
  for (const char* d : {"include", "kernel", "mm", "fs", "drivers", "net", "init", "Makefile"}) {
    EXPECT_TRUE(top.count(d)) << d;
  }
  // Objects of every C file, each directory's built-in.o and vmlinux, which comes last.
  EXPECT_EQ(tree.products.back(), "vmlinux");
  EXPECT_EQ(std::count_if(tree.products.begin(), tree.products.end(),
                          [](const std::string& p) {
                            return p.size() > 2 && p.substr(p.size() - 2) == ".o" &&
                                   p.find("built-in") == std::string::npos;
                          }),
            90);
  EXPECT_GE(CompileTreeBytesNeeded(90), tree.source_bytes * 2);
}

TEST(CompileTreeBuild, BuildsWithGccWithoutAWarningAndCleansUp) {
  if (!ProgramInPath("make") || !ProgramInPath("gcc")) GTEST_SKIP() << "needs make and gcc";
  ScopedTempDir dir;
  CompileTreeSpec spec;
  spec.c_files = 4;
  const CompileTree tree = PlanCompileTree(spec);
  const std::string root = dir.path() + "/tree";
  std::string err;
  ASSERT_TRUE(WriteCompileTree(tree, root, &err)) << err;
  ProcessOptions opts;
  opts.working_directory = root;
  ProcessResult result;
  // The tree's own flags plus -Wextra -Werror: the generated C is clean.
  ASSERT_TRUE(
      RunProcess({"make", "-j4",
                  "CFLAGS=-O2 -Wall -Wextra -Werror -Wstrict-prototypes -fno-strict-aliasing "
                  "-fno-common -pipe -Iinclude"},
                 opts, &result, &err))
      << err;
  ASSERT_EQ(result.exit_code, 0) << result.error_output;
  for (const std::string& p : tree.products) EXPECT_TRUE(Exists(root + "/" + p)) << p;
  ProcessResult run;
  ASSERT_TRUE(RunProcess({root + "/vmlinux"}, {}, &run, &err)) << err;
  EXPECT_EQ(run.exit_code, 0);

  ASSERT_TRUE(RemoveCompileProducts(tree, root, &err)) << err;
  for (const std::string& p : tree.products) EXPECT_FALSE(Exists(root + "/" + p)) << p;
  EXPECT_TRUE(Exists(root + "/Makefile"));
  EXPECT_TRUE(Exists(root + "/init/main.c"));
  // Removing again is fine: nothing is there.
  EXPECT_TRUE(RemoveCompileProducts(tree, root, &err)) << err;
  // The Makefile's own clean agrees with the products list.
  ASSERT_TRUE(RunProcess({"make", "-j4"}, opts, &result, &err)) << err;
  ASSERT_EQ(result.exit_code, 0) << result.error_output;
  ASSERT_TRUE(RunProcess({"make", "clean"}, opts, &result, &err)) << err;
  for (const std::string& p : tree.products) EXPECT_FALSE(Exists(root + "/" + p)) << p;
}

TEST(CompileTreeWrite, RefusesANonEmptyRoot) {
  ScopedTempDir dir;
  std::ofstream(dir.path() + "/x") << "x";
  CompileTreeSpec spec;
  spec.c_files = 2;
  std::string err;
  EXPECT_FALSE(WriteCompileTree(PlanCompileTree(spec), dir.path(), &err));
  EXPECT_NE(err.find("not an empty directory"), std::string::npos) << err;
}

}  // namespace
}  // namespace elevbench
