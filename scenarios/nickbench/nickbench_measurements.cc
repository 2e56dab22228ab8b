#include "scenarios/nickbench/nickbench_measurements.h"

#include "scenarios/nickbench/nickbench_records.h"

namespace elevbench {
namespace {

// The bench's own metric: which way is better follows from what it measures
// (docs/legacy-suites.md §3). Benches 3 and 4 are ordered ratios of two equal streams, 1 being
// fair and either side not: they describe, and the fairness index below ranks.
// Its name in measurements (csv, compare, history) says what it is; the records keep the field
// `metric` (#45: a csv metric named "metric").
std::string BenchMetricName(int bench) {
  switch (bench) {
    case 2:
      return "reads_per_write";
    case 3:
      return "reads_per_read";
    case 4:
      return "writes_per_write";
    case 5:
      return "cpu_time_per_mib";
    case 6:
      return "greatest_unfairness";
    default:
      return "metric";
  }
}

MetricInfo BenchMetric(int bench) {
  MetricInfo info{BenchMetricName(bench),
                  NickbenchMetricUnit(bench),
                  Direction::kNeither,
                  MeanKind::kArithmetic,
                  true,
                  NickbenchMetricName(bench)};
  switch (bench) {
    case 2:  // reads per write: low = the writer starves the reader
    case 6:  // min / max of four readers: 1 = fair
      info.direction = Direction::kHigherIsBetter;
      break;
    case 5:  // CPU per MiB moved
      info.direction = Direction::kLowerIsBetter;
      break;
    default:
      info.headline = false;
      break;
  }
  return info;
}

// A bench with readers beside writers (bench 2): the readers' MB/s, what `run nickbench
// --controls` protects, and the writers', the load whose cost the protection report weighs
// (harness/stats/protection.h). Both over the bench's elapsed time, as its IO Rate; the writers
// write through the page cache, so theirs is the page cache's rate (the disk's once dirty
// throttling holds them).
void AddRoleRates(const NickbenchRecord& r, const RecordMeasurements& add) {
  uint64_t read = 0, written = 0;
  for (const StreamResult& s : r.streams) {
    if (s.direction == "read") read += s.bytes_read;
    if (s.direction == "write") written += s.bytes_written;
  }
  if (read == 0 || written == 0 || r.elapsed_seconds <= 0) return;
  const double mib = 1024.0 * 1024.0;
  MetricInfo readers{"readers_mb_s",      "MB/s", Direction::kHigherIsBetter,
                     MeanKind::kHarmonic, false,  "Readers' rate"};
  readers.protected_measure = true;
  add(readers, static_cast<double>(read) / mib / r.elapsed_seconds);
  add({"writers_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false,
       "Writers' rate", true, true},
      static_cast<double>(written) / mib / r.elapsed_seconds);
}

}  // namespace

bool NickbenchMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                           std::string* err) {
  std::vector<NickbenchRecord> records;
  if (!NickbenchRecordsFromDocument(doc, &records, err)) return false;
  for (const NickbenchRecord& r : records) {
    const RecordMeasurements add("nickbench", "bench" + std::to_string(r.bench), r, out);
    add({"io_rate_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, true, "IO Rate"},
        r.io_rate_mb_s);
    add(BenchMetric(r.bench), r.metric);
    if (r.streams.size() > 1) {
      // Benches 3 and 4 rank by it: its verdict line names the table's metric it is computed
      // from ("Reads per read", #45: "Jain fairness index" was in no table of the seed layout).
      const bool ranks = r.bench == 3 || r.bench == 4;
      add({"jain_index", "index", Direction::kHigherIsBetter, MeanKind::kArithmetic, ranks,
           ranks ? NickbenchMetricName(r.bench) + ", as Jain's fairness index (1 = fair)"
                 : std::string("Jain fairness index")},
          r.fairness.jain_index);
      add({"min_max_ratio", "ratio", Direction::kHigherIsBetter, MeanKind::kArithmetic, false},
          r.fairness.min_max_ratio);
    }
    add({"cpu_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
        r.cpu_seconds);
    AddRoleRates(r, add);
  }
  return true;
}

bool NickbenchPlotSeries(const ResultsDocument& doc, PlotSeries* out, std::string* err) {
  std::vector<NickbenchRecord> records;
  if (!NickbenchRecordsFromDocument(doc, &records, err)) return false;
  LatencyGroupCollector collector;
  std::vector<StreamRun> runs;
  for (const NickbenchRecord& r : records) {
    const std::string section = "bench" + std::to_string(r.bench);
    for (const StreamResult& s : r.streams) {
      collector.Add(section, s.direction + " streams", r.identifier, s.latency);
    }
    if (HasThroughputSeries(r.streams)) {
      runs.push_back({section, r.identifier, r.repetition, r.streams});
    }
  }
  out->latency_groups = collector.Take(IdentifierOrder(doc));
  out->stream_runs = FirstRunOfEachConfiguration(std::move(runs), IdentifierOrder(doc));
  return true;
}

}  // namespace elevbench
