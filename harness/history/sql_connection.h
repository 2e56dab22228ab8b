#pragma once
// The one seam between the run history and a database: a connection that runs SQL with bound
// parameters and returns rows. SQLite (sqlite_connection.cc) and PostgreSQL
// (postgres_connection.cc) implement it; the history store (sql_history_store.cc) is written
// once against it, so both backends hold the same schema and answer the same queries.

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace elevbench {

/// A bound parameter or a column value: NULL, an integer, a double or text.
using SqlValue = std::variant<std::monostate, int64_t, double, std::string>;

/// One result row, columns in SELECT order.
using SqlRow = std::vector<SqlValue>;

/// True for SQL NULL.
bool SqlIsNull(const SqlValue& value);
/// The value as text (numbers formatted; NULL → "").
std::string SqlText(const SqlValue& value);
/// The value as an integer (text is parsed, as PostgreSQL returns text; NULL or junk → 0).
int64_t SqlInt(const SqlValue& value);
/// The value as a double (text is parsed; NULL or junk → 0).
double SqlDouble(const SqlValue& value);

/// Which SQL dialect a connection speaks, for the few statements that differ (the type of an
/// auto-numbered key, how to ask whether a table exists, locking).
enum class SqlDialect { kSqlite, kPostgres };

/// A database connection. Statements are written with `?` placeholders; a backend translates
/// them to its own. Every method returns false with one line in `err` on failure.
class SqlConnection {
 public:
  virtual ~SqlConnection() = default;

  virtual SqlDialect dialect() const = 0;

  /// Runs one statement; `rows` (may be null) receives what it returns.
  [[nodiscard]] virtual bool Execute(const std::string& sql, const std::vector<SqlValue>& params,
                                     std::vector<SqlRow>* rows, std::string* err) = 0;

  /// Whether a table of this name exists (in the connection's default schema).
  [[nodiscard]] virtual bool TableExists(const std::string& table, bool* exists,
                                         std::string* err) = 0;

  /// Runs statements without parameters or results (schema creation, BEGIN/COMMIT).
  [[nodiscard]] bool Run(const std::string& sql, std::string* err) {
    return Execute(sql, {}, nullptr, err);
  }
};

/// A transaction that is rolled back unless Commit() is reached, so every early `return false`
/// leaves the database as it was. SQLite's is BEGIN IMMEDIATE: the write lock is taken at once,
/// so a check and the write that depends on it are one step even between two processes.
class SqlTransaction {
 public:
  explicit SqlTransaction(SqlConnection* connection) : connection_(connection) {}
  ~SqlTransaction();
  SqlTransaction(const SqlTransaction&) = delete;
  SqlTransaction& operator=(const SqlTransaction&) = delete;
  [[nodiscard]] bool Begin(std::string* err);
  [[nodiscard]] bool Commit(std::string* err);

 private:
  SqlConnection* connection_;
  bool open_ = false;
};

/// Opens an SQLite database file. With `create` a missing file is created (its directory must
/// exist); without, a missing file is an error that says so. Waits up to 10 s for a lock held by
/// another process (two runs finishing at once) instead of failing.
[[nodiscard]] bool OpenSqliteConnection(const std::string& path, bool create,
                                        std::unique_ptr<SqlConnection>* connection,
                                        std::string* err);

/// Opens a PostgreSQL connection from a libpq URI ("postgresql://user@host:port/db",
/// "postgres://…", or with "?host=/socket/dir"). err has the server's reason on one line.
[[nodiscard]] bool OpenPostgresConnection(const std::string& uri,
                                          std::unique_ptr<SqlConnection>* connection,
                                          std::string* err);

/// Collapses a multi-line message (libpq's, SQLite's) into one line without trailing blanks.
std::string OneLineMessage(const std::string& message);

}  // namespace elevbench
