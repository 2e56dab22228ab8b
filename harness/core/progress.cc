#include "harness/core/progress.h"

#include <unistd.h>

#include "harness/core/system_info.h"

namespace elevbench {

Progress::Progress(std::FILE* out, bool interactive)
    : out_(out), interactive_(interactive), start_(std::chrono::steady_clock::now()) {}

Progress Progress::ForStderr() { return Progress(stderr, isatty(fileno(stderr)) != 0); }

double Progress::Elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string Progress::FormatDuration(double seconds) {
  if (seconds < 0) seconds = 0;
  long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  } else if (s >= 60) {
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%lds", s);
  }
  return buf;
}

void Progress::Start(const std::string& suite, size_t total_cells) {
  suite_ = suite;
  total_ = total_cells;
  done_ = 0;
  start_ = std::chrono::steady_clock::now();
  if (!interactive_) {
    std::fprintf(out_, "%s %s: %zu cells\n", NowIso8601().c_str(), suite_.c_str(), total_);
    std::fflush(out_);
  }
}

void Progress::BeginCell(size_t index, const std::string& what) {
  index_ = index;
  cell_ = what;
  phase_.clear();
  Draw();
}

void Progress::Phase(const std::string& phase) {
  phase_ = phase;
  Draw();
}

void Progress::EndCell() { ++done_; }

void Progress::Draw() {
  std::string eta = "ETA ?";
  if (done_ > 0) {
    eta = "ETA " + FormatDuration(Elapsed() / static_cast<double>(done_) *
                                  static_cast<double>(total_ - done_));
  }
  if (interactive_) {
    std::fprintf(out_, "\r\033[K[%s] cell %zu/%zu %s %s  %s", suite_.c_str(), index_ + 1, total_,
                 cell_.c_str(), phase_.c_str(), eta.c_str());
    line_open_ = true;
  } else {
    std::fprintf(out_, "%s %s cell %zu/%zu %s %s %s\n", NowIso8601().c_str(), suite_.c_str(),
                 index_ + 1, total_, cell_.c_str(), phase_.c_str(), eta.c_str());
  }
  std::fflush(out_);
}

void Progress::Note(const std::string& message) {
  if (line_open_) {
    std::fprintf(out_, "\r\033[K");
    line_open_ = false;
  }
  std::fprintf(out_, "%s\n", message.c_str());
  std::fflush(out_);
  if (interactive_ && total_ > 0 && done_ < total_ && !cell_.empty()) Draw();
}

void Progress::Finish(bool stopped) {
  if (line_open_) {
    std::fprintf(out_, "\r\033[K");
    line_open_ = false;
  }
  if (!interactive_ && total_ > 0 && !stopped) {
    std::fprintf(out_, "%s %s: done in %s\n", NowIso8601().c_str(), suite_.c_str(),
                 FormatDuration(Elapsed()).c_str());
  } else if (!interactive_ && total_ > 0) {
    std::fprintf(out_, "%s %s: stopped after %s, %zu of %zu cells done\n", NowIso8601().c_str(),
                 suite_.c_str(), FormatDuration(Elapsed()).c_str(), done_, total_);
  }
  std::fflush(out_);
}

}  // namespace elevbench
