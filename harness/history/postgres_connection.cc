// SqlConnection over Debian's libpq: `?` placeholders become $1, $2, …; every value travels as
// text and is converted by the caller (SqlInt, SqlDouble), as libpq returns text.

#include <libpq-fe.h>

#include <cstdio>

#include "harness/history/sql_connection.h"

namespace elevbench {
namespace {

// "a = ? AND b = ?" → "a = $1 AND b = $2". The store's SQL has no '?' inside string literals;
// quoted text is skipped anyway so that stays true if one is added.
std::string NumberPlaceholders(const std::string& sql) {
  std::string out;
  int n = 0;
  bool quoted = false;
  for (char c : sql) {
    if (c == '\'') quoted = !quoted;
    if (c == '?' && !quoted) {
      out += "$" + std::to_string(++n);
    } else {
      out += c;
    }
  }
  return out;
}

// libpq prints NOTICEs ("relation already exists, skipping") on stderr by default; the store
// expects them and the CLI owns stderr.
void IgnoreNotice(void*, const char*) {}

class PostgresConnection : public SqlConnection {
 public:
  explicit PostgresConnection(PGconn* conn) : conn_(conn) {}
  ~PostgresConnection() override { PQfinish(conn_); }
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;

  SqlDialect dialect() const override { return SqlDialect::kPostgres; }

  bool Execute(const std::string& sql, const std::vector<SqlValue>& params,
               std::vector<SqlRow>* rows, std::string* err) override {
    PGresult* result = nullptr;
    if (params.empty()) {
      result = PQexec(conn_, sql.c_str());  // may hold several statements (schema scripts)
    } else {
      std::vector<std::string> texts(params.size());
      std::vector<const char*> values(params.size(), nullptr);
      for (size_t i = 0; i < params.size(); ++i) {
        if (SqlIsNull(params[i])) continue;
        texts[i] = SqlText(params[i]);
        values[i] = texts[i].c_str();
      }
      result = PQexecParams(conn_, NumberPlaceholders(sql).c_str(), static_cast<int>(params.size()),
                            nullptr, values.data(), nullptr, nullptr, 0);
    }
    const ExecStatusType status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      const char* message = result ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
      *err = OneLineMessage(message && *message ? message : PQerrorMessage(conn_));
      PQclear(result);
      return false;
    }
    if (rows != nullptr && status == PGRES_TUPLES_OK) {
      const int n = PQntuples(result);
      const int columns = PQnfields(result);
      for (int r = 0; r < n; ++r) {
        SqlRow row;
        for (int c = 0; c < columns; ++c) {
          if (PQgetisnull(result, r, c)) {
            row.emplace_back(std::monostate{});
          } else {
            row.emplace_back(std::string(PQgetvalue(result, r, c),
                                         static_cast<size_t>(PQgetlength(result, r, c))));
          }
        }
        rows->push_back(std::move(row));
      }
    }
    PQclear(result);
    return true;
  }

  bool TableExists(const std::string& table, bool* exists, std::string* err) override {
    std::vector<SqlRow> rows;
    if (!Execute("SELECT to_regclass(?) IS NOT NULL", {table}, &rows, err)) return false;
    *exists = !rows.empty() && SqlText(rows[0][0]) == "t";
    return true;
  }

 private:
  PGconn* conn_;
};

}  // namespace

bool OpenPostgresConnection(const std::string& uri, std::unique_ptr<SqlConnection>* connection,
                            std::string* err) {
  // A lab database may be unreachable: give up after 10 s unless the URI says otherwise.
  const char* keywords[] = {"connect_timeout", "dbname", nullptr};
  const char* values[] = {"10", uri.c_str(), nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (conn == nullptr || PQstatus(conn) != CONNECTION_OK) {
    *err = OneLineMessage(conn ? PQerrorMessage(conn) : "out of memory");
    PQfinish(conn);
    return false;
  }
  PQsetNoticeProcessor(conn, IgnoreNotice, nullptr);
  *connection = std::make_unique<PostgresConnection>(conn);
  return true;
}

}  // namespace elevbench
