#pragma once
// Progress of a long run on stderr: one updating line (phase, cell i/N, ETA) on a terminal, and
// plain timestamped log lines otherwise (CI logs, pipes).

#include <chrono>
#include <cstdio>
#include <string>

namespace elevbench {

/// Reports run progress. Not thread-safe; the orchestrator is single-threaded.
class Progress {
 public:
  /// `out` is usually stderr; `interactive` selects the updating line (isatty(out)).
  Progress(std::FILE* out, bool interactive);
  /// Creates a reporter on stderr, interactive when stderr is a terminal.
  static Progress ForStderr();

  /// Begins a run of `total_cells` cells of `suite`.
  void Start(const std::string& suite, size_t total_cells);
  /// Cell `index` (0-based) begins; `what` names it ("bfq-ll0 threads=4 rep 1").
  void BeginCell(size_t index, const std::string& what);
  /// A phase inside the current cell begins ("seq_read").
  void Phase(const std::string& phase);
  /// The current cell ended (counts towards the ETA).
  void EndCell();
  /// A message that must stay visible (notices, warnings): printed on its own line.
  void Note(const std::string& message);
  /// Clears the updating line at the end and, in a log, says how it ended: "done in 8s", or
  /// with `stopped` (a signal, a failed set-up, a lost target) "stopped after 8s, 3 of 12 cells
  /// done", so that an interrupted run's log never reads as a finished one.
  void Finish(bool stopped = false);

  /// "1h02m", "3m05s", "42s".
  static std::string FormatDuration(double seconds);

 private:
  void Draw();
  double Elapsed() const;

  std::FILE* out_;
  bool interactive_;
  std::string suite_;
  size_t total_ = 0;
  size_t index_ = 0;
  size_t done_ = 0;
  std::string cell_;
  std::string phase_;
  std::chrono::steady_clock::time_point start_;
  bool line_open_ = false;
};

}  // namespace elevbench
