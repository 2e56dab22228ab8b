#pragma once
// The history's schema (docs/history.md): its creation and the version check on open. The same
// tables on SQLite and PostgreSQL; only the auto-numbered keys are spelled per dialect.

#include <string>

#include "harness/history/sql_connection.h"

namespace elevbench {

/// The statements that create schema version kHistorySchemaVersion, for `dialect`.
std::string HistorySchemaSql(SqlDialect dialect);

/// Makes sure the database holds the current schema: creates it when the database has no
/// elevbench tables, accepts the current version, and refuses a newer version ("use a newer
/// elevbench") or a database with a `runs` table but no `schema_version` (not ours). On
/// PostgreSQL an advisory lock serialises two test boxes creating the schema at once.
[[nodiscard]] bool EnsureHistorySchema(SqlConnection* connection, std::string* err);

}  // namespace elevbench
