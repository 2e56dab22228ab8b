// The table of suites: one entry per suite, naming its factory and its renderer. Adding a suite
// is a folder under scenarios/, a renderer under reporters/, and one line here.

#include "harness/run/suite.h"
#include "reporters/tiobench_text.h"
#include "scenarios/tiobench/tiobench_suite.h"

namespace elevbench {

const std::vector<SuiteEntry>& AllSuites() {
  static const std::vector<SuiteEntry> kSuites = {
      {"tiobench",
       "tiobench (tiotest + tiobench.pl, 2003 semantics)",
       MakeTiobenchSuite,
       {"nick", "tiobench"},
       RenderTiobenchReport},
  };
  return kSuites;
}

}  // namespace elevbench
