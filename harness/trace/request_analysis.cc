#include "harness/trace/request_analysis.h"

#include <algorithm>
#include <cctype>

namespace elevbench {
namespace {

using nlohmann::json;

// bfq's expiration reasons (enum bfqq_expiration in block/bfq-iosched.h), by number.
const char* ExpireReason(int n) {
  static const char* const kReasons[] = {"too_idle", "budget_timeout", "budget_exhausted",
                                         "no_more_requests", "preempted"};
  return n >= 0 && n < 5 ? kReasons[n] : "other";
}

// Leading words of a message without numbers and pointers, at most three: the generic kind.
std::string FirstWords(const std::string& text) {
  std::string kind;
  size_t words = 0;
  size_t i = 0;
  while (i < text.size() && words < 3) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t end = i;
    while (end < text.size() && text[end] != ' ') ++end;
    std::string word = text.substr(i, end - i);
    i = end;
    if (word.empty()) break;
    const bool numeric = std::any_of(word.begin(), word.end(),
                                     [](char c) { return std::isdigit(static_cast<uint8_t>(c)); });
    if (numeric) break;
    if (!kind.empty()) kind += ' ';
    kind += word;
    ++words;
    if (word.back() == ':' || word.back() == ',') break;
  }
  while (!kind.empty() && (kind.back() == ':' || kind.back() == ',')) kind.pop_back();
  return kind.empty() ? "other" : kind;
}

}  // namespace

double DirectionTrace::MeanDispatchRun() const {
  uint64_t runs = 0;
  uint64_t total = 0;
  for (const auto& [length, count] : record.dispatch_run_lengths) {
    runs += count;
    total += length * count;
  }
  return runs == 0 ? 0 : static_cast<double>(total) / static_cast<double>(runs);
}

TraceDirection DirectionTrace::ToRecord() const {
  const uint64_t assessed = seek_distance.count();
  TraceDirection d = record;
  d.q2c = CompactHistogram(q2c);
  d.i2d = CompactHistogram(i2d);
  d.d2c = CompactHistogram(d2c);
  d.mean_dispatch_run = MeanDispatchRun();
  d.seek_share = assessed == 0 ? 0.0 : static_cast<double>(seeks) / assessed;
  d.mean_seek_sectors = seeks == 0 ? 0.0 : seek_sectors_sum / static_cast<double>(seeks);
  d.seek_distance = CompactHistogram(seek_distance);
  d.mean_request_kib = d.requests == 0 ? 0.0 : static_cast<double>(d.bytes) / 1024.0 / d.requests;
  return d;
}

RequestTraceRecord RequestTraceSummary::ToRecord(size_t max_processes) const {
  RequestTraceRecord r = record;
  r.total = {all.read.ToRecord(), all.write.ToRecord()};
  std::vector<const std::pair<const int32_t, std::pair<std::string, DirectionPair>>*> busiest;
  for (const auto& p : processes) busiest.push_back(&p);
  std::stable_sort(busiest.begin(), busiest.end(), [](const auto* a, const auto* b) {
    const auto n = [](const auto* p) {
      return p->second.second.read.record.requests + p->second.second.write.record.requests;
    };
    return n(a) > n(b);
  });
  for (size_t i = 0; i < busiest.size() && i < max_processes; ++i) {
    const auto& [pid, named] = *busiest[i];
    r.processes.push_back(
        {pid, named.first, {named.second.read.ToRecord(), named.second.write.ToRecord()}});
  }
  r.other_processes = busiest.size() > max_processes ? busiest.size() - max_processes : 0;
  for (const auto& [name, pair] : phases) {
    r.phases[name] = {pair.read.ToRecord(), pair.write.ToRecord()};
  }
  return r;
}

json RequestTraceSummary::ToJson(size_t max_processes) const {
  return RequestTraceRecordToJson(ToRecord(max_processes));
}

std::string SchedulerMessageKind(const std::string& text, std::string* queue) {
  queue->clear();
  std::string rest = text;
  if (rest.rfind("bfq", 0) == 0) {
    size_t end = 3;
    while (end < rest.size() && rest[end] != ' ') ++end;
    *queue = rest.substr(3, end - 3);
    if (!queue->empty() && !std::isdigit(static_cast<uint8_t>(queue->front()))) queue->clear();
    rest = end < rest.size() ? rest.substr(end + 1) : "";
  }
  int reason = -1;
  if (std::sscanf(rest.c_str(), "expire (%d", &reason) == 1) {
    return std::string("expire:") + ExpireReason(reason);
  }
  if (rest.rfind("arm idle", 0) == 0) return "idle_armed";
  if (rest.find("scheduling merge") != std::string::npos) return "merge_scheduled";
  if (rest.rfind("merging with queue", 0) == 0) return "queue_merge";
  if (rest.find("splitting queue") != std::string::npos || rest.rfind("bfq_split", 0) == 0) {
    return "queue_split";
  }
  return FirstWords(rest);
}

}  // namespace elevbench
