#pragma once
// One function per subcommand. Each returns a process exit code (cli.h ExitCode) and prints its
// own one-line errors; the CLI layer only parses and dispatches.

#include <cstdint>
#include <string>
#include <vector>

#include "harness/run/results.h"
#include "harness/run/suite.h"

namespace CLI {
class App;
}

namespace elevbench {

/// Options of `elevbench run SUITE`, common to every suite. The suite's own options live in the
/// suite object (harness/run/suite.h), which parsed them.
struct RunOptions {
  const SuiteEntry* entry = nullptr;       ///< the suite chosen on the command line
  Suite* suite = nullptr;                  ///< its object, options parsed
  std::string directory;                   ///< "--dir DIR"
  std::string scratch;                     ///< "--scratch SIZE"
  std::string fs = "ext4";                 ///< filesystem of a scratch or emulated device
  std::string emulated;                    ///< "--emulated PROFILE[:SIZE]"
  std::vector<std::string> disk_settings;  ///< "--disk-set key=value" model overrides
  std::string disk_trace;                  ///< "--disk-trace FILE"
  bool keep_wbt = false;   ///< "--keep-wbt": today's writeback throttling on the emulated disk
  std::string device;      ///< "--device NAME": consent to switch a device we did not make
  std::string schedulers;  ///< "all" or a list; empty = current scheduler only
  std::string queue;       ///< "--queue attr=value,..."
  uint32_t repetitions = 1;
  uint64_t seed = 0;
  bool seed_given = false;
  bool no_drop_caches = false;
  double timeout_seconds = 0;  ///< "--timeout": one fio phase or probe; 0 = the suite's default
  std::string identifier;
  std::string format;  ///< empty = the suite's default text format
  std::string out;
  std::string command_line;
  std::string history_db;   ///< "--db": the run history; empty = results/history.db
  bool no_history = false;  ///< "--no-history": do not record the run
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

/// The run history's subcommands (cmd_history.cc): `history`, `history import FILE…` and
/// `trend`. Their options live here; AddHistoryCommands registers them on the app.
struct HistoryCommands {
  std::string db;  ///< "--db": an SQLite file or a postgresql:// URI; empty = the default
  std::string suite, section, row, configuration, metric, host;
  uint32_t last = 0;
  bool json = false;
  std::vector<std::string> files;  ///< `history import FILE…`
  CLI::App* history_cmd = nullptr;
  CLI::App* import_cmd = nullptr;
  CLI::App* trend_cmd = nullptr;
};

/// Adds `history` (with `import`) and `trend` to `app`, bound to `commands`.
void AddHistoryCommands(CLI::App* app, HistoryCommands* commands);

/// Runs whichever history subcommand was parsed; -1 when none was.
int RunHistoryCommands(const HistoryCommands& commands);

/// The end of `elevbench run`: records the run (the results file at `out_path`) in the
/// history unless --no-history, and says so, or why not, in one note on stderr. Never fails
/// the run: the results file is already complete.
void NoteRunInHistory(const RunOptions& options, const std::string& out_path,
                      const ResultsDocument& doc);

}  // namespace elevbench
