// Each bio's completion from tracefs lines: whole, merged, split over two requests, never.

#include "harness/trace/bio_timing.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

constexpr char kTrace[] =
    "dd-10 [000] ..... 1.000000: block_bio_queue: 7,9 RS 100 + 8 [dd]\n"
    "dd-10 [000] ..... 1.000010: block_bio_queue: 7,9 RS 108 + 8 [dd]\n"
    "kw-11 [001] ..... 1.000020: block_bio_queue: 7,9 W 5000 + 512 [kworker/u8:1]\n"
    "kw-11 [001] ..... 1.000030: block_bio_queue: 7,9 W 9000 + 8 [kworker/u8:1]\n"
    "xx-12 [001] ..... 1.000040: block_bio_queue: 7,3 R 100 + 8 [other]\n"
    "<idle>-0 [000] ..s.. 1.004000: block_rq_complete: 7,9 RS () 100 + 16 be,0,4 [0]\n"
    "<idle>-0 [000] ..s.. 1.005000: block_rq_complete: 7,9 W () 5000 + 256 be,0,4 [0]\n"
    "<idle>-0 [000] ..s.. 1.009000: block_rq_complete: 7,9 W () 5256 + 256 be,0,4 [0]\n"
    "garbage line: block_rq_issue: nonsense\n";

TEST(BioTimingTest, ABioIsDoneWhenItsLastSectorIs) {
  uint64_t unreadable = 0;
  const std::vector<TimedBio> bios = TimeBiosFromTrace(kTrace, 7, 9, &unreadable);
  ASSERT_EQ(bios.size(), 4u);                                  // the other device's bio is not ours
  EXPECT_EQ(bios[0].done_ns - bios[0].bio.time_ns, 4000000u);  // merged into one request
  EXPECT_EQ(bios[1].done_ns - bios[1].bio.time_ns, 3990000u);
  EXPECT_EQ(bios[2].done_ns - bios[2].bio.time_ns, 8980000u);  // split: the second half ends it
  EXPECT_EQ(bios[3].done_ns, 0u);                              // never completed
  EXPECT_EQ(bios[2].bio.pid, 11);
  EXPECT_EQ(unreadable, 1u);
}

}  // namespace
}  // namespace elevbench
