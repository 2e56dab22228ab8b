#pragma once
// A file or folder of the host that a run's option names for the run to read or write (a trace
// to replay, a job file, a tree to copy), so that `run --kernels` can say, before anything is
// made, which of them a guest cannot reach (docs/kernels.md: the guest's /tmp, /var/tmp and /run
// are its own, and the host's root is read-only in it).

#include <string>

namespace elevbench {

/// One host path an option names.
struct HostPathUse {
  std::string flag;      ///< the option as the user gave it: "--trace", "job file", "program"
  std::string path;      ///< as given (relative to the working directory, or absolute)
  bool written = false;  ///< the run writes there (a file or a folder's files), not only reads
};

}  // namespace elevbench
