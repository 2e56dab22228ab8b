#pragma once
// The run history as text and JSON: the list of runs (`elevbench history`), one metric over
// time (`elevbench trend`), and what `elevbench history import` did with a file.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/history/history_store.h"
#include "harness/history/trend.h"

namespace elevbench {

/// A host as the history's texts show it: "(none)" for a run that recorded no host name (#45: a
/// blank column, and "mixes 2 hosts (, vm)"), as a guest's unset hostname reads.
std::string HostShown(const std::string& host);

/// One line per run, oldest first, under a header: id, time, host, kernel, suite, target,
/// configurations, cells ok/failed ("+" marks a run that did not finish). Columns are as wide
/// as their widest value.
std::string RenderHistoryRuns(const std::vector<HistoryRun>& runs);

/// The runs as a JSON array of objects, one per run, with every stored fact.
nlohmann::json HistoryRunsToJson(const std::vector<HistoryRun>& runs);

/// Two header lines (the series; the test and its alpha) and one line per run: id, time,
/// host, kernel, n, mean (or hmean), 95 % CI, change from the previous run, p, and the mark.
/// Not measured is never printed as a number: n = 0 prints "not measured", n = 1 has no CI and
/// "no test (n=1)".
std::string RenderTrend(const Trend& trend);

/// The note `trend` prints under a series whose points come from more than one of `hosts`
/// (SeriesHosts, in order): "the series mixes 2 hosts (a, b): changes between them are not
/// changes of one box; --host H follows one", each host as HostShown shows it. Empty for one.
std::string MixedHostsNote(const std::vector<std::string>& hosts);

/// The line `history import` prints for a file it recorded: "FILE: added as run 12", "FILE:
/// updated run 12" or "FILE: already recorded as run 12", with its newline.
std::string RenderImportedRun(const std::string& file, AppendOutcome outcome, int64_t id);

}  // namespace elevbench
