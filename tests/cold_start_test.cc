// The cold-start copier of Morton's #2/#3: ldd's listing parsed, a real program (ls) copied with
// its libraries and loader into a temporary directory and run through the copied loader, whose
// own --list shows that every library comes from the copy.

#include "harness/engine/cold_start.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <sstream>

#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

const char kLddOfSsh[] =
    "\tlinux-vdso.so.1 (0x00007ffd0b5f2000)\n"
    "\tlibselinux.so.1 => /lib/x86_64-linux-gnu/libselinux.so.1 (0x00007f6aa70b2000)\n"
    "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f6aa6ed0000)\n"
    "\t/lib64/ld-linux-x86-64.so.2 (0x00007f6aa711d000)\n"
    "\tlibpcre2-8.so.0 => /lib/x86_64-linux-gnu/libpcre2-8.so.0 (0x00007f6aa6e36000)\n";

TEST(LddOutputTest, LibrariesWithPathsAndTheLoader) {
  LddListing l;
  std::string err;
  ASSERT_TRUE(ParseLddOutput(kLddOfSsh, &l, &err)) << err;
  ASSERT_EQ(l.libraries.size(), 3u);
  EXPECT_EQ(l.libraries[0].first, "libselinux.so.1");
  EXPECT_EQ(l.libraries[0].second, "/lib/x86_64-linux-gnu/libselinux.so.1");
  EXPECT_EQ(l.libraries[2].first, "libpcre2-8.so.0");
  EXPECT_EQ(l.loader, "/lib64/ld-linux-x86-64.so.2");
}

TEST(LddOutputTest, MissingLibraryAndStaticProgramAreErrors) {
  LddListing l;
  l.loader = "untouched";
  std::string err;
  EXPECT_FALSE(ParseLddOutput("\tlibfoo.so.1 => not found\n\t/lib64/ld-linux-x86-64.so.2 (0x1)\n",
                              &l, &err));
  EXPECT_EQ(err, "ldd: libfoo.so.1 not found");
  EXPECT_FALSE(ParseLddOutput("\tnot a dynamic executable\n", &l, &err));
  EXPECT_NE(err.find("no dynamic loader"), std::string::npos) << err;
  EXPECT_EQ(l.loader, "untouched");
}

TEST(ColdStartTest, CopiesLsWithItsLibrariesAndRunsItThroughTheCopiedLoader) {
  testing::ScopedTempDir dir;
  const std::string root = dir.path() + "/cold";
  ColdStartProgram p;
  std::string err;
  ASSERT_TRUE(CopyProgramForColdStart("ls", {"--version"}, root, &p, &err)) << err;
  EXPECT_EQ(p.binary, root + "/bin/ls");
  EXPECT_EQ(p.library_dir, root + "/lib");
  EXPECT_EQ(p.loader.rfind(root + "/lib/ld-", 0), 0u) << p.loader;
  ASSERT_GE(p.files.size(), 3u);  // ls, the loader and at least libc
  uint64_t bytes = 0;
  for (const std::string& f : p.files) {
    struct stat st {};
    ASSERT_EQ(stat(f.c_str(), &st), 0) << f;
    EXPECT_TRUE(S_ISREG(st.st_mode)) << f;  // content copied, not a symlink
    EXPECT_EQ(st.st_mode & 0777, 0755u) << f;
    bytes += static_cast<uint64_t>(st.st_size);
  }
  EXPECT_EQ(bytes, p.bytes);
  EXPECT_TRUE(std::filesystem::exists(root + "/lib/libc.so.6"));
  EXPECT_EQ(ColdStartCommandText(p), "ls --version");

  const std::vector<std::string> argv = ColdStartArgv(p);
  ASSERT_GE(argv.size(), 6u);
  EXPECT_EQ(argv[0], p.loader);
  EXPECT_EQ(argv[1], "--inhibit-cache");
  EXPECT_EQ(argv[2], "--library-path");
  EXPECT_EQ(argv[3], p.library_dir);
  EXPECT_EQ(argv[4], p.binary);
  EXPECT_EQ(argv[5], "--version");
  ProcessResult r;
  ASSERT_TRUE(RunProcess(argv, {}, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 0) << r.error_output;
  EXPECT_NE(r.output.find("coreutils"), std::string::npos) << r.output;

  // The copied loader's own account: every library it maps for the copy comes from library_dir.
  ASSERT_TRUE(
      RunProcess({p.loader, "--inhibit-cache", "--library-path", p.library_dir, "--list", p.binary},
                 {}, &r, &err))
      << err;
  EXPECT_EQ(r.exit_code, 0) << r.error_output;
  size_t resolved = 0;
  std::istringstream lines(r.output);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t arrow = line.find("=> ");
    if (arrow == std::string::npos) continue;
    ++resolved;
    const std::string target = line.substr(arrow + 3);
    const bool in_copy =
        target.rfind(p.library_dir + "/", 0) == 0 || target.rfind(p.loader, 0) == 0;
    EXPECT_TRUE(in_copy) << line;
  }
  EXPECT_GE(resolved, 2u) << r.output;
}

TEST(ColdStartTest, AProgramThatIsNotInstalledIsOneLine) {
  testing::ScopedTempDir dir;
  ColdStartProgram p;
  std::string err;
  EXPECT_FALSE(
      CopyProgramForColdStart("elevbench-no-such-program", {}, dir.path() + "/c", &p, &err));
  EXPECT_EQ(err, "elevbench-no-such-program is not installed (not found in PATH)");
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/c"));
}

}  // namespace
}  // namespace elevbench
