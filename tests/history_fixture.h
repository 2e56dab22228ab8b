#pragma once
// What the run history's tests (history*_test.cc) share: tiobench runs made from a golden file,
// the series they fill, and a fresh SQLite database.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/suites.h"
#include "harness/history/history_store.h"
#include "test_util.h"

namespace elevbench::testing {

/// tests/golden/results_small.json (tiobench, mq-deadline and bfq:low_latency=0, threads 1, one
/// repetition) as one run at `start_time` on `host`, repeated once per value of `dl_seq_read`:
/// repetition r has mq-deadline's seq_read rate set to dl_seq_read[r].
inline ResultsDocument TiobenchRun(const std::string& start_time, const std::string& host,
                                   const std::vector<double>& dl_seq_read) {
  ResultsDocument base;
  std::string err;
  EXPECT_TRUE(LoadResultsFile(testing::TestDataPath("golden/results_small.json"), &base, &err))
      << err;
  ResultsDocument doc = base;
  doc.context["start_time"] = start_time;
  doc.context["hostname"] = host;
  doc.context["command_line"] = "elevbench run tiobench --dir /x";
  doc.context["repetitions"] = dl_seq_read.size();
  doc.context["target"] = {{"kind", "directory"}, {"path", "/x"}, {"filesystem", "ext4"}};
  doc.records.clear();
  doc.cells.clear();
  for (uint32_t rep = 0; rep < dl_seq_read.size(); ++rep) {
    for (CellRecord cell : base.cells) {
      cell.repetition = rep;
      doc.cells.push_back(cell);
    }
    for (nlohmann::json record : base.records) {
      record["repetition"] = rep;
      if (record["identifier"] == "6.18.44-dl" && record["phase"] == "seq_read") {
        record["metrics"]["rate_mb_s"] = dl_seq_read[rep];
      }
      doc.records.push_back(record);
    }
  }
  return doc;
}

/// The series of mq-deadline's seq_read rate in TiobenchRun's documents.
inline SeriesKey DlSeqRead() {
  return {"tiobench", "seq_read", "threads=1", "mq-deadline", "rate_mb_s", ""};
}

/// What `run` hands the history with a run: its measurements, made by its suite's measurer.
inline std::vector<Measurement> MeasurementsFor(const ResultsDocument& doc) {
  std::vector<Measurement> measurements;
  std::string err;
  EXPECT_TRUE(MeasurementsOf(doc, &measurements, &err)) << err;
  return measurements;
}

/// True when `s` is one line: a message that is not empty and holds no newline.
inline bool OneLine(const std::string& s) {
  return !s.empty() && s.find('\n') == std::string::npos;
}

/// A fresh SQLite history database, history.db in a temporary directory (not created yet).
class HistorySqliteTest : public ::testing::Test {
 protected:
  ScopedTempDir temp_;
  const std::string db_ = temp_.path() + "/history.db";
};

}  // namespace elevbench::testing
