// JsonField tables (harness/core/json_field_table.h): one table writes a record's members and
// reads them back losslessly, with GetJsonField's one-line errors, optional entries, members of
// a base class, and table order deciding which bad key is reported first.

#include "harness/core/json_field_table.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

struct FieldTableBase {
  std::string scheduler;
};

struct FieldTableRecord : FieldTableBase {
  bool stand_in = false;
  double seconds = 0;
  int32_t exit_code = 0;
  int64_t offset = 0;
  uint32_t threads = 0;
  uint64_t bytes = 0;
  std::string label = "unset";
};

constexpr JsonField<FieldTableRecord> kFieldTableFields[] = {
    {"scheduler", &FieldTableRecord::scheduler},
    {"stand_in", &FieldTableRecord::stand_in},
    {"seconds", &FieldTableRecord::seconds},
    {"exit_code", &FieldTableRecord::exit_code},
    {"offset", &FieldTableRecord::offset},
    {"threads", &FieldTableRecord::threads},
    {"bytes", &FieldTableRecord::bytes},
    {"label", &FieldTableRecord::label, FieldPresence::kOptional},
};

FieldTableRecord FullFieldTableRecord() {
  FieldTableRecord r;
  r.scheduler = "bfq:low_latency=0";
  r.stand_in = true;
  r.seconds = 1.25;
  r.exit_code = -9;
  r.offset = -5'000'000'000;
  r.threads = 4;
  r.bytes = 18'000'000'000'000'000'000u;
  r.label = "BFQ-LL0";
  return r;
}

nlohmann::json WrittenFieldTableRecord() {
  nlohmann::json j;
  WriteJsonFields(kFieldTableFields, FullFieldTableRecord(), &j);
  return j;
}

TEST(JsonFieldTableTest, WritesEveryEntryAsTheHandWrittenObjectDid) {
  const FieldTableRecord r = FullFieldTableRecord();
  const nlohmann::json by_hand{{"scheduler", r.scheduler}, {"stand_in", r.stand_in},
                               {"seconds", r.seconds},     {"exit_code", r.exit_code},
                               {"offset", r.offset},       {"threads", r.threads},
                               {"bytes", r.bytes},         {"label", r.label}};
  const nlohmann::json j = WrittenFieldTableRecord();
  EXPECT_EQ(j, by_hand);
  EXPECT_EQ(j.dump(), by_hand.dump());
  EXPECT_TRUE(j["threads"].is_number_unsigned());
  EXPECT_TRUE(j["exit_code"].is_number_integer());
}

TEST(JsonFieldTableTest, WriteKeepsOtherMembers) {
  nlohmann::json j{{"streams", nlohmann::json::array()}};
  WriteJsonFields(kFieldTableFields, FullFieldTableRecord(), &j);
  EXPECT_TRUE(j.contains("streams"));
  EXPECT_EQ(j.size(), 9u);
}

TEST(JsonFieldTableTest, ReadsBackWhatItWrote) {
  FieldTableRecord r;
  std::string err;
  ASSERT_TRUE(ReadJsonFields(kFieldTableFields, WrittenFieldTableRecord(), &r, &err)) << err;
  const FieldTableRecord want = FullFieldTableRecord();
  EXPECT_EQ(r.scheduler, want.scheduler);
  EXPECT_EQ(r.stand_in, want.stand_in);
  EXPECT_EQ(r.seconds, want.seconds);
  EXPECT_EQ(r.exit_code, want.exit_code);
  EXPECT_EQ(r.offset, want.offset);
  EXPECT_EQ(r.threads, want.threads);
  EXPECT_EQ(r.bytes, want.bytes);
  EXPECT_EQ(r.label, want.label);
  // Parsed text holds the same values as the document built in memory.
  FieldTableRecord parsed;
  ASSERT_TRUE(ReadJsonFields(
      kFieldTableFields, nlohmann::json::parse(WrittenFieldTableRecord().dump()), &parsed, &err))
      << err;
  EXPECT_EQ(parsed.bytes, want.bytes);
  EXPECT_EQ(parsed.offset, want.offset);
}

TEST(JsonFieldTableTest, MissingRequiredKeyIsNamed) {
  nlohmann::json j = WrittenFieldTableRecord();
  j.erase("threads");
  FieldTableRecord r;
  std::string err;
  EXPECT_FALSE(ReadJsonFields(kFieldTableFields, j, &r, &err));
  EXPECT_EQ(err, "threads: missing");
}

TEST(JsonFieldTableTest, WrongKindIsGetJsonFieldsError) {
  const struct {
    const char* key;
    nlohmann::json value;
    const char* err;
  } cases[] = {
      {"scheduler", 3, "scheduler: expected a string"},
      {"stand_in", "yes", "stand_in: expected true or false"},
      {"seconds", "1", "seconds: expected a number"},
      {"exit_code", 1.5, "exit_code: expected an integer"},
      {"exit_code", int64_t{1} << 40, "exit_code: expected an integer"},
      {"threads", -1, "threads: expected a non-negative integer"},
      {"threads", uint64_t{1} << 33, "threads: expected a non-negative integer"},
      {"bytes", 1e56, "bytes: expected a non-negative integer"},
      {"label", nullptr, "label: expected a string"},
  };
  for (const auto& c : cases) {
    nlohmann::json j = WrittenFieldTableRecord();
    j[c.key] = c.value;
    FieldTableRecord r;
    std::string err;
    EXPECT_FALSE(ReadJsonFields(kFieldTableFields, j, &r, &err)) << c.key;
    EXPECT_EQ(err, c.err);
  }
}

TEST(JsonFieldTableTest, AbsentOptionalKeyKeepsTheMember) {
  nlohmann::json j = WrittenFieldTableRecord();
  j.erase("label");
  FieldTableRecord r;
  std::string err;
  ASSERT_TRUE(ReadJsonFields(kFieldTableFields, j, &r, &err)) << err;
  EXPECT_EQ(r.label, "unset");
  EXPECT_EQ(r.threads, 4u);
}

// kNullable: absent or null keeps the member (an optional entry would refuse the null); present,
// it is read with GetJsonField's rules.
TEST(JsonFieldTableTest, AbsentOrNullNullableKeyKeepsTheMember) {
  constexpr JsonField<FieldTableRecord> kNullableFields[] = {
      {"threads", &FieldTableRecord::threads, FieldPresence::kNullable},
      {"label", &FieldTableRecord::label, FieldPresence::kNullable}};
  FieldTableRecord r;
  std::string err;
  ASSERT_TRUE(ReadJsonFields(kNullableFields, {{"threads", nullptr}}, &r, &err)) << err;
  EXPECT_EQ(r.threads, 0u);
  EXPECT_EQ(r.label, "unset");
  ASSERT_TRUE(ReadJsonFields(kNullableFields, {{"threads", 3}, {"label", "x"}}, &r, &err)) << err;
  EXPECT_EQ(r.threads, 3u);
  EXPECT_EQ(r.label, "x");
  EXPECT_FALSE(ReadJsonFields(kNullableFields, {{"threads", -1}}, &r, &err));
  EXPECT_EQ(err, "threads: expected a non-negative integer");
}

TEST(JsonFieldTableTest, FirstBadKeyInTableOrderIsReported) {
  nlohmann::json j = WrittenFieldTableRecord();
  j.erase("bytes");
  j["seconds"] = "slow";
  FieldTableRecord r;
  std::string err;
  EXPECT_FALSE(ReadJsonFields(kFieldTableFields, j, &r, &err));
  EXPECT_EQ(err, "seconds: expected a number");
}

}  // namespace
}  // namespace elevbench
