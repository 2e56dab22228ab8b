#include "scenarios/visave/vi_save.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace elevbench {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double Seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

std::string Reason(const std::string& step, const std::string& file) {
  return step + " " + file + ": " + std::strerror(errno);
}

bool WriteAll(int fd, const std::string& text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::string ViSaveTempPath(const std::string& path) { return path + ".elevbench~"; }

std::string ViSaveContent(size_t bytes) {
  static const char kLine[] = "a quick save: a line of plain text as a vi user has it, and a tab\n";
  std::string text;
  while (text.size() < bytes) text += kLine;
  text.resize(bytes);
  if (!text.empty()) text.back() = '\n';
  return text;
}

bool ViStyleSave(const std::string& path, const std::string& content, SaveTiming* timing,
                 std::string* err) {
  const std::string temp = ViSaveTempPath(path);
  (void)unlink(temp.c_str());
  rusage before{};
  (void)getrusage(RUSAGE_THREAD, &before);
  const double t0 = Now();
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    *err = Reason("create", temp);
    return false;
  }
  if (!WriteAll(fd, content)) {
    *err = Reason("write", temp);
    close(fd);
    unlink(temp.c_str());
    return false;
  }
  const double t1 = Now();
  if (fsync(fd) != 0) {
    *err = Reason("fsync", temp);
    close(fd);
    unlink(temp.c_str());
    return false;
  }
  const double t2 = Now();
  if (close(fd) != 0) {
    *err = Reason("close", temp);
    unlink(temp.c_str());
    return false;
  }
  if (rename(temp.c_str(), path.c_str()) != 0) {
    *err = Reason("rename", temp);
    unlink(temp.c_str());
    return false;
  }
  const double t3 = Now();
  rusage after{};
  (void)getrusage(RUSAGE_THREAD, &after);
  SaveTiming t;
  t.wall_seconds = t3 - t0;
  t.write_seconds = t1 - t0;
  t.fsync_seconds = t2 - t1;
  t.rename_seconds = t3 - t2;
  t.user_seconds = Seconds(after.ru_utime) - Seconds(before.ru_utime);
  t.system_seconds = Seconds(after.ru_stime) - Seconds(before.ru_stime);
  t.block_input_ops = after.ru_inblock - before.ru_inblock;
  t.block_output_ops = after.ru_oublock - before.ru_oublock;
  t.voluntary_switches = after.ru_nvcsw - before.ru_nvcsw;
  t.involuntary_switches = after.ru_nivcsw - before.ru_nivcsw;
  *timing = t;
  return true;
}

}  // namespace elevbench
