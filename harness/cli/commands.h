#pragma once
// One function per subcommand. Each returns a process exit code (cli.h ExitCode) and prints its
// own one-line errors; the CLI layer only parses and dispatches.

#include <cstdint>
#include <string>
#include <vector>

#include "scenarios/tiobench/tiobench.h"

namespace elevbench {

/// Options of `elevbench run`.
struct RunOptions {
  std::string suite;
  TiobenchParams tio;
  bool size_given = false;
  std::string scratch;                     ///< "--scratch SIZE"
  std::string fs = "ext4";                 ///< filesystem of a scratch or emulated device
  std::string emulated;                    ///< "--emulated PROFILE[:SIZE]"
  std::vector<std::string> disk_settings;  ///< "--disk-set key=value" model overrides
  std::string disk_trace;                  ///< "--disk-trace FILE"
  std::string device;      ///< "--device NAME": consent to switch a device we did not make
  std::string schedulers;  ///< "all" or a list; empty = current scheduler only
  std::string queue;       ///< "--queue attr=value,..."
  uint32_t repetitions = 1;
  uint64_t seed = 0;
  bool seed_given = false;
  bool no_drop_caches = false;
  std::string identifier;
  std::string format = "nick";
  std::string out;
  std::string command_line;
};

/// `elevbench run SUITE …`
int RunCommand(const RunOptions& options);

/// `elevbench report FILE --format F`
int ReportCommand(const std::string& path, const std::string& format);

/// `elevbench devices [--json]`
int DevicesCommand(bool json);

/// `elevbench restore`
int RestoreCommand();

/// Options of `elevbench disk serve`.
struct DiskServeOptions {
  std::string backing;
  std::string mountpoint;
  std::string profile = "ide-2003";
  std::vector<std::string> settings;
  std::string trace;
};

/// `elevbench disk serve …` (the FUSE daemon, in the foreground).
int DiskServeCommand(const DiskServeOptions& options);

/// `elevbench disk profiles [--json]`
int DiskProfilesCommand(bool json);

}  // namespace elevbench
