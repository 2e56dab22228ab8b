#include "harness/guest/guest_vm.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "harness/core/error.h"
#include "harness/core/interrupt.h"
#include "harness/core/strings.h"
#include "harness/process/subprocess.h"

namespace elevbench {
namespace fs = std::filesystem;
namespace {

double GuestNowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string GuestReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

uint64_t GuestFileSize(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

}  // namespace

// The files and processes of one guest, journaled as they are made and given back in reverse
// by Release (also on every early return: the destructor).
class GuestResources {
 public:
  GuestResources(RestoreJournal* journal, std::string dir) : journal_(journal), dir_(dir) {}
  ~GuestResources() { Release(); }
  bool MakeDir(std::string* err) {
    if (!journal_->Record(JournalEntry::Directory(dir_), err)) return false;
    if (mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST) {
      return Fail(err, ErrnoMessage("cannot make", dir_, errno));
    }
    made_dir_ = true;
    return true;
  }
  bool AddFile(const std::string& path, std::string* err) {
    files_.push_back(path);
    return journal_->Record(JournalEntry::File(path), err);
  }
  bool Start(ChildProcess* child, const std::vector<std::string>& argv,
             const ProcessOptions& options, std::string* err) {
    if (!child->Start(argv, options, err)) return false;
    children_.push_back(child);
    uint64_t start = 0;
    std::string comm;
    if (ReadProcessIdentity(child->pid(), &start, &comm, err)) {
      entries_.push_back(JournalEntry::Process(child->pid(), start, comm));
    }
    return journal_->RecordProcess(child->pid(), err);
  }
  void Release() {
    std::string ignored;
    for (auto it = children_.rbegin(); it != children_.rend(); ++it) (void)(*it)->Stop(2, &ignored);
    children_.clear();
    for (const JournalEntry& e : entries_) (void)journal_->Forget(e, &ignored);
    entries_.clear();
    for (const std::string& f : files_) {
      unlink(f.c_str());
      (void)journal_->Forget(JournalEntry::File(f), &ignored);
    }
    files_.clear();
    if (made_dir_) {
      rmdir(dir_.c_str());
      (void)journal_->Forget(JournalEntry::Directory(dir_), &ignored);
      made_dir_ = false;
    }
  }

