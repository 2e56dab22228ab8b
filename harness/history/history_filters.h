#pragma once
// The filters of `elevbench history` (--suite, --host) checked against the history before the
// runs are listed: a filter that can match nothing is refused with what there is named, as
// trend refuses it (#45 and the fourth newcomer pass: they listed "no runs", exit 0).

#include <string>
#include <vector>

#include "harness/history/history_store.h"

namespace elevbench {

/// `history --suite S`: true when `suite` is empty, one of `known` (the suites of this build,
/// from the caller: the library knows no table of suites) or one the history recorded (an
/// older build's); else false with "--suite S: no such suite (suites: …)", or the store's
/// error.
[[nodiscard]] bool CheckHistorySuite(const std::string& suite,
                                     const std::vector<std::string>& known, HistoryStore* store,
                                     std::string* err);

/// `history --host H`: true when `host` is empty or the history has a run from it; else false
/// with "--host H: the history has no run from it (hosts: …)", or the store's error.
[[nodiscard]] bool CheckHistoryHost(const std::string& host, HistoryStore* store, std::string* err);

}  // namespace elevbench
