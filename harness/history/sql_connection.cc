#include "harness/history/sql_connection.h"

#include <cstdio>
#include <cstdlib>

namespace elevbench {

bool SqlIsNull(const SqlValue& value) { return std::holds_alternative<std::monostate>(value); }

std::string SqlText(const SqlValue& value) {
  if (const auto* s = std::get_if<std::string>(&value)) return *s;
  if (const auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", *d);
    return buf;
  }
  return "";
}

int64_t SqlInt(const SqlValue& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) return *i;
  if (const auto* d = std::get_if<double>(&value)) return static_cast<int64_t>(*d);
  if (const auto* s = std::get_if<std::string>(&value))
    return std::strtoll(s->c_str(), nullptr, 10);
  return 0;
}

double SqlDouble(const SqlValue& value) {
  if (const auto* d = std::get_if<double>(&value)) return *d;
  if (const auto* i = std::get_if<int64_t>(&value)) return static_cast<double>(*i);
  if (const auto* s = std::get_if<std::string>(&value)) return std::strtod(s->c_str(), nullptr);
  return 0;
}

SqlTransaction::~SqlTransaction() {
  std::string ignored;
  if (open_) (void)connection_->Run("ROLLBACK", &ignored);
}

bool SqlTransaction::Begin(std::string* err) {
  open_ = connection_->Run(
      connection_->dialect() == SqlDialect::kSqlite ? "BEGIN IMMEDIATE" : "BEGIN", err);
  return open_;
}

bool SqlTransaction::Commit(std::string* err) {
  open_ = false;
  return connection_->Run("COMMIT", err);
}

std::string OneLineMessage(const std::string& message) {
  std::string out;
  bool space = false;
  for (char c : message) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

}  // namespace elevbench
