// The OraSim stand-in's report: the OraSim rows of Nick Piggin's post (seed 000, 27 Mar 2003)
// come out in the seed's shape from records holding those scores, runs average harmonically
// over repetitions, and the title says the numbers come from a stand-in.

#include "reporters/orasim_text.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace elevbench {
namespace {

OrasimRecord MakeOrasimRecord(const std::string& id, const std::string& label, uint32_t repetition,
                              int run, double score) {
  OrasimRecord r;
  r.identifier = id;
  r.label = label;
  r.scheduler = id;
  r.repetition = repetition;
  r.run = run;
  r.elapsed_seconds = 60;
  r.read_ops = static_cast<uint64_t>(score * 60);
  r.score_ops_s = score;
  return r;
}

ResultsDocument OrasimDocument(const std::vector<OrasimRecord>& records) {
  ResultsDocument doc;
  doc.suite = "orasim";
  for (const OrasimRecord& r : records) doc.records.push_back(OrasimRecordToJson(r));
  return doc;
}

TEST(OrasimTextTest, TheSeedsRowsComeOutInItsShape) {
  const ResultsDocument doc = OrasimDocument(
      {MakeOrasimRecord("k-dl", "DL", 0, 1, 132), MakeOrasimRecord("k-dl", "DL", 0, 2, 144),
       MakeOrasimRecord("k-as", "AS", 0, 1, 129), MakeOrasimRecord("k-as", "AS", 0, 2, 140),
       MakeOrasimRecord("k-cf", "CF", 0, 1, 97), MakeOrasimRecord("k-cf", "CF", 0, 2, 121)});
  std::string text, err;
  ASSERT_TRUE(RenderOrasimReport(doc, "nick", &text, &err)) << err;
  EXPECT_EQ(text, std::string(kOrasimHeading) +
                      "\n"
                      "DL - 132, 144\n"
                      "AS - 129, 140\n"
                      "CF - 97, 121\n");
  EXPECT_NE(text.find("stand-in"), std::string::npos);
}

TEST(OrasimTextTest, RepetitionsOfARunAverageHarmonically) {
  const ResultsDocument doc = OrasimDocument(
      {MakeOrasimRecord("k-dl", "DL", 0, 1, 100), MakeOrasimRecord("k-dl", "DL", 1, 1, 300)});
  std::string text, err;
  ASSERT_TRUE(RenderOrasimReport(doc, "nick", &text, &err)) << err;
  EXPECT_NE(text.find("DL - 150\n"), std::string::npos) << text;  // 2/(1/100+1/300)
  EXPECT_NE(text.find("means of 2 repetitions"), std::string::npos) << text;
}

TEST(OrasimTextTest, RecordsRoundTripAndBadOnesAreRefused) {
  OrasimRecord r = MakeOrasimRecord("k-dl", "DL", 2, 1, 123.5);
  r.write_ops = 7;
  r.log_ops = 9;
  OrasimRecord back;
  std::string err;
  ASSERT_TRUE(OrasimRecordFromJson(OrasimRecordToJson(r), &back, &err)) << err;
  EXPECT_EQ(OrasimRecordToJson(back), OrasimRecordToJson(r));
  nlohmann::json bad = OrasimRecordToJson(r);
  bad["run"] = 0;
  EXPECT_FALSE(OrasimRecordFromJson(bad, &back, &err));
  bad = OrasimRecordToJson(r);
  bad.erase("score_ops_s");
  EXPECT_FALSE(OrasimRecordFromJson(bad, &back, &err));
  EXPECT_EQ(err, "score_ops_s: missing");
  std::string text;
  EXPECT_FALSE(RenderOrasimReport(OrasimDocument({r}), "tiobench", &text, &err));
}

}  // namespace
}  // namespace elevbench
