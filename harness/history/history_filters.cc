#include "harness/history/history_filters.h"

#include <algorithm>

#include "harness/core/strings.h"

namespace elevbench {

bool CheckHistorySuite(const std::string& suite, const std::vector<std::string>& known,
                       HistoryStore* store, std::string* err) {
  if (suite.empty() || std::find(known.begin(), known.end(), suite) != known.end()) return true;
  std::vector<std::string> recorded;
  if (!store->Suites(&recorded, err)) return false;
  if (std::find(recorded.begin(), recorded.end(), suite) != recorded.end()) return true;
  *err = "--suite " + suite + ": no such suite (suites: " + JoinWith(known, ", ") + ")";
  return false;
}

bool CheckHistoryHost(const std::string& host, HistoryStore* store, std::string* err) {
  if (host.empty()) return true;
  std::vector<HistoryRun> runs;
  if (!store->ListRuns({}, &runs, err)) return false;
  std::vector<std::string> hosts;
  for (const HistoryRun& r : runs) {
    if (r.host == host) return true;
    if (std::find(hosts.begin(), hosts.end(), r.host) == hosts.end()) hosts.push_back(r.host);
  }
  *err = "--host " + host + ": the history has no run from it (hosts: " +
         (hosts.empty() ? std::string("none yet") : JoinWith(hosts, ", ")) + ")";
  return false;
}

}  // namespace elevbench
