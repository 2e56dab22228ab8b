// SqlConnection over Debian's libsqlite3: one database file, `?` placeholders as SQLite has them.

#include <sqlite3.h>
#include <sys/stat.h>

#include "harness/history/sql_connection.h"

namespace elevbench {
namespace {

class SqliteConnection : public SqlConnection {
 public:
  explicit SqliteConnection(sqlite3* db) : db_(db) {}
  ~SqliteConnection() override { sqlite3_close_v2(db_); }
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  SqlDialect dialect() const override { return SqlDialect::kSqlite; }

  bool Execute(const std::string& sql, const std::vector<SqlValue>& params,
               std::vector<SqlRow>* rows, std::string* err) override {
    const char* tail = sql.c_str();
    // More than one statement is allowed when there are no parameters (schema scripts).
    while (tail != nullptr && *tail != '\0') {
      sqlite3_stmt* stmt = nullptr;
      const char* next = nullptr;
      if (sqlite3_prepare_v2(db_, tail, -1, &stmt, &next) != SQLITE_OK) return Fail(err);
      tail = next;
      if (stmt == nullptr) continue;  // whitespace or a comment
      bool ok = Bind(stmt, params, err) && Step(stmt, rows, err);
      sqlite3_finalize(stmt);
      if (!ok) return false;
    }
    return true;
  }

  bool TableExists(const std::string& table, bool* exists, std::string* err) override {
    std::vector<SqlRow> rows;
    if (!Execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", {table}, &rows,
                 err)) {
      return false;
    }
    *exists = !rows.empty();
    return true;
  }

 private:
  bool Fail(std::string* err) {
    *err = OneLineMessage(sqlite3_errmsg(db_));
    return false;
  }

  bool Bind(sqlite3_stmt* stmt, const std::vector<SqlValue>& params, std::string* err) {
    if (static_cast<int>(params.size()) != sqlite3_bind_parameter_count(stmt)) {
      *err = "internal: " + std::to_string(params.size()) + " parameters for " +
             std::to_string(sqlite3_bind_parameter_count(stmt)) + " placeholders";
      return false;
    }
    for (size_t i = 0; i < params.size(); ++i) {
      const int index = static_cast<int>(i) + 1;
      int rc = SQLITE_OK;
      if (const auto* v = std::get_if<int64_t>(&params[i])) {
        rc = sqlite3_bind_int64(stmt, index, *v);
      } else if (const auto* d = std::get_if<double>(&params[i])) {
        rc = sqlite3_bind_double(stmt, index, *d);
      } else if (const auto* s = std::get_if<std::string>(&params[i])) {
        rc = sqlite3_bind_text(stmt, index, s->data(), static_cast<int>(s->size()),
                               SQLITE_TRANSIENT);
      } else {
        rc = sqlite3_bind_null(stmt, index);
      }
      if (rc != SQLITE_OK) return Fail(err);
    }
    return true;
  }

  bool Step(sqlite3_stmt* stmt, std::vector<SqlRow>* rows, std::string* err) {
    for (;;) {
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) return true;
      if (rc != SQLITE_ROW) return Fail(err);
      if (rows == nullptr) continue;
      SqlRow row;
      const int columns = sqlite3_column_count(stmt);
      for (int c = 0; c < columns; ++c) {
        switch (sqlite3_column_type(stmt, c)) {
          case SQLITE_INTEGER:
            row.emplace_back(static_cast<int64_t>(sqlite3_column_int64(stmt, c)));
            break;
          case SQLITE_FLOAT:
            row.emplace_back(sqlite3_column_double(stmt, c));
            break;
          case SQLITE_NULL:
            row.emplace_back(std::monostate{});
            break;
          default: {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
            row.emplace_back(
                std::string(text ? text : "", static_cast<size_t>(sqlite3_column_bytes(stmt, c))));
          }
        }
      }
      rows->push_back(std::move(row));
    }
  }

  sqlite3* db_;
};

}  // namespace

bool OpenSqliteConnection(const std::string& path, bool create,
                          std::unique_ptr<SqlConnection>* connection, std::string* err) {
  struct stat st {};
  if (!create && stat(path.c_str(), &st) != 0) {
    *err = "no such file";
    return false;
  }
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    *err = OneLineMessage(db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close_v2(db);
    return false;
  }
  sqlite3_busy_timeout(db, 10000);
  auto conn = std::make_unique<SqliteConnection>(db);
  // Foreign keys are off by default in SQLite; the schema relies on ON DELETE CASCADE.
  if (!conn->Run("PRAGMA foreign_keys = ON", err)) return false;
  *connection = std::move(conn);
  return true;
}

}  // namespace elevbench
