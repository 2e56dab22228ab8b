#pragma once
// Andrew Morton's nine "iosched" tests (lkml, 20-21 Feb 2003; docs/legacy-suites.md §4)
// as a suite: the post's files, trees and loads laid out once at the post's sizes (or --scale
// of them); each cell runs one test: parallel readers (#1, #5) started together, a copy of
// trees (#4), or one timed command beside a dd-like streaming writer or a cat-like streaming
// reader (#2, #3, #6-#9). #2/#3's `ssh testbox xterm -e true` becomes the cold start of a real
// program copied onto the target (harness/engine/cold_start.h). docs/morton.md.

#include <memory>

#include "harness/run/suite.h"

namespace elevbench {

/// Makes the morton suite (the table of suites calls this).
std::unique_ptr<Suite> MakeMortonSuite();

}  // namespace elevbench
