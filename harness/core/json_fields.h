#pragma once
// Typed reads of JSON object members with one-line errors, for the readers of results records
// (stream, nickbench and probe records): one rule for what each C++ type accepts.

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>

namespace elevbench {

/// Reads j[key] into *out when it has T's JSON type (string, boolean, number, non-negative integer
/// in range for unsigned T, integer in range for signed T); otherwise false with "<key>: missing"
/// or "<key>: expected <kind>" in err and *out untouched.
template <typename T>
[[nodiscard]] bool GetJsonField(const nlohmann::json& j, const char* key, T* out,
                                std::string* err) {
  const auto it = j.find(key);
  if (it == j.end()) {
    *err = std::string(key) + ": missing";
    return false;
  }
  bool ok = false;
  const char* expected = "";
  if constexpr (std::is_same_v<T, std::string>) {
    ok = it->is_string();
    expected = "a string";
  } else if constexpr (std::is_same_v<T, bool>) {
    ok = it->is_boolean();
    expected = "true or false";
  } else if constexpr (std::is_floating_point_v<T>) {
    ok = it->is_number();
    expected = "a number";
  } else if constexpr (std::is_unsigned_v<T>) {
    // Parsed text holds non-negative integers as unsigned; a document built in memory may hold
    // them as signed. Either is a count.
    ok = (it->is_number_unsigned() ||
          (it->is_number_integer() && it->template get<int64_t>() >= 0)) &&
         it->template get<uint64_t>() <= std::numeric_limits<T>::max();
    expected = "a non-negative integer";
  } else {
    ok = it->is_number_integer() && it->template get<int64_t>() >= std::numeric_limits<T>::min() &&
         it->template get<int64_t>() <= std::numeric_limits<T>::max();
    expected = "an integer";
  }
  if (!ok) {
    *err = std::string(key) + ": expected " + expected;
    return false;
  }
  *out = it->template get<T>();
  return true;
}

/// GetJsonField for a member that may be left out: an absent or null member leaves *out as it
/// is and succeeds; a present one follows GetJsonField's rules.
template <typename T>
[[nodiscard]] bool GetOptionalJsonField(const nlohmann::json& j, const char* key, T* out,
                                        std::string* err) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return true;
  return GetJsonField(j, key, out, err);
}

}  // namespace elevbench
