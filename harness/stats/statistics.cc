#include "harness/stats/statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace elevbench {
namespace {

double ArithmeticMean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

double SampleStdDev(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = ArithmeticMean(v);
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// Number of arrangements of m "a" values and n "b" values with U = u, for u = 0..m*n
// (Mann and Whitney's recurrence), as probabilities.
std::vector<double> ExactUDistribution(size_t m, size_t n) {
  // counts[i][j] is the distribution for i a's and j b's; built row by row.
  std::vector<std::vector<std::vector<double>>> counts(m + 1,
                                                       std::vector<std::vector<double>>(n + 1));
  for (size_t i = 0; i <= m; ++i) {
    for (size_t j = 0; j <= n; ++j) {
      std::vector<double>& d = counts[i][j];
      d.assign(i * j + 1, 0.0);
      if (i == 0 || j == 0) {
        d[0] = 1;
        continue;
      }
      // The largest value is an "a" (it beats all j b's: +j) or a "b" (+0).
      const std::vector<double>& with_a_last = counts[i - 1][j];
      const std::vector<double>& with_b_last = counts[i][j - 1];
      for (size_t u = 0; u < with_a_last.size(); ++u) d[u + j] += with_a_last[u];
      for (size_t u = 0; u < with_b_last.size(); ++u) d[u] += with_b_last[u];
    }
  }
  std::vector<double> p = counts[m][n];
  double total = 0;
  for (double c : p) total += c;
  for (double& c : p) c /= total;
  return p;
}

}  // namespace

double StudentT975(size_t df) {
  static constexpr std::array<double, 30> kTable = {
      12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
      2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
      2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
  if (df == 0) return std::numeric_limits<double>::infinity();
  if (df <= kTable.size()) return kTable[df - 1];
  // Beyond 30, interpolate linearly in 1/df between tabulated points (error < 0.001).
  static constexpr std::array<std::pair<double, double>, 4> kTail = {
      {{30, 2.0423}, {40, 2.0211}, {60, 2.0003}, {120, 1.9799}}};
  const double x = 1.0 / static_cast<double>(df);
  for (size_t i = 0; i + 1 < kTail.size(); ++i) {
    const double d0 = kTail[i].first, d1 = kTail[i + 1].first;
    if (static_cast<double>(df) <= d1) {
      const double x0 = 1 / d0, x1 = 1 / d1;
      return kTail[i].second + (x - x0) / (x1 - x0) * (kTail[i + 1].second - kTail[i].second);
    }
  }
  const double x0 = 1.0 / 120;
  return 1.95996 + (x / x0) * (1.9799 - 1.95996);
}

double HarmonicMean(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double sum = 0;
  for (double x : values) {
    if (!(x > 0)) return 0;
    sum += 1 / x;
  }
  return static_cast<double>(values.size()) / sum;
}

SampleSummary Summarize(const std::vector<double>& values, MeanKind kind) {
  SampleSummary s;
  s.n = values.size();
  s.kind = kind;
  if (values.empty()) return s;
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  const double arithmetic = ArithmeticMean(values);
  if (kind == MeanKind::kHarmonic && !(s.min > 0)) s.kind = MeanKind::kArithmetic;
  s.stddev = SampleStdDev(values);
  s.has_spread = s.n >= 2;
  s.cov = (s.has_spread && arithmetic != 0) ? s.stddev / std::fabs(arithmetic) : 0;
  const double t = s.has_spread ? StudentT975(s.n - 1) : 0;
  if (s.n == 1) {  // exactly the value: no reciprocal round trip
    s.mean = s.ci_low = s.ci_high = values[0];
    return s;
  }
  const double root_n = std::sqrt(static_cast<double>(s.n));
  if (s.kind == MeanKind::kHarmonic) {
    std::vector<double> reciprocals;
    reciprocals.reserve(values.size());
    for (double x : values) reciprocals.push_back(1 / x);
    const double mr = ArithmeticMean(reciprocals);
    s.mean = 1 / mr;
    const double half = t * SampleStdDev(reciprocals) / root_n;
    s.ci_low = 1 / (mr + half);
    s.ci_high = mr - half > 0 ? 1 / (mr - half) : std::numeric_limits<double>::infinity();
  } else {
    s.mean = arithmetic;
    const double half = t * s.stddev / root_n;
    s.ci_low = arithmetic - half;
    s.ci_high = arithmetic + half;
    // Values none of which is negative (durations, rates, counts) have no negative mean: the
    // interval is cut at 0 (a Morton run of two is not "−0.25 s").
    if (s.min >= 0 && s.ci_low < 0) s.ci_low = 0;
  }
  return s;
}

bool IntervalNeedsEnds(const SampleSummary& s) {
  if (!s.has_spread || !std::isfinite(s.ci_low) || !std::isfinite(s.ci_high)) return false;
  return s.min >= 0 && s.mean - (s.ci_high - s.ci_low) / 2 < 0;
}

UTestResult MannWhitneyU(const std::vector<double>& a, const std::vector<double>& b) {
  UTestResult r;
  if (a.empty() || b.empty()) return r;
  const size_t m = a.size(), n = b.size();
  double u = 0;
  for (double x : a) {
    for (double y : b) u += x > y ? 1.0 : (x == y ? 0.5 : 0.0);
  }
  r.u = u;

  // Tie groups over the pooled sample.
  std::vector<double> pooled(a);
  pooled.insert(pooled.end(), b.begin(), b.end());
  std::sort(pooled.begin(), pooled.end());
  double tie_term = 0;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    while (j < pooled.size() && pooled[j] == pooled[i]) ++j;
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }

  if (m <= 20 && n <= 20 && tie_term == 0) {
    const std::vector<double> p = ExactUDistribution(m, n);
    const size_t k = static_cast<size_t>(u);  // no ties: u is a whole number
    double lower = 0, upper = 0;
    for (size_t i = 0; i <= k; ++i) lower += p[i];
    for (size_t i = k; i < p.size(); ++i) upper += p[i];
    r.p_value = std::min(1.0, 2 * std::min(lower, upper));
    r.exact = true;
    return r;
  }

  const double mn = static_cast<double>(m * n);
  const double total = static_cast<double>(m + n);
  const double variance = mn / 12.0 * ((total + 1) - tie_term / (total * (total - 1)));
  if (!(variance > 0)) return r;  // every value equal: no evidence of a difference
  const double mean_u = mn / 2;
  const double z = (std::fabs(u - mean_u) - 0.5) / std::sqrt(variance);
  r.p_value = std::min(1.0, 2 * (1 - NormalCdf(std::max(0.0, z))));
  return r;
}

}  // namespace elevbench
