#include "reporters/history_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/core/strings.h"
#include "reporters/text_table.h"

namespace elevbench {
namespace {

// Four significant figures without an exponent: 47.12, 0.5383, 1620.
std::string HistoryNumber(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  const double a = std::fabs(v);
  const int decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string Percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", v);
  return buf;
}

const char* DirectionWords(Direction d) {
  switch (d) {
    case Direction::kHigherIsBetter:
      return "higher is better";
    case Direction::kLowerIsBetter:
      return "lower is better";
    case Direction::kNeither:
      return "neither direction is better";
  }
  return "";
}

}  // namespace

std::string HostShown(const std::string& host) {
  return TrimWhitespace(host).empty() ? "(none)" : host;
}

std::string MixedHostsNote(const std::vector<std::string>& hosts) {
  if (hosts.size() <= 1) return "";
  std::vector<std::string> shown;
  for (const std::string& host : hosts) shown.push_back(HostShown(host));
  return "the series mixes " + std::to_string(shown.size()) + " hosts (" + JoinWith(shown, ", ") +
         "): changes between them are not changes of one box; --host H follows one";
}

std::string RenderHistoryRuns(const std::vector<HistoryRun>& runs) {
  if (runs.empty()) return "no runs\n";
  std::vector<std::vector<std::string>> rows = {
      {"ID", "TIME", "HOST", "KERNEL", "SUITE", "TARGET", "CONFIGURATIONS", "OK", "FAILED"}};
  bool unfinished = false;
  for (const HistoryRun& r : runs) {
    unfinished = unfinished || !r.complete;
    rows.push_back({std::to_string(r.id) + (r.complete ? "" : "+"), r.start_time, HostShown(r.host),
                    r.kernel, r.suite, r.target.empty() ? "-" : r.target,
                    JoinWith(r.configurations, ","), std::to_string(r.cells_ok),
                    std::to_string(r.cells_failed + r.cells_interrupted)});
  }
  std::string out =
      RenderTextTable(rows, {true, false, false, false, false, false, false, true, true});
  if (unfinished) out += "+ the run did not finish (interrupted, or recorded while running)\n";
  return out;
}

nlohmann::json HistoryRunsToJson(const std::vector<HistoryRun>& runs) {
  nlohmann::json all = nlohmann::json::array();
  for (const HistoryRun& r : runs) {
    all.push_back({{"id", r.id},
                   {"start_time", r.start_time},
                   {"host", r.host},
                   {"kernel", r.kernel},
                   {"suite", r.suite},
                   {"target", r.target},
                   {"configurations", r.configurations},
                   {"results_path", r.results_path},
                   {"elevbench_version", r.elevbench_version},
                   {"command_line", r.command_line},
                   {"repetitions", r.repetitions},
                   {"cells_ok", r.cells_ok},
                   {"cells_failed", r.cells_failed},
                   {"cells_interrupted", r.cells_interrupted},
                   {"complete", r.complete},
                   {"recorded_at", r.recorded_at}});
  }
  return all;
}

std::string RenderTrend(const Trend& trend) {
  const SeriesKey& k = trend.key;
  const MetricInfo& m = trend.metric;
  const bool harmonic = m.mean == MeanKind::kHarmonic;
  std::string out =
      k.suite + " " + k.section + (k.row.empty() ? "" : " " + k.row) + ", configuration " +
      k.configuration + (k.host.empty() ? "" : ", host " + k.host) + ": " + m.name + " (" +
      SpelledUnit(m.unit) + ", " + DirectionWords(m.direction) + ", " +
      (harmonic ? "harmonic mean" : "mean") + " of the repetitions, 95% CI Student t)\n";
  char alpha[32];
  std::snprintf(alpha, sizeof alpha, "%g", trend.alpha);
  out += std::string("change: against the previous run; mark: two-sided Mann-Whitney U, alpha ") +
         alpha + ", needs n >= 2 in both runs\n";
  if (trend.points.empty()) return out + "no runs\n";
  std::vector<std::vector<std::string>> rows = {{"RUN", "TIME", "HOST", "KERNEL", "N",
                                                 harmonic ? "HMEAN" : "MEAN", "95% CI", "CHANGE",
                                                 "P", "MARK"}};
  for (const TrendPoint& t : trend.points) {
    const SampleSummary& s = t.summary;
    std::vector<std::string> row = {std::to_string(t.point.run_id), t.point.start_time,
                                    HostShown(t.point.host), t.point.kernel, std::to_string(s.n)};
    if (s.n == 0) {
      row.insert(row.end(), {"not measured", "-", "-", "-", ""});
    } else {
      row.push_back(HistoryNumber(s.mean));
      row.push_back(s.has_spread ? HistoryNumber(s.ci_low) + " .. " + HistoryNumber(s.ci_high)
                                 : "-");
      row.push_back(t.has_previous ? Percent(t.change_pct) : "-");
      if (t.tested) {
        char p[32];
        std::snprintf(p, sizeof p, "%.3f", t.test.p_value);
        row.push_back(p);
        row.push_back(t.significant ? "* " + t.verdict : "");
      } else {
        row.push_back("-");
        row.push_back(t.has_previous
                          ? "no test (n=" + std::to_string(std::min(s.n, t.previous_n)) + ")"
                          : "");
      }
    }
    if (t.point.not_measured > 0) {
      row.back() +=
          (row.back().empty() ? "" : ", ") + std::to_string(t.point.not_measured) + " not measured";
    }
    rows.push_back(std::move(row));
  }
  return out +
         RenderTextTable(rows, {true, false, false, false, true, true, false, true, true, false});
}

std::string RenderImportedRun(const std::string& file, AppendOutcome outcome, int64_t id) {
  const char* what = outcome == AppendOutcome::kAdded     ? "added as run "
                     : outcome == AppendOutcome::kUpdated ? "updated run "
                                                          : "already recorded as run ";
  return file + ": " + what + std::to_string(id) + "\n";
}

}  // namespace elevbench
