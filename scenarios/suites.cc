// The table of suites: one entry per suite, naming its factory and its renderer. Adding a suite
// is a folder under scenarios/, a renderer under reporters/, and one entry here.

#include "harness/run/suite.h"
#include "reporters/contest_text.h"
#include "reporters/morton_text.h"
#include "reporters/nickbench_text.h"
#include "reporters/orasim_text.h"
#include "reporters/post2003_text.h"
#include "reporters/probes_text.h"
#include "reporters/tiobench_text.h"
#include "reporters/visave_text.h"
#include "scenarios/contest/contest_measurements.h"
#include "scenarios/contest/contest_suite.h"
#include "scenarios/morton/morton_measurements.h"
#include "scenarios/morton/morton_suite.h"
#include "scenarios/nickbench/nickbench_measurements.h"
#include "scenarios/nickbench/nickbench_suite.h"
#include "scenarios/orasim/orasim_measurements.h"
#include "scenarios/orasim/orasim_suite.h"
#include "scenarios/post2003/post2003_suite.h"
#include "scenarios/probes/probe_measurements.h"
#include "scenarios/probes/probes_suite.h"
#include "scenarios/tiobench/tiobench_measurements.h"
#include "scenarios/tiobench/tiobench_suite.h"
#include "scenarios/visave/visave_measurements.h"
#include "scenarios/visave/visave_suite.h"

namespace elevbench {

const std::vector<SuiteEntry>& AllSuites() {
  static const std::vector<SuiteEntry> kSuites = {
      {"tiobench",
       "tiobench (tiotest + tiobench.pl, 2003 semantics)",
       MakeTiobenchSuite,
       {"nick", "tiobench"},
       RenderTiobenchReport,
       TiobenchMeasurements},
      {"nickbench",
       "Nick Piggin's Benches 2-6: streaming readers and writers side by side",
       MakeNickbenchSuite,
       {"nick"},
       RenderNickbenchReport,
       NickbenchMeasurements},
      {"probes",
       "cat / ls -lR of a source tree during a streaming read or write",
       MakeProbesSuite,
       {"nick"},
       RenderProbesReport,
       ProbeMeasurements},
      {"orasim",
       "OraSim stand-in: an OLTP-like fio job (random 8 KiB reads, sync writes, a sync log)",
       MakeOrasimSuite,
       {"nick"},
       RenderOrasimReport,
       OrasimMeasurements},
      {"post-2003",
       "Nick Piggin's whole post of 25/27 Mar 2003: probes, contest, tiobench, OraSim, nickbench",
       MakePost2003Suite,
       {"nick", "beside-2003"},
       RenderPost2003Report,
       CompositeMeasurements,
       {"ide-2003", "ext2", "p4-2003", kPost2003Schedulers}},
      {"morton",
       "Andrew Morton's nine iosched tests (2003): parallel readers, interactivity, small files",
       MakeMortonSuite,
       {"akpm"},
       RenderMortonReport,
       MortonMeasurements},
      {"visave",
       "vi-style saves (write, fsync, rename) of a 200-byte file during a buffered writer",
       MakeVisaveSuite,
       {"lkml"},
       RenderVisaveReport,
       VisaveMeasurements},
      {"contest",
       "Con Kolivas's contest: a kernel-like compile timed beside each of eleven loads",
       MakeContestSuite,
       {"contest", "nick"},
       RenderContestReport,
       ContestMeasurements},
  };
  return kSuites;
}

}  // namespace elevbench