 private:
  RestoreJournal* journal_;
  std::string dir_;
  bool made_dir_ = false;
  std::vector<std::string> files_;
  std::vector<ChildProcess*> children_;
  std::vector<JournalEntry> entries_;
};

namespace {

// Waits up to 10 s for virtiofsd's socket; false when it did not appear or the daemon died.
bool AwaitSocket(const std::string& socket, ChildProcess* daemon, std::string* err) {
  const double deadline = GuestNowSeconds() + 10;
  while (GuestNowSeconds() < deadline) {
    if (fs::exists(socket)) return true;
    if (!daemon->running()) {
      return Fail(err,
                  "virtiofsd ended before its socket: " + LastLine(daemon->result().error_output));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Fail(err, "virtiofsd made no socket " + socket + " within 10 s");
}

// Hands every whole new line of the log after `*offset` to on_line.
void RelayNewLogLines(const std::string& log_path, uint64_t* offset,
                      const std::function<void(const std::string&)>& on_line) {
  std::ifstream in(log_path, std::ios::binary);
  if (!in) return;
  in.seekg(static_cast<std::streamoff>(*offset));
  std::string line;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // an unfinished line: read it whole next time
    *offset += line.size() + 1;
    const size_t cr = line.find_last_of('\r');
    if (cr != std::string::npos) line = line.substr(cr + 1);
    if (!line.empty() && on_line) on_line(line);
  }
}

}  // namespace

std::string ConsoleTail(const std::string& console_text, size_t lines) {
  std::vector<std::string> kept;
  std::string line;
  std::istringstream in(console_text);
  while (std::getline(in, line)) {
    const size_t cr = line.find_last_of('\r');
    if (cr != std::string::npos) line = line.substr(cr + 1);
    std::string clean;
    for (char c : line) {
      if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) clean += c;
    }
    clean = TrimWhitespace(clean);
    if (!clean.empty()) kept.push_back(clean);
  }
  const size_t from = kept.size() > lines ? kept.size() - lines : 0;
  return JoinWith(std::vector<std::string>(kept.begin() + static_cast<long>(from), kept.end()),
                  " | ");
}

void ReadGuestMarkers(const std::string& console_text, GuestOutcome* outcome) {
  std::istringstream in(console_text);
  std::string line;
  while (std::getline(in, line)) {
    const std::string started = kGuestStartedMarker, exited = kGuestExitMarker,
                      failed = kGuestFailedMarker, cpu = kGuestCpuMarker;
    const size_t s = line.find(started), e = line.find(exited), f = line.find(failed),
                 c = line.find(cpu);
    if (c != std::string::npos) {
      const std::vector<std::string> words = SplitWords(line.substr(c + cpu.size()));
      if (words.size() == 2) {
        outcome->cpu_probe_seconds =
            std::max(0.0, std::atof(words[1].c_str()) - std::atof(words[0].c_str()));
      }
    } else if (s != std::string::npos) {
      outcome->started = true;
      outcome->facts = TrimWhitespace(line.substr(s + started.size()));
    } else if (e != std::string::npos) {
      outcome->exited = true;
      outcome->exit_code = std::atoi(line.c_str() + e + exited.size());
    } else if (f != std::string::npos && outcome->failure.empty()) {
      outcome->failure =
          "the guest's set-up failed: " + TrimWhitespace(line.substr(f + failed.size()));
    }
  }
}

GuestVm::GuestVm(RestoreJournal* journal, std::string scratch_dir)
    : journal_(journal), scratch_dir_(std::move(scratch_dir)) {}

GuestVm::~GuestVm() {
  if (resources_) resources_->Release();
}

ChildProcess* GuestVm::qemu() { return qemu_.get(); }

bool GuestVm::Start(const GuestRun& run, const GuestLimits& limits, std::string* err) {
  run_ = run;
  limits_ = limits;
  resources_ = std::make_unique<GuestResources>(journal_, scratch_dir_);
  host_fs_ = std::make_unique<ChildProcess>();
  work_fs_ = std::make_unique<ChildProcess>();
  qemu_ = std::make_unique<ChildProcess>();
  GuestResources& res = *resources_;
  const std::string initramfs = scratch_dir_ + "/initramfs.cpio";
  const std::string host_socket = scratch_dir_ + "/host.sock";
  const std::string work_socket = scratch_dir_ + "/work.sock";
  console_ = run.work_dir + "/console.log";
  ProcessOptions daemon_options;
  daemon_options.stdout_path = "/dev/null";
  daemon_options.capture_stderr = false;  // unread while the guest runs: it must not fill a pipe
  ProcessOptions qemu_options;
  qemu_options.stdout_path = "/dev/null";
  qemu_options.kill_grace_seconds = 5;
  unlink(console_.c_str());
  const bool ok =
      res.MakeDir(err) && res.AddFile(initramfs, err) && res.AddFile(host_socket, err) &&
      res.AddFile(work_socket, err) && WriteGuestInitramfs(run, initramfs, err) &&
      res.Start(host_fs_.get(), VirtiofsdArgv("/", host_socket, "auto"), daemon_options, err) &&
      AwaitSocket(host_socket, host_fs_.get(), err) &&
      res.Start(work_fs_.get(), VirtiofsdArgv(run.work_dir, work_socket), daemon_options, err) &&
      AwaitSocket(work_socket, work_fs_.get(), err) &&
      res.Start(qemu_.get(), QemuArgv(run, initramfs, host_socket, work_socket, console_),
                qemu_options, err);
  if (!ok) {
    res.Release();
    return false;
  }
  start_ = last_growth_ = GuestNowSeconds();
  return true;
}

bool GuestVm::Poll(const std::function<void(const std::string& line)>& on_log_line) {
  if (!qemu_ || !qemu_->running()) return false;
  RelayNewLogLines(run_.log_path, &log_offset_, on_log_line);
  const double now = GuestNowSeconds();
  const uint64_t bytes = GuestFileSize(console_) + GuestFileSize(run_.log_path);
  if (bytes != seen_bytes_) last_growth_ = now;
  seen_bytes_ = bytes;
  if (!outcome_.started) ReadGuestMarkers(GuestReadFile(console_), &outcome_);
  std::string why;
  if (!outcome_.started && now - start_ > limits_.start_seconds) {
    why = "did not start within " + FormatDouble("%.0f", limits_.start_seconds) + " s";
  } else if (now - last_growth_ > limits_.stall_seconds) {
    why = "made no progress for " + FormatDouble("%.0f", limits_.stall_seconds) + " s";
  } else if (limits_.total_seconds > 0 && now - start_ > limits_.total_seconds) {
    why = "ran past its deadline of " + FormatDouble("%.0f", limits_.total_seconds) + " s";
  }
  if (why.empty()) return true;
  outcome_.failure = "the guest " + why + "; stopped";
  std::string err;
  (void)qemu_->Stop(5, &err);
  return false;
}

GuestOutcome GuestVm::Finish() {
  RelayNewLogLines(run_.log_path, &log_offset_, nullptr);
  GuestOutcome o = outcome_;
  o.interrupted = qemu_->result().interrupted || InterruptRequested();
  o.wall_seconds = GuestNowSeconds() - start_;
  const std::string console_text = GuestReadFile(console_);
  ReadGuestMarkers(console_text, &o);
  if (o.failure.empty() && !o.exited) {
    o.failure = o.interrupted ? "the guest was stopped by an interrupt"
                : !o.started  ? "the guest ended before its command started"
                              : "the guest ended before its command did";
    if (!qemu_->result().error_output.empty()) {
      o.failure += " (qemu: " + LastLine(qemu_->result().error_output) + ")";
    }
  }
  if (!o.failure.empty()) o.console_tail = ConsoleTail(console_text, 6);
  resources_->Release();
  return o;
}

bool RunGuest(const GuestRun& run, const GuestLimits& limits, const std::string& scratch_dir,
              RestoreJournal* journal, const std::function<void(const std::string&)>& on_log_line,
              GuestOutcome* outcome, std::string* err) {
  GuestVm vm(journal, scratch_dir);
  if (!vm.Start(run, limits, err)) return false;
  while (vm.Poll(on_log_line)) ChildProcess::AwaitAnyExit({vm.qemu()}, 0.5);
  *outcome = vm.Finish();
  return true;
}

}  // namespace elevbench
