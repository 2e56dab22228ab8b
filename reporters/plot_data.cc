#include "reporters/plot_data.h"

#include <algorithm>
#include <map>

#include "scenarios/nickbench/nickbench_records.h"
#include "scenarios/probes/probe_records.h"
#include "scenarios/tiobench/tiobench.h"
#include "scenarios/tiobench/tiobench_records.h"

namespace elevbench {
namespace {

// Collects histograms by (section, subject) and configuration, then orders them.
class LatencyCollector {
 public:
  void Add(const std::string& section, const std::string& subject, const std::string& id,
           const LatencyHistogram& histogram) {
    const auto key = std::make_pair(section, subject);
    if (!index_.count(key)) {
      index_[key] = groups_.size();
      groups_.push_back({section, subject, {}});
    }
    merged_[{key, id}].Merge(histogram);
  }

  std::vector<LatencyGroup> Take(const std::vector<std::string>& order) {
    for (LatencyGroup& g : groups_) {
      for (const std::string& id : order) {
        const auto it = merged_.find({{g.section, g.subject}, id});
        if (it != merged_.end() && it->second.count() > 0) {
          g.by_configuration.emplace_back(id, it->second);
        }
      }
    }
    // Sections in order of first appearance, subjects inside them likewise.
    std::vector<std::string> sections;
    for (const LatencyGroup& g : groups_) {
      if (std::find(sections.begin(), sections.end(), g.section) == sections.end()) {
        sections.push_back(g.section);
      }
    }
    std::vector<LatencyGroup> out;
    for (const std::string& section : sections) {
      for (LatencyGroup& g : groups_) {
        if (g.section == section && !g.by_configuration.empty()) out.push_back(std::move(g));
      }
    }
    return out;
  }

 private:
  using Key = std::pair<std::string, std::string>;
  std::map<Key, size_t> index_;
  std::vector<LatencyGroup> groups_;
  std::map<std::pair<Key, std::string>, LatencyHistogram> merged_;
};

// "read streams", "write streams", "readwrite streams".
std::string StreamSubject(const StreamResult& s) { return s.direction + " streams"; }

bool WithThroughput(const std::vector<StreamResult>& streams) {
  return streams.size() > 1 &&
         std::all_of(streams.begin(), streams.end(), [](const StreamResult& s) {
           return s.throughput_interval_ms > 0 && !s.throughput_kib_s.empty();
         });
}

// Keeps, per (section, identifier), the run of the lowest repetition; orders by section of
// first appearance, then `order`.
std::vector<StreamRun> OrderRuns(std::vector<StreamRun> runs,
                                 const std::vector<std::string>& order) {
  std::vector<std::string> sections;
  std::map<std::pair<std::string, std::string>, StreamRun> first;
  for (StreamRun& r : runs) {
    if (std::find(sections.begin(), sections.end(), r.section) == sections.end()) {
      sections.push_back(r.section);
    }
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

}  // namespace

bool LatencyGroupsOf(const ResultsDocument& doc, std::vector<LatencyGroup>* groups,
                     std::string* err) {
  LatencyCollector collector;
  if (doc.suite == "tiobench") {
    std::vector<TioRecord> records;
    if (!TioRecordsFromDocument(doc, &records, err)) return false;
    for (const TioRecord& r : records) {
      collector.Add(TioPhaseKey(r.measurement.phase),
                    "threads=" + std::to_string(r.measurement.threads), r.identifier,
                    r.measurement.latency);
    }
  } else if (doc.suite == "nickbench") {
    std::vector<NickbenchRecord> records;
    if (!NickbenchRecordsFromDocument(doc, &records, err)) return false;
    for (const NickbenchRecord& r : records) {
      for (const StreamResult& s : r.streams) {
        collector.Add("bench" + std::to_string(r.bench), StreamSubject(s), r.identifier, s.latency);
      }
    }
  } else if (doc.suite == "probes") {
    std::vector<ProbeRecord> records;
    if (!ProbeRecordsFromDocument(doc, &records, err)) return false;
    for (const ProbeRecord& r : records) {
      for (const StreamResult& s : r.load) {
        collector.Add(r.probe, "load " + StreamSubject(s), r.identifier, s.latency);
      }
    }
  }
  *groups = collector.Take(IdentifierOrder(doc));
  return true;
}

bool MultiStreamRunsOf(const ResultsDocument& doc, std::vector<StreamRun>* runs, std::string* err) {
  std::vector<StreamRun> all;
  if (doc.suite == "nickbench") {
    std::vector<NickbenchRecord> records;
    if (!NickbenchRecordsFromDocument(doc, &records, err)) return false;
    for (const NickbenchRecord& r : records) {
      if (!WithThroughput(r.streams)) continue;
      all.push_back({"bench" + std::to_string(r.bench), r.identifier, r.repetition, r.streams});
    }
  } else if (doc.suite == "probes") {
    std::vector<ProbeRecord> records;
    if (!ProbeRecordsFromDocument(doc, &records, err)) return false;
    for (const ProbeRecord& r : records) {
      if (!WithThroughput(r.load)) continue;
      all.push_back({r.probe, r.identifier, r.repetition, r.load});
    }
  }
  *runs = OrderRuns(std::move(all), IdentifierOrder(doc));
  return true;
}

}  // namespace elevbench
