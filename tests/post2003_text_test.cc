// The post-2003 report: the seed's rows are all found (82 lines: probes, contest, tiobench with
// thread counts, OraSim, nickbench), each today's row gets the seed's line of its own section,
// label and thread count, and rows without a 2003 counterpart get none.

#include "reporters/post2003_text.h"

#include <gtest/gtest.h>

#include "harness/results/results_document.h"
#include "reporters/seed_2003.h"
#include "test_util.h"

namespace elevbench {
namespace {

TEST(Post2003TextTest, EverySeedRowIsKeyedBySectionLabelAndThreads) {
  const auto& rows = Seed2003Rows();
  EXPECT_EQ(rows.size(), 82u);
  const auto at = [&](const std::string& section, const std::string& label,
                      const std::string& threads) {
    const auto it = rows.find(PostRowKey{section, label, threads});
    return it == rows.end() ? std::string("(none)") : it->second;
  };
  EXPECT_EQ(at("Cat kernel source during seq write", "CF", ""), "CF - N/A");
  EXPECT_EQ(at("io_load:", "AS", ""), "2.5.65-mm4-as 1 100 70.0 81.2 22.0 1.45");
  EXPECT_EQ(at("Random Reads", "DL", "256"),
            "2.5.65-mm4-dl 256 0.61 0.480% 1064.411 16058.51 3.02 2.68 127");
  EXPECT_EQ(at("Sequential Writes", "CF", "16"), "(none)");  // CFQ ran 1 and 4 threads only
  EXPECT_EQ(at("OraSim", "CF", ""), "CF - 97, 121");
  EXPECT_EQ(at("Bench 6", "CF", ""),
            "CF - IO Rate: 11.27 MB/s, Greatest unfairness between 4 readers: 0.5");
}

TEST(Post2003TextTest, EachRowGetsTheSeedsLineOfItsOwnSectionLabelAndThreads) {
  const std::string today =
      "Cat kernel source during seq read\n"
      "DL - 0.12user 0.92system 1:19.74elapsed\n"
      "NONE - 0.10user 0.90system 1:00.00elapsed\n"
      "io_load:\n"
      "Kernel         [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio\n"
      "6.18.44-AS          1\t90\t70.0\t81.2\t22.0\t1.30\n"
      "Sequential Reads\n"
      "6.18.44-DL        4   26.07  5.01%     0.359       12.00   0.00  0.00   256\n"
      "Bench 3 - 2 threads, streaming readers\n"
      "CF - IO Rate: 20.00 MB/s, Reads per read: 1.00\n";
  const std::string beside = AddSeed2003Lines(today);
  const std::string body = beside.substr(beside.find('\n') + 1);
  EXPECT_EQ(body,
            "Cat kernel source during seq read\n"
            "DL - 0.12user 0.92system 1:19.74elapsed\n"
            "  2003: DL - 0.03user 0.13system 5:21.39elapsed\n"
            "NONE - 0.10user 0.90system 1:00.00elapsed\n"
            "io_load:\n"
            "Kernel         [runs]\tTime\tCPU%\tLoads\tLCPU%\tRatio\n"
            "6.18.44-AS          1\t90\t70.0\t81.2\t22.0\t1.30\n"
            "  2003: 2.5.65-mm4-as 1 100 70.0 81.2 22.0 1.45\n"
            "Sequential Reads\n"
            "6.18.44-DL        4   26.07  5.01%     0.359       12.00   0.00  0.00   256\n"
            "  2003: 2.5.65-mm4-dl 4 11.47 2.500% 1.358 86.84 0.00 0.00 459\n"
            "Bench 3 - 2 threads, streaming readers\n"
            "CF - IO Rate: 20.00 MB/s, Reads per read: 1.00\n"
            "  2003: CF - IO Rate: 11.93 MB/s, Reads per read: 0.99\n");
  EXPECT_NE(beside.find("Nick Piggin"), std::string::npos);
}

TEST(Post2003TextTest, OnlyItsTwoFormatsAreTaken) {
  ResultsDocument doc;
  doc.suite = "post-2003";
  std::string text, err;
  EXPECT_FALSE(RenderPost2003Parts(doc, "md", &text, &err));
  EXPECT_TRUE(RenderPost2003Parts(doc, "nick", &text, &err)) << err;
}

// A small post-2003 run (every part, tiny sizes, on a plain directory; its records copied under
// the seed's DL and AS labels so that the 2003 lines have rows to go under), in both formats.
TEST(Post2003TextTest, GoldenReportsInBothFormats) {
  ResultsDocument doc;
  std::string err;
  ASSERT_TRUE(LoadResultsFile(testing::TestDataPath("fixtures/post2003_small.json"), &doc, &err))
      << err;
  std::string nick, beside;
  ASSERT_TRUE(RenderPost2003Parts(doc, "nick", &nick, &err)) << err;
  ASSERT_TRUE(RenderPost2003Parts(doc, "beside-2003", &beside, &err)) << err;
  testing::ExpectPrintedMatchesGolden("post2003_small.txt", doc, "nick", nick);
  testing::ExpectPrintedMatchesGolden("post2003_small_beside.txt", doc, "beside-2003", beside);
  EXPECT_EQ(nick.find("Contest\nContest"), std::string::npos) << "the heading is printed once";
}

}  // namespace
}  // namespace elevbench
