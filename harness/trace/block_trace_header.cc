#include "harness/trace/block_trace_header.h"

#include <type_traits>

#include "harness/core/error.h"
#include "harness/core/json_fields.h"

namespace elevbench {
namespace {

// A handle entry's optional per-handle list `key` (as many as its times), into *out.
template <typename T>
bool PerHandleList(const nlohmann::json& item, const char* key, size_t handles,
                   std::vector<T>* out) {
  const auto list = item.find(key);
  if (list == item.end()) return true;
  if (!list->is_array() || list->size() != handles) return false;
  for (const nlohmann::json& v : *list) {
    if (!v.is_number_integer() || (std::is_unsigned_v<T> && !v.is_number_unsigned())) return false;
    out->push_back(v.get<T>());
  }
  return true;
}

// Version 2's optional "journal_handles": [{"pid", "times_ns": [ascending], "inodes": [...],
// "buffer_sectors": [...], "block_bytes"}], the last three optional.
bool JournalHandlesFromJson(const nlohmann::json& j, BlockTraceHeader* h, std::string* err) {
  const auto handles = j.find("journal_handles");
  if (handles == j.end()) return true;
  const char* expected =
      "header journal_handles: expected [{\"pid\": P, \"times_ns\": [ascending times]}]";
  if (!handles->is_array()) return Fail(err, expected);
  for (const nlohmann::json& item : *handles) {
    BlockTraceJournalHandles p;
    const auto times = item.is_object() ? item.find("times_ns") : item.end();
    if (!item.is_object() || !GetJsonField(item, "pid", &p.pid, err) || p.pid <= 0 ||
        times == item.end() || !times->is_array()) {
      return Fail(err, expected);
    }
    for (const nlohmann::json& t : *times) {
      if (!t.is_number_unsigned() ||
          (!p.times_ns.empty() && t.get<uint64_t>() < p.times_ns.back())) {
        return Fail(err, expected);
      }
      p.times_ns.push_back(t.get<uint64_t>());
    }
    const size_t n = p.times_ns.size();
    if (!PerHandleList(item, "inodes", n, &p.inodes) ||
        !PerHandleList(item, "buffer_sectors", n, &p.buffer_sectors) ||
        (item.contains("block_bytes") && !GetJsonField(item, "block_bytes", &p.block_bytes, err))) {
      return Fail(err,
                  "header journal_handles: inodes and buffer_sectors hold one number a handle");
    }
    h->journal_handles.push_back(std::move(p));
  }
  return true;
}

// Version 2's "dirtiers": every buffered writer of the capture.
bool DirtiersFromJson(const nlohmann::json& j, BlockTraceHeader* h, std::string* err) {
  const auto dirtiers = j.find("dirtiers");
  if (dirtiers == j.end() || !dirtiers->is_array()) {
    *err = "header dirtiers: expected an array (a version 2 trace)";
    return false;
  }
  for (const nlohmann::json& item : *dirtiers) {
    BlockTraceDirtier d;
    if (!item.is_object() || !GetJsonField(item, "pid", &d.pid, err) ||
        !GetJsonField(item, "comm", &d.comm, err) ||
        !GetJsonField(item, "folios", &d.folios, err) ||
        !GetJsonField(item, "first_ns", &d.first_ns, err) ||
        !GetJsonField(item, "last_ns", &d.last_ns, err) ||
        !GetOptionalJsonField(item, "held_back_ns", &d.held_back_ns, err) || d.pid <= 0) {
      *err = "header dirtiers: " + (err->empty() ? std::string("expected objects") : *err);
      return false;
    }
    h->dirtiers.push_back(std::move(d));
  }
  h->writeback_traced = true;
  return true;
}

}  // namespace

nlohmann::json BlockTraceHeaderToJson(const BlockTraceHeader& h, size_t records) {
  nlohmann::json j = {{"device", h.device},
                      {"device_bytes", h.device_bytes},
                      {"logical_block_bytes", h.logical_block_bytes},
                      {"kernel", h.kernel},
                      {"scheduler", h.scheduler},
                      {"duration_ns", h.duration_ns},
                      {"captured_at", h.captured_at},
                      {"source", h.source},
                      {"command", h.command},
                      {"lost_events", h.lost_events},
                      {"records", records}};
  if (!h.writeback_traced) return j;
  j["dirtiers"] = nlohmann::json::array();
  for (const BlockTraceDirtier& d : h.dirtiers) {
    j["dirtiers"].push_back({{"pid", d.pid},
                             {"comm", d.comm},
                             {"folios", d.folios},
                             {"first_ns", d.first_ns},
                             {"last_ns", d.last_ns},
                             {"held_back_ns", d.held_back_ns}});
  }
  if (h.journal_handles.empty()) return j;
  j["journal_handles"] = nlohmann::json::array();
  for (const BlockTraceJournalHandles& p : h.journal_handles) {
    nlohmann::json item = {{"pid", p.pid}, {"times_ns", p.times_ns}};
    if (!p.inodes.empty()) item["inodes"] = p.inodes;
    if (!p.buffer_sectors.empty()) {
      item["buffer_sectors"] = p.buffer_sectors;
      item["block_bytes"] = p.block_bytes;
    }
    j["journal_handles"].push_back(std::move(item));
  }
  return j;
}

bool BlockTraceHeaderFromJson(const nlohmann::json& j, BlockTraceHeader* h, uint64_t* records,
                              std::string* err) {
  if (!j.is_object()) {
    *err = "the header is not a JSON object";
    return false;
  }
  if (!GetJsonField(j, "device", &h->device, err) ||
      !GetJsonField(j, "device_bytes", &h->device_bytes, err) ||
      !GetJsonField(j, "logical_block_bytes", &h->logical_block_bytes, err) ||
      !GetJsonField(j, "kernel", &h->kernel, err) ||
      !GetJsonField(j, "scheduler", &h->scheduler, err) ||
      !GetJsonField(j, "duration_ns", &h->duration_ns, err) ||
      !GetJsonField(j, "captured_at", &h->captured_at, err) ||
      !GetJsonField(j, "source", &h->source, err) ||
      !GetJsonField(j, "lost_events", &h->lost_events, err) ||
      !GetJsonField(j, "records", records, err)) {
    *err = "header " + *err;
    return false;
  }
  const auto command = j.find("command");
  if (command == j.end() || !command->is_array()) {
    *err = "header command: expected an array of strings";
    return false;
  }
  for (const nlohmann::json& word : *command) {
    if (!word.is_string()) {
      *err = "header command: expected an array of strings";
      return false;
    }
    h->command.push_back(word.get<std::string>());
  }
  if (h->version >= 2 && (!DirtiersFromJson(j, h, err) || !JournalHandlesFromJson(j, h, err))) {
    return false;
  }
  if (h->device_bytes == 0 || h->device_bytes % 512 != 0) {
    *err = "header device_bytes: expected a positive multiple of 512";
    return false;
  }
  return true;
}

}  // namespace elevbench
