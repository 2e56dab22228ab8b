#include "harness/fio/fio_job_file.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scenarios/tiobench/tiobench.h"
#include "test_util.h"

namespace elevbench {
namespace {

std::string GoldenPath(const std::string& name) {
  return std::string(ELEVBENCH_TEST_DATA_DIR) + "/golden/" + name;
}

void ExpectGolden(const std::string& name, const std::string& text) {
  testing::ExpectMatchesGolden(name, text);
}

// Lets the installed fio check the syntax (no I/O is done); skipped without fio.
void ExpectFioAccepts(const std::string& name) {
  if (std::system("command -v fio >/dev/null 2>&1") != 0) GTEST_SKIP() << "fio not installed";
  const std::string cmd = "fio --parse-only " + GoldenPath(name) + " >/dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

FioGlobalSpec TiobenchGlobal() {
  FioGlobalSpec g;
  g.thread = true;
  g.invalidate = false;
  g.randrepeat = false;
  g.fallocate_none = true;
  return g;
}

StreamSpec TiobenchStream(const std::string& rw) {
  StreamSpec s;
  s.name = "tiotest";
  s.rw = rw;
  s.directory = "/mnt/elevbench";
  s.file_size_bytes = 256ULL << 20;
  s.block_size_bytes = 4096;
  s.numjobs = 4;
  return s;
}

std::string RenderJobFile(const FioGlobalSpec& g, const std::vector<StreamSpec>& streams) {
  std::string text, err;
  EXPECT_TRUE(WriteFioJobFile(g, streams, &text, &err)) << err;
  return text;
}

// The job files tiobench really sends: its global section and its phase streams, for 1024 MB and
// 4000 random ops at 4 threads (the seed's 4-thread rows).
std::string TiobenchJob(TioPhase phase) {
  TiobenchParams params;
  params.size_mb = 1024;
  params.random_ops = 4000;
  return RenderJobFile(TioGlobalSpec(), TioPhaseStreams(PlanTioThreads(params, 4), phase,
                                                        "/mnt/elevbench", 4096, /*nofrag=*/false));
}

TEST(FioJobFileTest, GoldenTiobenchWritePhase) {
  ExpectGolden("fio_job_tiobench_write.fio", TiobenchJob(TioPhase::kSeqWrite));
  ExpectFioAccepts("fio_job_tiobench_write.fio");
}

TEST(FioJobFileTest, GoldenTiobenchRandomRead) {
  ExpectGolden("fio_job_tiobench_randread.fio", TiobenchJob(TioPhase::kRandomRead));
  ExpectFioAccepts("fio_job_tiobench_randread.fio");
}

TEST(FioJobFileTest, GoldenReaderWriterMix) {
  FioGlobalSpec g;
  g.invalidate = true;
  g.randrepeat = true;
  g.random_seed = 42;
  g.exitall = true;
  g.extra = {{"ramp_time", "2"}};
  StreamSpec writer;
  writer.name = "writer";
  writer.rw = "write";
  writer.directory = "/mnt/elevbench";
  writer.file_size_bytes = 1ULL << 30;
  writer.block_size_bytes = 1 << 20;
  writer.ioengine = "libaio";
  writer.iodepth = 8;
  writer.direct = true;
  writer.runtime_ms = 20000;
  writer.rate_bytes_per_sec = 20ULL << 20;
  StreamSpec reader;
  reader.name = "reader";
  reader.rw = "randread";
  reader.directory = "/mnt/elevbench";
  reader.filename = "probe.dat";
  reader.file_size_bytes = 64ULL << 20;
  reader.runtime_ms = 15000;
  reader.start_delay_ms = 5000;
  reader.new_group = true;
  reader.extra = {{"thinktime", "1000"}};
  ExpectGolden("fio_job_reader_writer_mix.fio", RenderJobFile(g, {writer, reader}));
  ExpectFioAccepts("fio_job_reader_writer_mix.fio");
}

TEST(FioJobFileTest, Deterministic) {
  StreamSpec s = TiobenchStream("randwrite");
  s.number_ios = 250;
  s.stonewall = true;
  StreamSpec r = TiobenchStream("read");
  r.name = "tioread";
  const std::string a = RenderJobFile(TiobenchGlobal(), {s, r});
  const std::string b = RenderJobFile(TiobenchGlobal(), {s, r});
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("[tiotest]\nstonewall\nrw=randwrite\n"), std::string::npos) << a;
}

TEST(FioJobFileTest, GlobalAlwaysPinsClatBinsAndCacheBehaviour) {
  const std::string t = RenderJobFile(FioGlobalSpec{}, {TiobenchStream("read")});
  for (const char* line : {"\nthread\n", "\ninvalidate=0\n", "\nrandrepeat=0\n",
                           "\nfallocate=none\n", "\nclat_percentiles=1\n", "\nlat_percentiles=0\n",
                           "\ndisable_slat=1\n", "\ndisable_lat=1\n", "\ndirect=0\n"}) {
    EXPECT_NE(t.find(line), std::string::npos) << line;
  }
  // The per-call clat histogram must survive the cheaper bookkeeping: nothing that turns it off.
  for (const char* off : {"disable_clat", "gtod_reduce", "stats=0", "disable_lat=0"}) {
    EXPECT_EQ(t.find(off), std::string::npos) << off;
  }
  EXPECT_EQ(t.find("norandommap"), std::string::npos);  // sequential: no random map option
  EXPECT_EQ(t.find("randseed"), std::string::npos);
  EXPECT_EQ(t.find("group_reporting"), std::string::npos);
}

TEST(FioJobFileTest, RandomRepeatsOnlyForRandomStreams) {
  StreamSpec s = TiobenchStream("randrw");
  EXPECT_NE(RenderJobFile(FioGlobalSpec{}, {s}).find("norandommap=1"), std::string::npos);
  s.random_repeats = false;
  EXPECT_EQ(RenderJobFile(FioGlobalSpec{}, {s}).find("norandommap"), std::string::npos);
}

struct BadCase {
  const char* what;
  FioGlobalSpec global;
  std::vector<StreamSpec> streams;
};

TEST(FioJobFileTest, RejectsInvalidInput) {
  const StreamSpec ok = TiobenchStream("read");
  auto with = [&ok](auto mutate) {
    StreamSpec s = ok;
    mutate(s);
    return std::vector<StreamSpec>{s};
  };
  FioGlobalSpec bad_global_key;
  bad_global_key.extra = {{"a=b", "1"}};
  FioGlobalSpec bad_global_value;
  bad_global_value.extra = {{"runtime", "1\n[evil]"}};
  FioGlobalSpec dup_global;
  dup_global.extra = {{"invalidate", "1"}};
  const std::vector<BadCase> cases = {
      {"no streams", {}, {}},
      {"zero bs", {}, with([](StreamSpec& s) { s.block_size_bytes = 0; })},
      {"bad rw", {}, with([](StreamSpec& s) { s.rw = "randtrim"; })},
      {"empty rw", {}, with([](StreamSpec& s) { s.rw = ""; })},
      {"zero numjobs", {}, with([](StreamSpec& s) { s.numjobs = 0; })},
      {"zero iodepth", {}, with([](StreamSpec& s) { s.iodepth = 0; })},
      {"empty name", {}, with([](StreamSpec& s) { s.name = ""; })},
      {"name injection", {}, with([](StreamSpec& s) { s.name = "a]\n[b"; })},
      {"name global", {}, with([](StreamSpec& s) { s.name = "global"; })},
      {"dir newline", {}, with([](StreamSpec& s) { s.directory = "/tmp\nrw=write"; })},
      {"dir colon", {}, with([](StreamSpec& s) { s.directory = "/a:/b"; })},
      {"file CR", {}, with([](StreamSpec& s) { s.filename = "x\rbs=1"; })},
      {"engine eq", {}, with([](StreamSpec& s) { s.ioengine = "psync\nbs=1"; })},
      {"engine eq2", {}, with([](StreamSpec& s) { s.ioengine = "a=b"; })},
      {"extra key eq", {}, with([](StreamSpec& s) {
         s.extra = {{"bs=8k\nx", "1"}};
       })},
      {"extra key empty", {}, with([](StreamSpec& s) {
         s.extra = {{"", "1"}};
       })},
      {"extra value nl", {}, with([](StreamSpec& s) {
         s.extra = {{"thinktime", "1\nrw=write"}};
       })},
      {"extra blank", {}, with([](StreamSpec& s) {
         s.extra = {{"thinktime", " 1"}};
       })},
      {"extra dup", {}, with([](StreamSpec& s) {
         s.extra = {{"bs", "8k"}};
       })},
      {"global key", bad_global_key, {ok}},
      {"global value", bad_global_value, {ok}},
      {"global dup", dup_global, {ok}},
      {"duplicate names", {}, {ok, ok}},
  };
  for (const BadCase& c : cases) {
    std::string text = "untouched", err;
    EXPECT_FALSE(WriteFioJobFile(c.global, c.streams, &text, &err)) << c.what;
    EXPECT_FALSE(err.empty()) << c.what;
    EXPECT_EQ(err.find('\n'), std::string::npos) << c.what << ": " << err;
    EXPECT_EQ(text, "untouched") << c.what;
  }
}

TEST(FioJobFileTest, FileStreamSetsTheFileAndSizesAndLeavesTheRestAtTheDefaults) {
  const StreamSpec s = FileStream("reader", "read", "/mnt/load", 64 << 20, 1 << 20);
  StreamSpec expected;
  expected.name = "reader";
  expected.rw = "read";
  expected.filename = "/mnt/load";
  expected.file_size_bytes = 64 << 20;
  expected.block_size_bytes = 1 << 20;
  std::string a, b, err;
  ASSERT_TRUE(WriteFioJobFile(FioGlobalSpec(), {s}, &a, &err)) << err;
  ASSERT_TRUE(WriteFioJobFile(FioGlobalSpec(), {expected}, &b, &err)) << err;
  EXPECT_EQ(a, b);
  EXPECT_EQ(s.ioengine, "psync");
  EXPECT_FALSE(s.direct);
}

TEST(FioJobFileTest, LegacyToolGlobalIsTheDefaultsWithoutFadviseHints) {
  FioGlobalSpec defaults;
  defaults.extra = {{"fadvise_hint", "0"}};
  std::string a, b, err;
  const StreamSpec s = FileStream("w", "write", "/mnt/f", 1 << 20, 4096);
  ASSERT_TRUE(WriteFioJobFile(LegacyToolFioGlobal(), {s}, &a, &err)) << err;
  ASSERT_TRUE(WriteFioJobFile(defaults, {s}, &b, &err)) << err;
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("thread\n"), std::string::npos);
  EXPECT_NE(a.find("fallocate=none\n"), std::string::npos);
  EXPECT_NE(a.find("invalidate=0\n"), std::string::npos);
}

}  // namespace
}  // namespace elevbench
