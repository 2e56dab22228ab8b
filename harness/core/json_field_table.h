#pragma once
// A record's plain fields named once: a table of {"json_name", &Record::member} entries drives
// both directions of the record's codec, writing the members into a JSON object and reading
// them back with GetJsonField's rules and one-line errors (json_fields.h). The same idea as
// fio's option table and the disk model's override table (harness/disk/disk_model.cc):
//
//   constexpr JsonField<Fairness> kFairnessFields[] = {
//       {"min_max_ratio", &Fairness::min_max_ratio}, {"min_bytes", &Fairness::min_bytes}};
//   WriteJsonFields(kFairnessFields, fairness, &j);
//   if (!ReadJsonFields(kFairnessFields, j, &fairness, err)) return false;
//
// Only scalar members have entries (std::string, bool, double, int32_t, int64_t, uint32_t,
// uint64_t); nested objects, arrays, histograms and enums stay with the record's own code.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <variant>

#include "harness/core/json_fields.h"

namespace elevbench {

/// Whether a reader needs a field.
enum class FieldPresence {
  kRequired,  ///< absent: "<key>: missing"
  /// absent: the member keeps its value (a default, for files written before the field was);
  /// present (null included) it must have the member's JSON type as a required one does.
  kOptional,
  /// absent or null: the member keeps its value (GetOptionalJsonField's rule), for records whose
  /// writers never promised every member (the request trace, docs/request-tracing.md).
  kNullable,
};

/// One entry of a record's field table: the JSON key and the member it holds. Record may be a
/// type derived from the member's class (a RecordHeader member in a suite record's table).
template <typename Record>
struct JsonField {
  using Member =
      std::variant<std::string Record::*, bool Record::*, double Record::*, int32_t Record::*,
                   int64_t Record::*, uint32_t Record::*, uint64_t Record::*>;

  /// The entry for `member` under `json_name`; json_name must outlive the table (a literal).
  template <typename T, typename Owner>
  requires std::is_base_of_v<Owner, Record>
  constexpr JsonField(const char* json_name, T Owner::*member,
                      FieldPresence field_presence = FieldPresence::kRequired)
      : name(json_name), pointer(static_cast<T Record::*>(member)), presence(field_presence) {}

  const char* name;        ///< the JSON key
  Member pointer;          ///< the member it is read into and written from
  FieldPresence presence;  ///< whether a reader needs it
};

/// Sets (*j)[entry.name] to each entry's member of `record`, in table order; other members of
/// *j are left as they are (a null *j becomes an object). nlohmann::json keeps its keys sorted,
/// so the document's key order does not depend on the table's.
template <typename Record, size_t N>
void WriteJsonFields(const JsonField<Record> (&table)[N], const Record& record, nlohmann::json* j) {
  for (const JsonField<Record>& field : table) {
    std::visit([&](auto member) { (*j)[field.name] = record.*member; }, field.pointer);
  }
}

/// Reads each entry of `table`, in table order, from the object j into its member of *record
/// with GetJsonField's rules; stops at the first bad entry with GetJsonField's error in err
/// ("<key>: missing", "<key>: expected a non-negative integer"). An absent kOptional entry, and
/// an absent or null kNullable one, leaves its member as it is. On failure the members read before
/// the bad one are already set: read into a fresh record and move it out on success. j must be an
/// object (check first).
template <typename Record, size_t N>
[[nodiscard]] bool ReadJsonFields(const JsonField<Record> (&table)[N], const nlohmann::json& j,
                                  Record* record, std::string* err) {
  for (const JsonField<Record>& field : table) {
    if (field.presence == FieldPresence::kOptional && !j.contains(field.name)) continue;
    if (field.presence == FieldPresence::kNullable) {
      const auto it = j.find(field.name);
      if (it == j.end() || it->is_null()) continue;
    }
    const bool ok = std::visit(
        [&](auto member) { return GetJsonField(j, field.name, &(record->*member), err); },
        field.pointer);
    if (!ok) return false;
  }
  return true;
}

}  // namespace elevbench
