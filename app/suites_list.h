#pragma once
// `elevbench list WHAT`, drawn from the tables themselves (suites.h, the formats, the
// schedulers, the profiles) so that no list is kept twice. Nothing here prints.

#include <nlohmann/json.hpp>
#include <string>

namespace elevbench {

/// `elevbench list WHAT`: true when `what` names a list (suites, formats, schedulers or
/// profiles); else false with the one-line usage error that names them. Checked here, not by
/// CLI::IsMember: its "what: bogus not in {…}" named the placeholder.
[[nodiscard]] bool CheckListName(const std::string& what, std::string* err);

/// What `elevbench list WHAT` lists ("suites", "formats", "schedulers", anything else:
/// "profiles") as the JSON array `--json` prints, drawn from the tables themselves so that no
/// list is kept twice (scripts/killsweep reads `list suites --json`).
nlohmann::json ListJson(const std::string& what);

/// The text of `elevbench list WHAT` for people: one line an entry of `list` (ListJson's), its
/// name, then what a person wants to know of it.
std::string ListText(const std::string& what, const nlohmann::json& list);

}  // namespace elevbench
