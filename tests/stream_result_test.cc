// StreamResult and Fairness: the fairness indices (min/max and Jain's), the all-zero convention,
// and the lossless JSON round trip with its one-line errors.

#include "harness/results/stream_result.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

StreamResult MakeStream(const std::string& name, uint64_t read, uint64_t written) {
  StreamResult s;
  s.name = name;
  s.bytes_read = read;
  s.bytes_written = written;
  s.direction = read > 0 && written > 0 ? "readwrite" : written > 0 ? "write" : "read";
  return s;
}

StreamResult FullStream() {
  StreamResult s = MakeStream("writer1", 4096, 268435456);
  s.runtime_seconds = 6.789;
  s.cpu_seconds = 1.25;
  EXPECT_TRUE(s.latency.Record(3500, 10));
  EXPECT_TRUE(s.latency.Record(1200000));
  EXPECT_FALSE(s.latency.Record(20'000'000'000));  // beyond the top bucket: overflow
  s.throughput_kib_s = {40960.5, 38912, 0};
  s.throughput_interval_ms = 1000;
  return s;
}

void ExpectSame(const StreamResult& a, const StreamResult& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.direction, b.direction);
  EXPECT_EQ(a.bytes_read, b.bytes_read);
  EXPECT_EQ(a.bytes_written, b.bytes_written);
  EXPECT_EQ(a.runtime_seconds, b.runtime_seconds);
  EXPECT_EQ(a.cpu_seconds, b.cpu_seconds);
  EXPECT_TRUE(a.latency == b.latency);
  EXPECT_EQ(a.throughput_kib_s, b.throughput_kib_s);
  EXPECT_EQ(a.throughput_interval_ms, b.throughput_interval_ms);
}

TEST(StreamResultTest, BytesAreReadPlusWritten) { EXPECT_EQ(MakeStream("rw", 3, 4).bytes(), 7u); }

TEST(StreamResultTest, FairnessOfNoStreamsIsAllZero) {
  const Fairness f = FairnessOf({});
  EXPECT_EQ(f.min_max_ratio, 0);
  EXPECT_EQ(f.jain_index, 0);
  EXPECT_EQ(f.min_bytes, 0u);
  EXPECT_EQ(f.max_bytes, 0u);
}

TEST(StreamResultTest, FairnessWhenNothingMovedIsZero) {
  const Fairness f = FairnessOf({MakeStream("a", 0, 0), MakeStream("b", 0, 0)});
  EXPECT_EQ(f.min_max_ratio, 0);
  EXPECT_EQ(f.jain_index, 0);  // never a real value (it is at least 1/n), so it marks the case
  EXPECT_EQ(f.min_bytes, 0u);
  EXPECT_EQ(f.max_bytes, 0u);
}

TEST(StreamResultTest, OneStreamIsFair) {
  const Fairness f = FairnessOf({MakeStream("a", 100, 0)});
  EXPECT_EQ(f.min_max_ratio, 1);
  EXPECT_EQ(f.jain_index, 1);
}

TEST(StreamResultTest, EqualStreamsAreFair) {
  const uint64_t mib256 = uint64_t{256} << 20;
  const Fairness f = FairnessOf({MakeStream("r1", mib256, 0), MakeStream("r2", mib256, 0),
                                 MakeStream("r3", mib256, 0), MakeStream("r4", mib256, 0)});
  EXPECT_EQ(f.min_max_ratio, 1);
  EXPECT_DOUBLE_EQ(f.jain_index, 1);
  EXPECT_LE(f.jain_index, 1);
}

TEST(StreamResultTest, SeedCfqBench6Fairness) {
  // "in this CFQ result, 2 threads read 256MB, 2 read 128MB" → 0.5; Jain 768²/(4·163840) = 0.9.
  const Fairness f = FairnessOf({MakeStream("r1", 256, 0), MakeStream("r2", 128, 0),
                                 MakeStream("r3", 256, 0), MakeStream("r4", 128, 0)});
  EXPECT_DOUBLE_EQ(f.min_max_ratio, 0.5);
  EXPECT_DOUBLE_EQ(f.jain_index, 0.9);
  EXPECT_EQ(f.min_bytes, 128u);
  EXPECT_EQ(f.max_bytes, 256u);
}

TEST(StreamResultTest, OneStarvedStreamGivesJainOneOverN) {
  const Fairness f =
      FairnessOf({MakeStream("w", 0, 1000), MakeStream("r", 0, 0), MakeStream("r2", 0, 0)});
  EXPECT_EQ(f.min_max_ratio, 0);
  EXPECT_DOUBLE_EQ(f.jain_index, 1.0 / 3);
}

TEST(StreamResultTest, FairnessCountsReadAndWrittenBytes) {
  const Fairness f = FairnessOf({MakeStream("rw", 50, 50), MakeStream("r", 200, 0)});
  EXPECT_DOUBLE_EQ(f.min_max_ratio, 0.5);
  EXPECT_DOUBLE_EQ(f.jain_index, 300.0 * 300 / (2 * (100.0 * 100 + 200.0 * 200)));
}

TEST(StreamResultTest, JsonRoundTripIsExact) {
  const StreamResult s = FullStream();
  const nlohmann::json j = StreamResultToJson(s);
  for (const char* key :
       {"name", "direction", "bytes_read", "bytes_written", "runtime_seconds", "cpu_seconds",
        "latency_histogram", "throughput_kib_s", "throughput_interval_ms"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j.size(), 9u);
  StreamResult back;
  std::string err;
  ASSERT_TRUE(StreamResultFromJson(nlohmann::json::parse(j.dump()), &back, &err)) << err;
  ExpectSame(s, back);
  EXPECT_EQ(back.latency.overflow_count(), 1u);
}

TEST(StreamResultTest, ThroughputKeysAreOptional) {
  nlohmann::json j = StreamResultToJson(FullStream());
  j.erase("throughput_kib_s");
  j.erase("throughput_interval_ms");
  StreamResult back;
  std::string err;
  ASSERT_TRUE(StreamResultFromJson(j, &back, &err)) << err;
  EXPECT_TRUE(back.throughput_kib_s.empty());
  EXPECT_EQ(back.throughput_interval_ms, 0u);
}

TEST(StreamResultTest, BadJsonNamesTheKeyAndLeavesTheOutputAlone) {
  const nlohmann::json good = StreamResultToJson(FullStream());
  struct Case {
    std::string key;
    nlohmann::json value;
    std::string err;
  };
  const Case cases[] = {
      {"bytes_read", -1, "bytes_read: expected a non-negative integer"},
      {"bytes_written", 1.5, "bytes_written: expected a non-negative integer"},
      {"name", 3, "name: expected a string"},
      {"cpu_seconds", "1", "cpu_seconds: expected a number"},
      {"direction", "sideways", "direction: expected read, write or readwrite, not 'sideways'"},
      {"throughput_kib_s", {1, "x"}, "throughput_kib_s[1]: expected a number"},
      {"throughput_interval_ms", -5, "throughput_interval_ms: expected a non-negative integer"},
  };
  for (const Case& c : cases) {
    nlohmann::json j = good;
    j[c.key] = c.value;
    StreamResult out;
    out.name = "untouched";
    std::string err;
    EXPECT_FALSE(StreamResultFromJson(j, &out, &err)) << c.key;
    EXPECT_EQ(err, c.err);
    EXPECT_EQ(out.name, "untouched");
  }
  nlohmann::json missing = good;
  missing.erase("runtime_seconds");
  StreamResult out;
  std::string err;
  EXPECT_FALSE(StreamResultFromJson(missing, &out, &err));
  EXPECT_EQ(err, "runtime_seconds: missing");
  nlohmann::json bad_hist = good;
  bad_hist["latency_histogram"]["count"] = 999;
  EXPECT_FALSE(StreamResultFromJson(bad_hist, &out, &err));
  EXPECT_EQ(err.rfind("latency_histogram: ", 0), 0u) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos);
  EXPECT_FALSE(StreamResultFromJson(nlohmann::json::array(), &out, &err));
  EXPECT_EQ(err, "expected a stream object");
}

TEST(StreamResultTest, FairnessJsonRoundTrip) {
  const Fairness f =
      FairnessOf({MakeStream("r1", 256, 0), MakeStream("r2", 128, 0), MakeStream("r3", 200, 0)});
  const nlohmann::json j = FairnessToJson(f);
  EXPECT_EQ(j.size(), 4u);
  Fairness back;
  std::string err;
  ASSERT_TRUE(FairnessFromJson(nlohmann::json::parse(j.dump()), &back, &err)) << err;
  EXPECT_EQ(back.min_max_ratio, f.min_max_ratio);
  EXPECT_EQ(back.jain_index, f.jain_index);
  EXPECT_EQ(back.min_bytes, 128u);
  EXPECT_EQ(back.max_bytes, 256u);
  nlohmann::json bad = j;
  bad.erase("jain_index");
  EXPECT_FALSE(FairnessFromJson(bad, &back, &err));
  EXPECT_EQ(err, "jain_index: missing");
}

}  // namespace
}  // namespace elevbench
