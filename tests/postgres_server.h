#pragma once
// A throw-away PostgreSQL server for tests: initdb and pg_ctl in a temporary directory, the
// socket there too, stopped and removed by the destructor. As root the server runs as the user
// `postgres` (else `nobody`) through setpriv, as PostgreSQL refuses to run as root.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "harness/history/sql_connection.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench::testing {

// The directory of PostgreSQL's server programs, or "" when not installed.
inline std::string PostgresBinDir() {
  for (const char* dir : {"/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin",
                          "/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/14/bin"}) {
    if (access((std::string(dir) + "/initdb").c_str(), X_OK) == 0 &&
        access((std::string(dir) + "/pg_ctl").c_str(), X_OK) == 0) {
      return dir;
    }
  }
  return "";
}

// A TCP port nobody listens on now (the server listens on its unix socket only; the port
// names that socket).
inline int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 54329;
  if (fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  if (fd >= 0) close(fd);
  return port;
}

// A PostgreSQL server in a temporary directory: initdb, pg_ctl start with the socket in that
// directory, and on destruction pg_ctl stop (immediate) and the directory removed, whatever the
// tests did. PostgreSQL refuses to run as root, so as root the server runs as the user
// `postgres` (else `nobody`) through setpriv, and the directory is theirs.
class ScopedPostgresServer {
 public:
  // False with `why` when the server cannot be had (binaries missing, start failed).
  bool Start(std::string* why) {
    bin_ = PostgresBinDir();
    if (bin_.empty()) {
      *why = "PostgreSQL's server programs are not installed (Debian: postgresql)";
      return false;
    }
    dir_ = std::make_unique<ScopedTempDir>();
    if (geteuid() == 0) {
      const passwd* pw = getpwnam("postgres");
      if (pw == nullptr) pw = getpwnam("nobody");
      if (pw == nullptr || access("/usr/bin/setpriv", X_OK) != 0) {
        *why = "running as root without a 'postgres' or 'nobody' user and setpriv";
        return false;
      }
      if (chown(dir_->path().c_str(), pw->pw_uid, pw->pw_gid) != 0) {
        *why = "cannot give " + dir_->path() + " to " + pw->pw_name;
        return false;
      }
      as_user_ = {"/usr/bin/setpriv", "--reuid=" + std::to_string(pw->pw_uid),
                  "--regid=" + std::to_string(pw->pw_gid), "--clear-groups", "--"};
    }
    port_ = FreePort();
    const std::string data = dir_->path() + "/data";
    if (!Run({bin_ + "/initdb", "-D", data, "-U", "elevbench", "--auth=trust", "-E", "UTF8",
              "--locale=C", "--no-sync", "--no-instructions"},
             why)) {
      return false;
    }
    // -l: the server's output goes to a file, not to the pipe this test reads.
    if (!Run({bin_ + "/pg_ctl", "-D", data, "-l", dir_->path() + "/server.log", "-w", "-t", "60",
              "-o",
              "-k " + dir_->path() + " -p " + std::to_string(port_) +
                  " -c listen_addresses='' -c fsync=off",
              "start"},
             why)) {
      return false;
    }
    started_ = true;
    return true;
  }

  ~ScopedPostgresServer() {
    if (started_) {
      std::string ignored;
      (void)Run({bin_ + "/pg_ctl", "-D", dir_->path() + "/data", "-m", "immediate", "-w", "stop"},
                &ignored);
    }
    dir_.reset();  // removes the data directory and the socket
  }

  // The URI of database `name` on this server.
  std::string Uri(const std::string& name) const {
    return "postgresql:///" + name + "?host=" + dir_->path() + "&port=" + std::to_string(port_) +
           "&user=elevbench";
  }

  // A fresh, empty database.
  bool CreateDatabase(const std::string& name, std::string* err) const {
    std::unique_ptr<SqlConnection> connection;
    return OpenPostgresConnection(Uri("postgres"), &connection, err) &&
           connection->Run("CREATE DATABASE " + name, err);
  }

  std::string directory() const { return dir_ ? dir_->path() : ""; }

 private:
  bool Run(std::vector<std::string> argv, std::string* why) const {
    argv.insert(argv.begin(), as_user_.begin(), as_user_.end());
    ProcessOptions options;
    options.timeout_seconds = 120;
    ProcessResult result;
    if (!RunProcess(argv, options, &result, why)) return false;
    if (result.exit_code != 0) {
      *why = argv[as_user_.size()] + " failed (exit " + std::to_string(result.exit_code) +
             "): " + OneLineMessage(result.error_output + " " + result.output);
      return false;
    }
    return true;
  }

  std::string bin_;
  std::unique_ptr<ScopedTempDir> dir_;
  std::vector<std::string> as_user_;
  int port_ = 0;
  bool started_ = false;
};

}  // namespace elevbench::testing
