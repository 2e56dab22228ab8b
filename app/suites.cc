// The table of suites: one entry per suite, naming its factory, its renderer and its measurer.
// Adding a suite is a folder under scenarios/, a renderer under reporters/, and one entry here
// (tests/skeleton_suite_test.cc has every part, its row too, in one file).

#include "app/suites.h"

#include "harness/stats/trace_measurements.h"
#include "reporters/command_text.h"
#include "reporters/contest_text.h"
#include "reporters/fiojobs_text.h"
#include "reporters/morton_text.h"
#include "reporters/nickbench_text.h"
#include "reporters/orasim_text.h"
#include "reporters/post2003_text.h"
#include "reporters/probes_text.h"
#include "reporters/replay_text.h"
#include "reporters/tiobench_text.h"
#include "reporters/visave_text.h"
#include "scenarios/command/command_measurements.h"
#include "scenarios/command/command_suite.h"
#include "scenarios/contest/contest_measurements.h"
#include "scenarios/contest/contest_suite.h"
#include "scenarios/contest/contest_worker_commands.h"
#include "scenarios/fiojobs/fiojobs_measurements.h"
#include "scenarios/fiojobs/fiojobs_suite.h"
#include "scenarios/morton/morton_measurements.h"
#include "scenarios/morton/morton_suite.h"
#include "scenarios/nickbench/nickbench_measurements.h"
#include "scenarios/nickbench/nickbench_suite.h"
#include "scenarios/orasim/orasim_measurements.h"
#include "scenarios/orasim/orasim_suite.h"
#include "scenarios/post2003/post2003_suite.h"
#include "scenarios/probes/probe_measurements.h"
#include "scenarios/probes/probes_suite.h"
#include "scenarios/replay/replay_engine.h"
#include "scenarios/replay/replay_measurements.h"
#include "scenarios/replay/replay_suite.h"
#include "scenarios/tiobench/tiobench_measurements.h"
#include "scenarios/tiobench/tiobench_suite.h"
#include "scenarios/visave/visave_measurements.h"
#include "scenarios/visave/visave_suite.h"

