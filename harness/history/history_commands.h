#pragma once
// The steps of `elevbench history`, `history import` and `trend` below their command line
// (app/cli/cmd_history.cc parses the flags into a HistoryCommandConfig and prints what these
// return): the runs listed after the filters are checked (history_filters.h), import's options
// checked against the list's and its database's folder before any file is read (#45), and the
// trend's series read and built (trend.h). Nothing here prints; each failure says whether it
// is the command line's (exit 2) or the history's (exit 1).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/history/history_store.h"
#include "harness/history/trend.h"

namespace elevbench {

/// The flags of `history`, `history import` and `trend`, as the CLI parsed them.
struct HistoryCommandConfig {
  std::string db;  ///< "--db": an SQLite file or a postgresql:// URI; empty = the default
  std::string suite, section, row, configuration, metric, host;
  uint32_t last = 0;               ///< `history --last N`; 0 = every run
  bool json = false;               ///< `history --json`
  std::vector<std::string> files;  ///< `history import FILE…`
  bool replace = false;            ///< `history import --replace`
  std::string import_db;  ///< `history import --db`: merged into db (CheckHistoryImportOptions)
};

/// The help of --db of `history`, `history import` and `trend`: one wording for the three.
inline constexpr const char* kHistoryDbHelp =
    "History database: an SQLite file, or postgresql://user@host/db for one shared by many "
    "test boxes (default results/history.db)";

/// One text flag of `history` or `trend` that sets a field of HistoryCommandConfig: the flags
/// as data beside their config (as run/run_flags.h is run's), so that the CLI adds one option
/// per row in the table's order, the order of --help.
struct HistoryFlag {
  const char* name;                          ///< "--suite"
  std::string HistoryCommandConfig::*field;  ///< the field it sets
  const char* help;                          ///< its text in --help
  const char* value_name;                    ///< its value's name in --help ("SUITE")
};

/// `history`'s text flags: --db, --suite and --host (--last, a number, and --json, a switch,
/// are the CLI's own).
const std::vector<HistoryFlag>& HistoryListFlags();

/// `trend`'s flags: --db, then the series' parts (TrendRequest's) and --host.
const std::vector<HistoryFlag>& TrendFlags();

/// `history`: the runs of the history at config.db that match --suite, --host and --last,
/// oldest first. --suite may name one of `known_suites` (this build's: the library knows no
/// table of suites) or one the history recorded. False with err: *usage when the database
/// cannot be opened or a filter can match nothing (exit 2), else the runs could not be read.
[[nodiscard]] bool ListHistoryRuns(const HistoryCommandConfig& config,
                                   const std::vector<std::string>& known_suites,
                                   std::vector<HistoryRun>* runs, bool* usage, std::string* err);

/// `history import`'s options (#45): the list's (--suite, --host, --last, --json, --format,
/// `history_given` says which the command line gave) do not apply to it, and one --db: of
/// `history --db A import --db B` with A ≠ B neither wins, it is refused. Merges import's --db
/// (`import_db_given`) into config->db. False with err (exit 2) on a refusal.
[[nodiscard]] bool CheckHistoryImportOptions(
    const std::function<bool(const std::string& flag)>& history_given, bool import_db_given,
    HistoryCommandConfig* config, std::string* err);

/// `history import --db DB`: an SQLite file whose folder does not exist is refused before any
/// file is read (#45: the files were read, then the database failed); "" (the default) and a
/// PostgreSQL URI pass. False with err (exit 2).
[[nodiscard]] bool CheckHistoryImportDb(const std::string& db, std::string* err);

/// `trend`: the series the config's suite, section, row, configuration, metric and host name
/// in the history at config.db, built over its runs (BuildTrend), and the hosts its points
/// come from in order (more than one: the series mixes boxes). False with err: *usage when the
/// database cannot be opened or the request names no one series (exit 2), else the history
/// could not be read.
[[nodiscard]] bool ReadHistoryTrend(const HistoryCommandConfig& config, Trend* trend,
                                    std::vector<std::string>* hosts, bool* usage, std::string* err);

}  // namespace elevbench
