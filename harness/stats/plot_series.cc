#include "harness/stats/plot_series.h"

#include <algorithm>

#include "harness/core/append_unique.h"
#include "harness/stats/trace_measurements.h"

namespace elevbench {
void LatencyGroupCollector::Add(const std::string& section, const std::string& subject,
                                const std::string& identifier, const LatencyHistogram& histogram) {
  const Key key = std::make_pair(section, subject);
  if (!index_.count(key)) {
    index_[key] = groups_.size();
    groups_.push_back({section, subject, {}});
  }
  merged_[{key, identifier}].Merge(histogram);
}

std::vector<LatencyGroup> LatencyGroupCollector::Take(const std::vector<std::string>& order) {
  for (LatencyGroup& g : groups_) {
    for (const std::string& id : order) {
      const auto it = merged_.find({{g.section, g.subject}, id});
      if (it != merged_.end() && it->second.count() > 0) {
        g.by_configuration.emplace_back(id, it->second);
      }
    }
  }
  std::vector<std::string> sections;
  for (const LatencyGroup& g : groups_) AppendUnique(&sections, g.section);
  std::vector<LatencyGroup> out;
  for (const std::string& section : sections) {
    for (LatencyGroup& g : groups_) {
      if (g.section == section && !g.by_configuration.empty()) out.push_back(std::move(g));
    }
  }
  index_.clear();
  groups_.clear();
  merged_.clear();
  return out;
}

bool HasThroughputSeries(const std::vector<StreamResult>& streams) {
  return streams.size() > 1 &&
         std::all_of(streams.begin(), streams.end(), [](const StreamResult& s) {
           return s.throughput_interval_ms > 0 && !s.throughput_kib_s.empty();
         });
}

std::vector<StreamRun> FirstRunOfEachConfiguration(std::vector<StreamRun> runs,
                                                   const std::vector<std::string>& order) {
  std::vector<std::string> sections;
  for (const StreamRun& r : runs) AppendUnique(&sections, r.section);
  std::map<std::pair<std::string, std::string>, StreamRun> first;
  for (StreamRun& r : runs) {
    const auto key = std::make_pair(r.section, r.identifier);
    const auto it = first.find(key);
    if (it == first.end() || r.repetition < it->second.repetition) first[key] = std::move(r);
  }
  std::vector<StreamRun> out;
  for (const std::string& section : sections) {
    for (const std::string& id : order) {
      const auto it = first.find({section, id});
      if (it != first.end()) out.push_back(std::move(it->second));
    }
  }
  return out;
}

std::vector<TraceGroup> TraceGroupsOf(const ResultsDocument& doc) {
  using Key = std::pair<std::string, std::string>;  // row, direction
  std::vector<std::string> rows;                    // in order of first appearance
  std::map<Key, std::map<std::string, TraceTotals>> merged;
  for (const TracedCell& t : TracedCellsOf(doc)) {
    const std::string row = VariantText(t.cell->variant);
    AppendUnique(&rows, row);
    for (const char* dir : {"read", "write"}) {
      const TraceDirection& d = t.trace->total.Of(dir);
      if (d.requests == 0) continue;
      TraceTotals& m = merged[{row, dir}][t.cell->identifier];
      m.i2d.Merge(d.i2d.Expand());
      m.d2c.Merge(d.d2c.Expand());
      m.seek_distance.Merge(d.seek_distance.Expand());
      for (const auto& [length, count] : d.dispatch_run_lengths) m.run_lengths[length] += count;
    }
  }
  std::vector<TraceGroup> groups;
  for (const std::string& row : rows) {
    for (const char* dir : {"read", "write"}) {
      const auto found = merged.find({row, dir});
      if (found == merged.end()) continue;
      TraceGroup g{row, dir, {}};
      for (const std::string& id : IdentifierOrder(doc)) {
        const auto it = found->second.find(id);
        if (it != found->second.end()) g.by_configuration.emplace_back(id, std::move(it->second));
      }
      groups.push_back(std::move(g));
    }
  }
  return groups;
}

}  // namespace elevbench
