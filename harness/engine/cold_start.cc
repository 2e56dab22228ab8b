#include "harness/engine/cold_start.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "harness/core/strings.h"
#include "harness/process/subprocess.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

// The text before " (0x" (the load address ldd appends), trimmed.
std::string WithoutAddress(const std::string& s) {
  const size_t at = s.find(" (0x");
  return TrimWhitespace(at == std::string::npos ? s : s.substr(0, at));
}

// `program` as an absolute path: as given when it has a slash, else the first executable of
// that name in PATH.
bool FindProgram(const std::string& program, std::string* path, std::string* err) {
  if (program.find('/') != std::string::npos) {
    if (access(program.c_str(), X_OK) != 0) {
      *err = program + " is not an executable file";
      return false;
    }
    std::error_code ec;
    *path = fs::absolute(program, ec).string();
    return true;
  }
  const char* env = std::getenv("PATH");
  std::stringstream dirs(env ? env : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/" + program;
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(candidate.c_str(), X_OK) == 0) {
      *path = candidate;
      return true;
    }
  }
  *err = program + " is not installed (not found in PATH)";
  return false;
}

// Copies the content of `from` (symlinks followed) to the new file `to`, mode 0755, fsync'ed.
bool CopyFileSynced(const std::string& from, const std::string& to, uint64_t* bytes,
                    std::string* err) {
  const int in = open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    *err = "cannot read " + from + ": " + std::strerror(errno);
    return false;
  }
  const int out = open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  if (out < 0) {
    *err = "cannot create " + to + ": " + std::strerror(errno);
    close(in);
    return false;
  }
  std::string buf(1 << 16, '\0');
  bool ok = true;
  for (;;) {
    const ssize_t n = read(in, buf.data(), buf.size());
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      *err = "cannot read " + from + ": " + std::strerror(errno);
      ok = false;
      break;
    }
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = write(out, buf.data() + done, static_cast<size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        *err = "cannot write " + to + ": " + std::strerror(errno);
        ok = false;
        break;
      }
      done += w;
      *bytes += static_cast<uint64_t>(w);
    }
    if (!ok) break;
  }
  if (ok && (fchmod(out, 0755) != 0 || fsync(out) != 0)) {
    *err = "cannot sync " + to + ": " + std::strerror(errno);
    ok = false;
  }
  close(in);
  if (close(out) != 0 && ok) {
    *err = "cannot close " + to + ": " + std::strerror(errno);
    ok = false;
  }
  return ok;
}

}  // namespace

bool ParseLddOutput(const std::string& text, LddListing* listing, std::string* err) {
  LddListing parsed;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t arrow = line.find("=>");
    if (arrow == std::string::npos) {
      const std::string path = WithoutAddress(line);
      if (!path.empty() && path[0] == '/') parsed.loader = path;
      continue;  // linux-vdso.so.1 and the like: nothing to copy
    }
    const std::string name = TrimWhitespace(line.substr(0, arrow));
    const std::string target = WithoutAddress(line.substr(arrow + 2));
    if (target == "not found" || target.empty() || target[0] != '/') {
      *err = "ldd: " + name + " not found";
      return false;
    }
    parsed.libraries.emplace_back(name, target);
  }
  if (parsed.loader.empty()) {
    *err = "ldd lists no dynamic loader (a static program?)";
    return false;
  }
  *listing = std::move(parsed);
  return true;
}

bool CopyProgramForColdStart(const std::string& program, const std::vector<std::string>& args,
                             const std::string& root, ColdStartProgram* out, std::string* err) {
  ColdStartProgram p;
  p.args = args;
  p.root = root;
  if (!FindProgram(program, &p.source, err)) return false;
  std::string ldd_out;
  if (!RunChecked({"ldd", p.source}, &ldd_out, err)) {
    *err = "ldd " + p.source + ": " + *err;
    return false;
  }
  LddListing listing;
  if (!ParseLddOutput(ldd_out, &listing, err)) {
    *err = p.source + ": " + *err;
    return false;
  }
  std::error_code ec;
  fs::create_directories(root + "/bin", ec);
  if (!ec) fs::create_directories(root + "/lib", ec);
  if (ec) {
    *err = "cannot make " + root + ": " + ec.message();
    return false;
  }
  p.binary = root + "/bin/" + fs::path(p.source).filename().string();
  p.library_dir = root + "/lib";
  p.loader = p.library_dir + "/" + fs::path(listing.loader).filename().string();
  std::vector<std::pair<std::string, std::string>> copies = {{p.source, p.binary},
                                                             {listing.loader, p.loader}};
  for (const auto& [soname, path] : listing.libraries) {
    const std::string to = p.library_dir + "/" + fs::path(soname).filename().string();
    if (to != p.loader) copies.emplace_back(path, to);
  }
  for (const auto& [from, to] : copies) {
    if (!CopyFileSynced(from, to, &p.bytes, err)) return false;
    p.files.push_back(to);
  }
  *out = std::move(p);
  return true;
}

std::vector<std::string> ColdStartArgv(const ColdStartProgram& program) {
  std::vector<std::string> argv = {program.loader, "--inhibit-cache", "--library-path",
                                   program.library_dir, program.binary};
  argv.insert(argv.end(), program.args.begin(), program.args.end());
  return argv;
}

std::string ColdStartCommandText(const ColdStartProgram& program) {
  std::string text = fs::path(program.source).filename().string();
  for (const std::string& a : program.args) text += " " + a;
  return text;
}

}  // namespace elevbench
