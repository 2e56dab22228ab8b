// How RunFio words a fio that did not end well (issue #18): killed by someone else's signal, or
// out of space. A stand-in `fio` script first in PATH plays each end; no I/O is done.

#include "harness/fio/fio_runner.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "test_util.h"

namespace elevbench {
namespace {

class FioRunnerEndsTest : public ::testing::Test {
 protected:
  // Puts an executable `fio` with `script` as its body first in PATH.
  void FakeFioScript(const std::string& script) {
    const std::string bin = dir_.path() + "/bin";
    mkdir(bin.c_str(), 0755);
    {
      std::ofstream out(bin + "/fio");
      out << "#!/bin/sh\n" << script << "\n";
    }
    chmod((bin + "/fio").c_str(), 0755);
    const char* old = getenv("PATH");
    path_ = std::make_unique<testing::ScopedEnv>("PATH", bin + ":" + (old ? old : "/usr/bin:/bin"));
  }

  FioInvocation Invocation() const {
    FioInvocation inv;
    inv.work_dir = dir_.path();
    inv.label = "cell001-seq_write";
    StreamSpec stream;
    stream.name = "tiotest";
    stream.rw = "write";
    stream.directory = dir_.path() + "/target";
    stream.file_size_bytes = 1 << 20;
    inv.streams = {stream};
    return inv;
  }

  testing::ScopedTempDir dir_;
  std::unique_ptr<testing::ScopedEnv> path_;
};

TEST_F(FioRunnerEndsTest, AFioKilledBySomeoneElseSaysBySignal) {
  FakeFioScript("kill -9 $$");
  FioRunResult result;
  std::string err;
  EXPECT_FALSE(RunFio(Invocation(), &result, &err));
  EXPECT_EQ(err, "fio killed by signal 9");
}

TEST_F(FioRunnerEndsTest, AFioOutOfSpaceNamesTheDirectory) {
  FakeFioScript(
      "echo 'fio: io_u error on file /x/tiotest.0.0: No space left on device: write "
      "offset=0, buflen=4096' >&2\necho 'fio: pid=1, err=28/file:io_u.c:1845' >&2\nexit 1");
  FioRunResult result;
  std::string err;
  EXPECT_FALSE(RunFio(Invocation(), &result, &err));
  EXPECT_EQ(err, "no space left on " + dir_.path() + "/target");
}

TEST_F(FioRunnerEndsTest, AnotherFailureKeepsFiosLastLine) {
  FakeFioScript("echo 'fio: something else went wrong' >&2\nexit 1");
  FioRunResult result;
  std::string err;
  EXPECT_FALSE(RunFio(Invocation(), &result, &err));
  EXPECT_EQ(err, "fio failed (exit 1): fio: something else went wrong");
}

// #31: a failed job is named with fio's error, and fio's last lines follow.
TEST_F(FioRunnerEndsTest, AFailedJobIsNamedWithItsErrorAndFiosLastLines) {
  FakeFioScript(
      "for a in \"$@\"; do case $a in --output=*) out=${a#--output=};; esac; done\n"
      "echo '{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"p7_kworker\", "
      "\"error\": 22}]}' > \"$out\"\n"
      "echo 'fio: pid=9, err=22/file:iolog.c:795, func=failed initializing iolog, "
      "error=Invalid argument' >&2\nexit 1");
  FioRunResult result;
  std::string err;
  EXPECT_FALSE(RunFio(Invocation(), &result, &err));
  EXPECT_EQ(err,
            "fio failed (exit 1): job p7_kworker: error 22 (Invalid argument); fio said: fio: "
            "pid=9, err=22/file:iolog.c:795, func=failed initializing iolog, error=Invalid "
            "argument");
}

// A fio stopped as soon as it started (a quick probe under --warmup 0, the fourth newcomer pass)
// must not get SIGTERM before it catches it: it would die without writing its output and the
// cell fail ("cannot read … .json"). This stand-in takes 0.3 s to set its handler, which then
// writes a real fio output.
TEST_F(FioRunnerEndsTest, AFioStoppedAtOnceStillWritesItsOutput) {
  FakeFioScript(
      "for a; do case $a in --output=*) out=${a#--output=};; esac; done\n"
      "sleep 0.3\n"
      "trap 'cp " +
      testing::TestDataPath("fixtures/fio/write_end_fsync.json") +
      " \"$out\"; exit 0' TERM\n"
      "while :; do sleep 0.05; done");
  SystemFioRunner runner;
  std::unique_ptr<FioBackground> running;
  std::string err;
  ASSERT_TRUE(runner.Start(Invocation(), &running, &err)) << err;
  FioRunResult result;
  EXPECT_TRUE(running->Stop(&result, &err)) << err;
  EXPECT_FALSE(result.jobs.empty());
}

}  // namespace
}  // namespace elevbench