namespace elevbench {

namespace {

// The suites of the user's own workload (docs/fio-jobs.md, docs/replay.md).
SuiteEntry FioJobsEntry() {
  return {.name = "fio",
          .description = "Your own fio job files, one variant per file, placed on the target",
          .make = MakeFioJobsSuite,
          .formats = {"table"},
          .render = RenderFioJobsReport,
          .measure = FioJobsMeasurements,
          .smoke_args =
              "--schedulers none,mq-deadline tests/fixtures/fiojobs/two-jobs.fio "
              "--fio-set runtime=1",
          .lanes_refused =
              "a job file sets its own jobs, depths and CPU use (numjobs, "
              "iodepth, cpus_allowed), which a lane's cpuset would change unseen"};
}

SuiteEntry ReplayEntry() {
  return {.name = "replay",
          .description =
              "A block trace made by `elevbench capture`, replayed on a raw device by "
              "elevbench's dependent replayer (each I/O after what it waited for; "
              "--replayer fio: fio at the recorded times)",
          .make = MakeReplaySuite,
          .formats = {"table"},
          .render = RenderReplayReport,
          .measure = ReplayMeasurements,
          .smoke_args = "--schedulers none,mq-deadline --trace tests/fixtures/trace/small.trace",
          .lanes_refused =
              "it replays onto a raw device, where a lane's cache drop (a remount "
              "of its filesystem) has nothing to remount"};
}

// The user's program itself (docs/command.md). Its smoke run writes and reads a few MB beside
// a writing load; the program comes last, after `--`.
SuiteEntry CommandEntry() {
  return {.name = "command",
          .description =
              "Your own program (after --) under every configuration, beside an "
              "optional background load",
          .make = MakeCommandSuite,
          .formats = {"nick"},
          .render = RenderCommandReport,
          .measure = CommandMeasurements,
          .smoke_args =
              "--schedulers none,mq-deadline --load seq-write --load-size 32 "
              "--warmup 0.5 --space 32 -- sh -c 'dd if=/dev/zero of=f bs=1M count=8 "
              "conv=fsync && cat f >/dev/null'",
          .needs_timeout = true,
          .lanes_refused =
              "as root it drops the machine's clean caches before the program "
              "runs, in the middle of the other lanes' cells"};
}

// Nick Piggin's whole post (docs/post-2003.md): a composite of the table's suites.
SuiteEntry Post2003Entry() {
  return {.name = "post-2003",
          .description =
              "Nick Piggin's whole post of 25/27 Mar 2003: probes, contest, tiobench, "
              "OraSim, nickbench",
          .make = [] { return MakePost2003Suite(PartSuiteOfTable); },
          .formats = {"nick", "beside-2003"},
          .render = RenderPost2003Parts,
          .measure =
              [](const ResultsDocument& doc, std::vector<Measurement>* out, std::string* err) {
                return CompositeMeasurements(doc, PartSuiteOfTable, out, err);
              },
          .defaults = {"ide-2003", "ext2", "p4-2003", kPost2003Schedulers},
          .smoke_args =
              "--schedulers none,mq-deadline --parts tiobench,nickbench "
              "--part-args 'tiobench=--size 16 --threads 1 --random 100' "
              "--part-args 'nickbench=--benches 2 --size 8'",
          // Its parts take lanes as they do on their own: with --lanes, tiobench's and
          // nickbench's cells share the lanes, then the others' run alone (docs/lanes.md).
          .lane_cpus = 1};
}

// Con Kolivas's contest (docs/contest.md).
// As a smaller machine, so a smoke run makes and removes the cgroups too (--memory sizes
// the loads to the 256 MB targets).
SuiteEntry ContestEntry() {
  return {.name = "contest",
          .description =
              "Con Kolivas's contest: a kernel-like compile timed beside each of eleven loads",
          .make = MakeContestSuite,
          .formats = {"contest", "nick"},
          .render = RenderContestReport,
          .measure = ContestMeasurements,
          .smoke_args =
              "--schedulers none,mq-deadline --loads no_load,io_load --compile-size 6 "
              "--memory 24 --warmup 0.5 --machine ram=192M,cpus=1",
          // The compile is CPU-bound: it wants a CPU of its own beside the loads and the disk.
          .lane_cpus = 2,
          .tables_show_identifiers = true};
}

}  // namespace

const std::vector<SuiteEntry>& AllSuites() {
  static const std::vector<SuiteEntry> kSuites = {
      {.name = "tiobench",
       .description = "tiobench (tiotest + tiobench.pl, 2003 semantics)",
       .make = MakeTiobenchSuite,
       .formats = {"nick", "tiobench"},
       .render = RenderTiobenchReport,
       .measure = TiobenchMeasurements,
       .plot_series = TiobenchPlotSeries,
       .smoke_args = "--schedulers none,mq-deadline --size 16 --threads 1 --random 100",
       .lane_cpus = 1,
       .tables_show_identifiers = true},
      {.name = "nickbench",
       .description = "Nick Piggin's Benches 2-6: streaming readers and writers side by side",
       .make = MakeNickbenchSuite,
       .formats = {"nick"},
       .render = RenderNickbenchReport,
       .measure = NickbenchMeasurements,
       .plot_series = NickbenchPlotSeries,
       .smoke_args = "--schedulers none,mq-deadline --benches 2,5 --size 8",
       .lane_cpus = 1},
      {.name = "probes",
       .description = "cat / ls -lR of a source tree during a streaming read or write",
       .make = MakeProbesSuite,
       .formats = {"nick"},
       .render = RenderProbesReport,
       .measure = ProbeMeasurements,
       .plot_series = ProbePlotSeries,
       .smoke_args = "--schedulers none,mq-deadline --tree-size 4 --load-size 32 --warmup 1 "
                     "--probes cat-during-write,ls-during-read",
       .lanes_refused = "as root it drops the machine's clean caches, dentries and inodes, right "
                        "before each probe, in the middle of the other lanes' cells"},
      {.name = "orasim",
       .description =
           "OraSim stand-in: an OLTP-like fio job (random 8 KiB reads, sync writes, a sync log)",
       .make = MakeOrasimSuite,
       .formats = {"nick"},
       .render = RenderOrasimReport,
       .measure = OrasimMeasurements,
       .smoke_args = "--schedulers none,mq-deadline --size 32 --runtime 2 --runs 1 --readers 2"},
      Post2003Entry(),
      {.name = "morton",
       .description = "Andrew Morton's nine iosched tests (2003): parallel readers, interactivity, "
                      "small files",
       .make = MakeMortonSuite,
       .formats = {"akpm"},
       .render = RenderMortonReport,
       .measure = MortonMeasurements,
       // morton's files need 275 MiB even at a fiftieth of the post's sizes.
       .smoke_args = "--schedulers none,mq-deadline --tests 1,2,4,9 --scale 0.02 --warmup 0.5",
       .smoke_size = "512M",
       .lanes_refused = "it drops the machine's clean caches, dentries and inodes, before its "
                        "timed reads, in the middle of the other lanes' cells"},
      {.name = "visave",
       .description =
           "vi-style saves (write, fsync, rename) of a 200-byte file during a buffered writer",
       .make = MakeVisaveSuite,
       .formats = {"lkml"},
       .render = RenderVisaveReport,
       .measure = VisaveMeasurements,
       .smoke_args = "--schedulers none,mq-deadline --saves 3 --interval 0.3 --load-size 32 "
                     "--warmup 0.5"},
      ContestEntry(),
      FioJobsEntry(),
      ReplayEntry(),
      CommandEntry(),
  };
  return kSuites;
}

const std::vector<InternalCommand>& AllInternalCommands() {
  static const std::vector<InternalCommand> kCommands = {
      {"mem-load", "One iteration of contest's mem_load", AddMemLoadCommand},
      {"process-ring", "One iteration of contest's process_load", AddProcessRingCommand},
      {"replay-engine", "The dependent replayer of run replay, for one cell",
       AddReplayEngineCommand},
  };
  return kCommands;
}

const SuiteEntry* FindSuite(const std::string& name) {
  for (const SuiteEntry& e : AllSuites()) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

bool PartSuiteOfTable(const std::string& suite, PartSuite* out) {
  const SuiteEntry* e = FindSuite(suite);
  if (e == nullptr) return false;
  *out = {e->make, e->measure, e->lane_cpus};
  return true;
}

namespace {

// The suite's own measurements, then the request tracer's: what MeasurerOf hands out.
bool SuiteAndTraceMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                               std::string* err) {
  const SuiteEntry* entry = FindSuite(doc.suite);
  if (entry == nullptr) {
    *err = "unknown suite '" + doc.suite + "'";
    return false;
  }
  if (entry->measure == nullptr) {
    *err = "suite '" + doc.suite + "' has no measurements";
    return false;
  }
  if (!entry->measure(doc, out, err)) return false;
  AppendRequestTraceMeasurements(doc, out);
  return true;
}

}  // namespace

SuiteMeasurer MeasurerOf(const std::string& suite) {
  const SuiteEntry* entry = FindSuite(suite);
  return entry == nullptr || entry->measure == nullptr ? nullptr : SuiteAndTraceMeasurements;
}

bool MeasurementsOf(const ResultsDocument& doc, std::vector<Measurement>* out, std::string* err) {
  return SuiteAndTraceMeasurements(doc, out, err);
}

bool PlotSeriesOf(const ResultsDocument& doc, PlotSeries* out, std::string* err) {
  const SuiteEntry* entry = FindSuite(doc.suite);
  if (entry == nullptr) {
    *err = "unknown suite '" + doc.suite + "'";
    return false;
  }
  *out = PlotSeries{};
  if (entry->plot_series != nullptr && !entry->plot_series(doc, out, err)) return false;
  out->trace_groups = TraceGroupsOf(doc);
  return true;
}

bool MetricRowsOf(const ResultsDocument& doc, std::vector<MetricRow>* rows, std::string* err) {
  std::vector<Measurement> measurements;
  if (!MeasurementsOf(doc, &measurements, err)) return false;
  *rows = MetricRowsFrom(doc, std::move(measurements));
  return true;
}

}  // namespace elevbench
