#include "harness/run/lanes.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "harness/core/error.h"

namespace elevbench {

int MaxLanes(const LaneBounds& b) {
  int most = b.cpus_per_lane > 0 ? b.online_cpus / b.cpus_per_lane : 1;
  if (b.disk_bytes > 0 && b.memory_bytes > 0) {
    most = std::min<int64_t>(most, static_cast<int64_t>(b.memory_bytes / 2 / b.disk_bytes));
  }
  return std::max(most, 1);
}

bool ParseLanesOption(const std::string& text, const LaneBounds& b, int* lanes, std::string* err) {
  if (text == "auto") {
    *lanes = b.refusal.empty() ? MaxLanes(b) : 1;
    return true;
  }
  if (text.empty() || text.size() > 4 ||
      text.find_first_not_of("0123456789") != std::string::npos || std::stoi(text) < 1) {
    return Fail(err, "--lanes: expected a number of lanes (1 or more) or auto, got '" + text + "'");
  }
  const int n = std::stoi(text);
  if (n == 1) {
    *lanes = 1;
    return true;
  }
  if (!b.refusal.empty()) {
    return Fail(err, "--lanes " + text + ": " + b.suite + " does not run in lanes: " + b.refusal);
  }
  const int cpu_most = b.cpus_per_lane > 0 ? b.online_cpus / b.cpus_per_lane : 1;
  if (n > cpu_most) {
    return Fail(err, "--lanes " + text + ": " + b.suite + " runs at most " +
                         std::to_string(std::max(cpu_most, 1)) + " lane(s) on " +
                         std::to_string(b.online_cpus) + " CPU(s) (" +
                         std::to_string(b.cpus_per_lane) + " CPU(s) a lane)");
  }
  if (n > MaxLanes(b)) {
    return Fail(err, "--lanes " + text + ": " + std::to_string(n) + " disk images of " +
                         std::to_string(b.disk_bytes >> 20) +
                         " MiB (kept in RAM) would take more than half of the " +
                         std::to_string(b.memory_bytes >> 20) + " MiB of RAM");
  }
  *lanes = n;
  return true;
}

std::vector<std::vector<size_t>> DealPlanToLanes(const std::vector<PlannedCell>& plan,
                                                 size_t lanes) {
  return DealPlanToLanes(plan, lanes, {}).lanes;
}

LaneDeal DealPlanToLanes(const std::vector<PlannedCell>& plan, size_t lanes,
                         const std::vector<bool>& takes_lanes, DealUnit unit) {
  LaneDeal deal;
  deal.lanes.resize(std::max<size_t>(lanes, 1));
  size_t block = 0;
  const PlannedCell* previous = nullptr;  // the last cell dealt to a lane
  for (size_t i = 0; i < plan.size(); ++i) {
    const size_t v = plan[i].variant_index;
    if (v < takes_lanes.size() && !takes_lanes[v]) {
      deal.alone.push_back(i);
      continue;
    }
    const bool new_block =
        previous != nullptr &&
        (plan[i].repetition != previous->repetition ||
         (unit == DealUnit::kBlock && plan[i].config_index != previous->config_index));
    if (new_block) ++block;
    deal.lanes[block % deal.lanes.size()].push_back(i);
    previous = &plan[i];
  }
  return deal;
}

bool MergeLaneDocuments(const std::vector<ResultsDocument>& lanes, ResultsDocument* merged,
                        std::string* err) {
  struct Placed {
    size_t plan_index;
    const CellRecord* cell;
    std::vector<const nlohmann::json*> records;
  };
  std::vector<Placed> placed;
  bool complete = !lanes.empty();
  for (size_t k = 0; k < lanes.size(); ++k) {
    const ResultsDocument& lane = lanes[k];
    complete = complete && lane.complete;
    size_t next = 0;
    for (const CellRecord& c : lane.cells) {
      Placed p{c.plan_index, &c, {}};
      for (size_t r = 0; r < c.record_count; ++r, ++next) {
        if (next >= lane.records.size()) {
          return Fail(err,
                      "lane " + std::to_string(k) + ": its cells claim more records than it has");
        }
        p.records.push_back(&lane.records[next]);
      }
      placed.push_back(std::move(p));
    }
    if (next != lane.records.size()) {
      return Fail(err, "lane " + std::to_string(k) + ": " +
                           std::to_string(lane.records.size() - next) +
                           " record(s) belong to no cell");
    }
  }
  std::stable_sort(placed.begin(), placed.end(),
                   [](const Placed& a, const Placed& b) { return a.plan_index < b.plan_index; });
  merged->cells.clear();
  merged->records.clear();
  for (const Placed& p : placed) {
    merged->cells.push_back(*p.cell);
    for (const nlohmann::json* r : p.records) merged->records.push_back(*r);
  }
  if (!lanes.empty()) {
    merged->setup = lanes.front().setup;
    merged->parameters = lanes.front().parameters;
  }
  // A session of only some variants sets up only what they read (a composite's parts): the
  // members the first document lacks come from the others.
  for (size_t k = 1; k < lanes.size() && merged->setup.is_object(); ++k) {
    if (!lanes[k].setup.is_object()) continue;
    for (const auto& [name, value] : lanes[k].setup.items()) {
      if (!merged->setup.contains(name)) merged->setup[name] = value;
    }
  }
  merged->complete = complete;
  return true;
}

}  // namespace elevbench
