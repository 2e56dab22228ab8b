#pragma once
// `iocost:model=measure` (docs/controls.md): io.cost's linear model of the target measured with
// the kernel's own recipe, tools/cgroup/iocost_coef_gen.py: six fio runs with O_DIRECT and
// libaio (sequential reads in 128 MiB blocks at depth 1 → rbps; 4 KiB sequential and random
// reads at depth 64 → rseqiops, rrandiops; the same three for writes), each its throughput,
// under scheduler none with merges off so the device's own cost is what is measured. The
// kernel's script runs each for 120 s on a 16 GiB file; the run here gives each
// `seconds_each` on a file of `file_bytes` on the target's filesystem (docs/controls.md gives
// the sizes and why).

#include <cstdint>
#include <string>

#include "harness/machine/io_cost.h"

namespace elevbench {

/// One of the recipe's six runs.
struct IoCostProbe {
  const char* key;        ///< "rbps", "rseqiops", …
  const char* readwrite;  ///< fio's rw=
  uint64_t block_bytes;
  int iodepth;
  bool bytes;  ///< the key is bytes/s (else IOPS: the throughput / the block size)
};

/// The recipe's six runs in its order.
const IoCostProbe (&IoCostRecipe())[6];

/// The fio command line of one run on `file` (`file_bytes` long) for `seconds`, JSON output.
std::vector<std::string> IoCostProbeCommand(const std::string& fio, const IoCostProbe& probe,
                                            const std::string& file, uint64_t file_bytes,
                                            double seconds);

/// The bytes/s of one run from fio's JSON output (the sum of every job's read and write
/// bw_bytes, as the recipe sums them). False with one line in err when it is not fio's JSON.
[[nodiscard]] bool IoCostProbeThroughput(const std::string& json_text, double* bytes_per_second,
                                         std::string* err);

/// Runs the recipe (the caller has switched the disk to none with nomerges=1); fio lays `file`
/// out. A block larger than the file (128 MiB on a small target) is cut to the file's size,
/// which fio requires. Each fio run is stopped at seconds_each + 60. False with one line in err.
[[nodiscard]] bool MeasureIoCostModel(const std::string& fio, const std::string& file,
                                      uint64_t file_bytes, double seconds_each, IoCostModel* model,
                                      std::string* err);

}  // namespace elevbench
