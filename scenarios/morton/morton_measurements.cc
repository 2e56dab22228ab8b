#include "scenarios/morton/morton_measurements.h"

#include <algorithm>

#include "harness/core/strings.h"
#include "scenarios/morton/morton_records.h"

namespace elevbench {
namespace {

// The reason of a test's numbers that its DNF probes left out, as the text layout words it:
// "DNF after 15 minutes", with each command named when the test timed several.
std::string MortonDnfReason(const std::vector<MortonProbe>& probes) {
  std::string reason;
  for (const MortonProbe& p : probes) {
    if (p.status != "dnf") continue;
    std::string one =
        p.timeout_seconds > 0 ? "DNF after " + TimeoutWords(p.timeout_seconds) : std::string("DNF");
    if (probes.size() > 1) one = p.command + ": " + one;
    reason += (reason.empty() ? "" : "; ") + one;
  }
  return reason;
}

}  // namespace

bool MortonMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                        std::string* err) {
  std::vector<MortonRecord> records;
  if (!MortonRecordsFromDocument(doc, &records, err)) return false;
  for (const MortonRecord& r : records) {
    RecordMeasurements record("morton", "test" + std::to_string(r.test), r, out);
    record.SetReason(MortonDnfReason(r.probes));
    auto add = [&](MetricInfo info, double value, const std::string& status) {
      record(std::move(info), status == "ok" ? value : 0, status);
    };
    const auto lower = [](const char* name, bool headline, const char* display = "") {
      return MetricInfo{name,     "s",    Direction::kLowerIsBetter, MeanKind::kArithmetic,
                        headline, display};
    };
    if (r.probes.size() == 1) {
      const MortonProbe& p = r.probes[0];
      add(lower("elapsed_seconds", true, "Elapsed time"), p.usage.elapsed_seconds, p.status);
      add(lower("user_seconds", false), p.usage.user_seconds, p.status);
      add(lower("system_seconds", false), p.usage.system_seconds, p.status);
    } else {
      // The group is done when its last command is: any DNF or failure leaves no slowest time.
      std::string worst = "ok";
      double slowest = 0, fastest = 0;
      bool any_ok = false;
      uint64_t bytes = 0;
      for (const MortonProbe& p : r.probes) {
        if (p.status != "ok") {
          if (worst != "dnf") worst = p.status;
          continue;
        }
        slowest = std::max(slowest, p.usage.elapsed_seconds);
        fastest = any_ok ? std::min(fastest, p.usage.elapsed_seconds) : p.usage.elapsed_seconds;
        any_ok = true;
        bytes += p.work_bytes;
      }
      add(lower("slowest_seconds", true, "Slowest command's time"), slowest, worst);
      add(lower("fastest_seconds", false), fastest, any_ok ? "ok" : worst);
      add({"spread_ratio", "ratio", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
          fastest > 0 ? slowest / fastest : 0, worst == "ok" && fastest > 0 ? "ok" : worst);
      if (r.test == 1) {
        add({"aggregate_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false},
            slowest > 0 ? static_cast<double>(bytes) / (1 << 20) / slowest : 0,
            worst == "ok" && slowest > 0 ? "ok" : worst);
      }
    }
    // The load kept running whatever the probe did: its throughput over its own window.
    double load_mb_s = 0;
    if (StreamsMbPerSecond(r.load, &load_mb_s)) {
      // Buffered streams: the rate is the page cache's (12806 MB/s on a 49 MB/s disk).
      add({"load_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false, "", true},
          load_mb_s, "ok");
    }
  }
  return true;
}

}  // namespace elevbench
