// The progress log: how a run ended is said as it was, never "done" for a stopped run (#45,
// third newcomer pass: a SIGTERM'd run logged "tiobench: done in 8s").

#include "harness/core/progress.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace elevbench {
namespace {

// The lines `body` writes through a non-interactive Progress.
template <typename Body>
std::string LogOf(Body body) {
  std::FILE* f = std::tmpfile();
  EXPECT_NE(f, nullptr);
  Progress progress(f, /*interactive=*/false);
  body(progress);
  std::rewind(f);
  std::string text;
  char buf[256];
  while (std::fgets(buf, sizeof buf, f) != nullptr) text += buf;
  std::fclose(f);
  return text;
}

TEST(ProgressTest, AStoppedRunSaysHowManyCellsItDidNotDone) {
  const std::string stopped = LogOf([](Progress& p) {
    p.Start("tiobench", 12);
    for (int i = 0; i < 3; ++i) p.EndCell();
    p.Finish(/*stopped=*/true);
  });
  EXPECT_NE(stopped.find("tiobench: stopped after 0s, 3 of 12 cells done\n"), std::string::npos)
      << stopped;
  EXPECT_EQ(stopped.find("done in"), std::string::npos) << stopped;
  const std::string done = LogOf([](Progress& p) {
    p.Start("tiobench", 2);
    p.EndCell();
    p.EndCell();
    p.Finish();
  });
  EXPECT_NE(done.find("tiobench: done in 0s\n"), std::string::npos) << done;
}

}  // namespace
}  // namespace elevbench
