#pragma once
// `elevbench trend`: which series the user means (defaults, and one-line errors that list the
// valid choices), and the series over time with a significance verdict against the previous
// run. No printing here (reporters/history_text.cc renders).

#include <string>
#include <vector>

#include "harness/history/history_store.h"
#include "harness/stats/statistics.h"

namespace elevbench {

/// The significance level of a trend's change marks.
inline constexpr double kTrendAlpha = 0.05;

/// What the command line asked for. An empty field is chosen when the history leaves one
/// choice (or, for the metric, the section's first headline metric).
struct TrendRequest {
  std::string suite;
  std::string section;
  std::string row;  ///< "threads=4", or just "4" when that names one row
  std::string configuration;
  std::string metric;
  std::string host;
};

/// Resolves `request` against what `store` holds. err is one line naming what did not match
/// and listing the valid choices ("no section 'x' in tiobench (sections: seq_write, …)").
[[nodiscard]] bool ResolveTrendRequest(HistoryStore* store, const TrendRequest& request,
                                       SeriesKey* key, std::string* err);

/// The series `request` names in `store` (ResolveTrendRequest) and its points. False with err:
/// *bad_request when the request names no one series, else the store could not be read.
[[nodiscard]] bool ReadTrendSeries(HistoryStore* store, const TrendRequest& request, SeriesKey* key,
                                   std::vector<SeriesPoint>* points, bool* bad_request,
                                   std::string* err);

/// One run of a trend.
struct TrendPoint {
  SeriesPoint point;
  SampleSummary summary;  ///< of point.values with the metric's mean kind
  /// There is an earlier run with numbers; change_pct compares the means.
  bool has_previous = false;
  size_t previous_n = 0;  ///< n of that earlier run
  double change_pct = 0;
  /// Both this run and the previous one have n >= 2, so the U test was run.
  bool tested = false;
  UTestResult test;
  bool significant = false;  ///< tested and p < alpha
  /// "better", "worse" or "changed" (a metric without a better direction) when significant.
  std::string verdict;
};

/// A series over time.
struct Trend {
  SeriesKey key;
  MetricInfo metric;  ///< from the newest point
  double alpha = kTrendAlpha;
  std::vector<TrendPoint> points;
};

/// Summarises each point and compares it with the previous point that has numbers: change of
/// the mean in %, and a two-sided Mann–Whitney U test at `alpha` when both have n >= 2.
Trend BuildTrend(const SeriesKey& key, const std::vector<SeriesPoint>& points,
                 double alpha = kTrendAlpha);

/// The hosts of `points`, in the order they first appear: a series of more than one mixes
/// boxes, whose differences are no change of one box (`trend` says so).
std::vector<std::string> SeriesHosts(const std::vector<SeriesPoint>& points);

}  // namespace elevbench
