#pragma once
// Statistics of repetitions: the summary of one sample (n, mean, spread, a 95 % confidence
// interval) and the Mann–Whitney U test that `compare` uses. Pure functions, no I/O.

#include <cstddef>
#include <vector>

#include "harness/stats/measurement.h"

namespace elevbench {

/// The significance level of the U test and the noise threshold (in % of the mean) a difference
/// must pass: `compare`'s defaults (--alpha, --threshold) and the verdict block's, in one place
/// so that the two never disagree about what counts as a difference.
inline constexpr double kDefaultAlpha = 0.05;
inline constexpr double kDefaultThresholdPct = 5.0;

/// The summary of one sample. With n = 0 nothing is measured (every field but n is 0 and must
/// not be printed as a number); with n = 1 there is a mean but no spread (has_spread false).
struct SampleSummary {
  size_t n = 0;
  MeanKind kind = MeanKind::kArithmetic;
  double mean = 0;    ///< arithmetic or harmonic, as `kind` says
  double stddev = 0;  ///< sample standard deviation (n - 1) of the values; 0 when n < 2
  double cov = 0;     ///< stddev / arithmetic mean; 0 when n < 2 or the mean is 0
  double ci_low = 0;  ///< 95 % confidence interval of `mean` (Student t); = mean when n < 2
  double ci_high = 0;
  double min = 0;
  double max = 0;
  bool has_spread = false;  ///< n >= 2: stddev, cov and the interval mean something
};

/// Summarises `values`. For the harmonic mean the interval is the Student t interval of the
/// mean of the reciprocals, inverted (so it is asymmetric, as the harmonic mean is); its upper
/// end is +infinity when that interval reaches zero (few, widely spread values). A harmonic
/// mean of values with a zero or negative one falls back to the arithmetic mean (kind says so).
/// The arithmetic interval of values none of which is negative is cut at 0 (ci_low >= 0).
SampleSummary Summarize(const std::vector<double>& values, MeanKind kind);

/// True when "mean ± half-width" would reach below 0 for a sample none of whose values is
/// negative (a duration, a rate): its interval was cut at 0, or it is a harmonic mean's
/// asymmetric one. Such an interval must be printed by its ends ("0 – 0.61"), since a duration
/// or rate with a negative bound is not a number a reader can trust (issue #29). False without
/// a spread or with an unbounded end.
bool IntervalNeedsEnds(const SampleSummary& summary);

/// The 0.975 quantile of Student's t with `df` degrees of freedom (df >= 1): the factor of a
/// two-sided 95 % interval.
double StudentT975(size_t df);

/// Harmonic mean; 0 for an empty vector or when a value is <= 0.
double HarmonicMean(const std::vector<double>& values);

/// The result of a two-sided Mann–Whitney U test of two samples.
struct UTestResult {
  double u = 0;        ///< U of the first sample (number of pairs where a > b, ties count 1/2)
  double p_value = 1;  ///< two-sided; 1 when either sample is empty
  bool exact = false;  ///< from the exact distribution (small samples without ties)
};

/// Mann–Whitney U: exact null distribution when both samples have at most 20 values and there
/// are no ties, otherwise the normal approximation with tie correction and continuity
/// correction (as google/benchmark and scipy do).
UTestResult MannWhitneyU(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace elevbench
