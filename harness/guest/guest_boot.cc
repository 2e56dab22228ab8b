#include "harness/guest/guest_boot.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "harness/core/error.h"
#include "harness/core/strings.h"
#include "harness/process/subprocess.h"

namespace elevbench {
namespace fs = std::filesystem;
namespace {

// The modules the guest loads itself before the command: those whose device node the command
// opens (/dev/loop-control, /dev/fuse), which devtmpfs makes only once the driver is there (no
// udev in the guest makes the static nodes). Everything else the kernel asks for when it is used
// (kernel.modprobe, GuestInitScript): a filesystem at its mount, a scheduler at its sysfs
// switch, through busybox's modprobe over the kernel's own modules.dep and modules.alias. A
// module the kernel has built in or lacks is skipped quietly: the run's own checks name what
// is missing.
constexpr const char* kGuestRunModules[] = {"loop", "fuse"};

// The busybox applets the init script calls.
constexpr const char* kInitApplets[] = {"sh",    "mount",  "modprobe", "mkdir",    "cat",
                                        "echo",  "chroot", "sync",     "poweroff", "tail",
                                        "sleep", "grep",   "tr"};

// The host's folders that a guest's private tmpfs covers in the chroot.
constexpr const char* kGuestPrivateMounts[] = {"/tmp", "/var/tmp", "/run"};

// `path` is `dir` or below it.
bool GuestPathAtOrBelow(const std::string& path, const std::string& dir) {
  return path == dir || path.rfind(dir + "/", 0) == 0;
}

// The private mount that holds absolute `path` ("/tmp"), or "" for none.
std::string GuestPrivateMountHolding(const std::string& path) {
  for (const char* top : kGuestPrivateMounts) {
    if (GuestPathAtOrBelow(path, top)) return top;
  }
  return "";
}

// The command's binary directory and working directory where the guest's private tmpfs would
// hide them (under /tmp, /var/tmp or /run), each once, outermost first.
std::vector<std::string> HostPathsBoundBack(const std::string& binary_dir,
                                            const std::string& working_directory) {
  std::vector<std::string> out;
  for (const std::string& p : {binary_dir, working_directory}) {
    const std::string top = GuestPrivateMountHolding(p);
    const bool hidden = !top.empty() && p != top;
    bool covered = false;
    for (const std::string& o : out) covered = covered || GuestPathAtOrBelow(p, o);
    if (hidden && !covered) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string BinaryDirOf(const std::string& binary) {
  return binary.substr(0, binary.find_last_of('/'));
}

std::vector<std::string> HostPathsUnderPrivateMounts(const GuestRun& run) {
  return HostPathsBoundBack(run.argv.empty() ? "" : BinaryDirOf(run.argv[0]),
                            run.working_directory);
}

// Lines of the init script that prepare the guest up to the chroot.
void AppendGuestMounts(const GuestRun& run, std::ostringstream& s) {
  const std::string h = "/mnt/host";
  s << "fail() { echo \"" << kGuestFailedMarker << " $*\"; sync; poweroff -f; }\n"
    << "mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev\n"
    << "modprobe virtio_pci 2>/dev/null; modprobe virtiofs 2>/dev/null\n"
    << "mount -t virtiofs -o ro host " << h << " || fail 'cannot mount the host share'\n"
    << "mount --bind " << ShellQuote(h + run.kernel.modules_dir) << " /lib/modules/"
    << run.kernel.release
    << " || fail 'no modules in the cache'\n"
    // The kernel's own request_module (a filesystem, a scheduler, a cgroup controller) runs
    // this modprobe in the initramfs' root, where the kernel's modules are: the command's
    // chroot (the host's root) has none of them, nor perhaps any modprobe.
    << "echo /bin/modprobe > /proc/sys/kernel/modprobe || fail 'cannot set kernel.modprobe'\n"
    << "for m in";
  for (const char* m : kGuestRunModules) s << " " << m;
  s << "; do modprobe $m 2>/dev/null; done\n"
    << "mount -t proc proc " << h << "/proc && mount -t sysfs sys " << h << "/sys && "
    << "mount -t devtmpfs dev " << h
    << "/dev || fail 'cannot mount /proc, /sys, /dev'\n"
    // cgroup v2 with the io controller given to the root's children: `run --controls` makes
    // its roles' cgroups there (the guest is the run's own machine, thrown away after it).
    << "mount -t cgroup2 none " << h << "/sys/fs/cgroup 2>/dev/null && echo +io > " << h
    << "/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null\n"
    // The host's root as it is, before private tmpfs cover /tmp, /var/tmp and /run.
    << "mount --bind " << h << " /mnt/hostro || fail 'cannot bind the host share'\n"
    << "for d in tmp var/tmp run; do mount -t tmpfs -o mode=1777 tmpfs " << h
    << "/$d || fail \"cannot mount /$d\"; done\n";
  // What the command needs of the host under those (its binary, its working directory: a
  // checkout in /var/tmp) is bound back, read-only.
  for (const std::string& path : HostPathsUnderPrivateMounts(run)) {
    s << "mkdir -p " << ShellQuote(h + path) << " && mount --bind "
      << ShellQuote("/mnt/hostro" + path) << " " << ShellQuote(h + path) << " || fail "
      << ShellQuote("cannot bind " + path) << "\n";
  }
  s << "mkdir -p " << ShellQuote(h + run.work_dir) << "\n"
    << "mount -t virtiofs work " << ShellQuote(h + run.work_dir)
    << " || fail 'cannot mount the work share'\n";
}

}  // namespace

std::string GuestPrivateMountOf(const std::string& path, const std::string& binary,
                                const std::string& working_directory) {
  fs::path p(path);
  if (p.is_relative()) p = fs::path(working_directory) / p;
  std::string lexical = p.lexically_normal().string();
  while (lexical.size() > 1 && lexical.back() == '/') lexical.pop_back();
  // Through its symbolic links too: a link elsewhere into /tmp leads the guest into its own.
  std::error_code ec;
  const std::string resolved = fs::weakly_canonical(p, ec).string();
  const std::vector<std::string> bound = HostPathsBoundBack(BinaryDirOf(binary), working_directory);
  for (const std::string& candidate : {lexical, ec ? std::string() : resolved}) {
    const std::string top = candidate.empty() ? "" : GuestPrivateMountHolding(candidate);
    if (top.empty()) continue;
    const bool seen = std::any_of(bound.begin(), bound.end(), [&](const std::string& b) {
      return GuestPathAtOrBelow(candidate, b);
    });
    if (!seen) return top;
  }
  return "";
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string GuestInitScript(const GuestRun& run) {
  std::ostringstream s;
  s << "#!/bin/sh\n"
    << "# elevbench's guest init (harness/guest/guest_boot.cc): mount, chroot, run, power off.\n"
    << "export PATH=/bin\n";
  AppendGuestMounts(run, s);
  std::string command;
  for (const std::string& a : run.argv) command += (command.empty() ? "" : " ") + ShellQuote(a);
  s << "echo \"" << kGuestStartedMarker << " cpus=$(grep -c ^processor /proc/cpuinfo) $(grep "
    << "MemTotal /proc/meminfo | tr -s ' ')\"\n"
    << "t0=$(cut -d' ' -f1 /proc/uptime); " << kCpuProbeLoop << "; echo \"" << kGuestCpuMarker
    << " $t0 $(cut -d' ' -f1 /proc/uptime)\"\n"
    << "chroot /mnt/host /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
       "/sbin:/bin HOME=/root ELEVBENCH_STATE_DIR=/run/elevbench ELEVBENCH_IN_GUEST=1 "
    << "ELEVBENCH_GUEST_MODULES=" << ShellQuote(run.kernel.modules_dir) << " "
    << "/bin/sh -c "
    << ShellQuote("cd " + ShellQuote(run.working_directory) + " && exec " + command) << " >"
    << ShellQuote("/mnt/host" + run.log_path) << " 2>&1\n"
    << "rc=$?\n"
    << "sync\n"
    << "echo \"" << kGuestExitMarker << " $rc\"\n"
    << "poweroff -f\n";
  return s.str();
}

std::vector<std::string> InitramfsModules(const std::string& modules_dep_text) {
  std::map<std::string, std::vector<std::string>> deps;  // by module name: path, then deps
  std::istringstream in(modules_dep_text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string path = line.substr(0, colon);
    std::string name = path.substr(path.rfind('/') + 1);
    name = name.substr(0, name.find(".ko"));
    std::vector<std::string> entry = {path};
    for (const std::string& d : SplitWords(line.substr(colon + 1))) entry.push_back(d);
    deps[name] = std::move(entry);
  }
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const char* wanted : {"virtio_pci", "virtiofs"}) {
    const auto it = deps.find(wanted);
    if (it == deps.end()) continue;  // built in
    // modules.dep lists a module's dependencies in load order reversed (the deepest last).
    for (auto d = it->second.rbegin(); d != it->second.rend(); ++d) {
      if (seen.insert(*d).second) out.push_back(*d);
    }
  }
  return out;
}

bool WriteGuestInitramfs(const GuestRun& run, const std::string& path, std::string* err) {
  const std::string tree = path + ".d";
  std::error_code ec;
  fs::remove_all(tree, ec);
  const std::string mods = tree + "/lib/modules/" + run.kernel.release;
  for (const char* d : {"/bin", "/dev", "/proc", "/sys", "/mnt/host", "/mnt/hostro"}) {
    fs::create_directories(tree + d, ec);
  }
  fs::create_directories(mods, ec);
  if (ec) return Fail(err, "cannot make " + tree + ": " + ec.message());
  const std::string busybox = "/bin/busybox";
  fs::copy_file(busybox, tree + "/bin/busybox", ec);
  if (ec) return Fail(err, "cannot copy " + busybox + " (busybox-static): " + ec.message());
  for (const char* applet : kInitApplets) {
    fs::create_symlink("busybox", tree + "/bin/" + applet, ec);
  }
  std::ifstream dep_in(run.kernel.modules_dir + "/modules.dep");
  std::ostringstream dep;
  dep << dep_in.rdbuf();
  for (const std::string& m : InitramfsModules(dep.str())) {
    fs::create_directories(fs::path(mods + "/" + m).parent_path(), ec);
    fs::copy_file(run.kernel.modules_dir + "/" + m, mods + "/" + m, ec);
    if (ec) return Fail(err, "cannot copy module " + m + ": " + ec.message());
  }
  fs::copy_file(run.kernel.modules_dir + "/modules.dep", mods + "/modules.dep", ec);
  std::ofstream init(tree + "/init");
  init << GuestInitScript(run);
  init.close();
  fs::permissions(tree + "/init", fs::perms::owner_all | fs::perms::group_read |
                                      fs::perms::group_exec | fs::perms::others_read |
                                      fs::perms::others_exec);
  if (!init || ec) return Fail(err, "cannot write " + tree + "/init");
  ProcessOptions options;
  options.working_directory = tree;
  options.stdout_path = path;
  options.timeout_seconds = 120;
  ProcessResult result;
  const bool ok =
      RunProcess({"sh", "-c", "find . | cpio -o -H newc --quiet"}, options, &result, err) &&
      (result.exit_code == 0 || Fail(err, "cpio failed: " + LastLine(result.error_output)));
  fs::remove_all(tree, ec);
  return ok;
}

std::vector<std::string> VirtiofsdArgv(const std::string& source, const std::string& socket,
                                       const std::string& cache) {
  return {"/usr/lib/qemu/virtiofsd",
          "--socket-path=" + socket,
          "-o",
          "source=" + source,
          "-o",
          "cache=" + cache,
          "-o",
          "sandbox=chroot"};
}

std::vector<std::string> QemuArgv(const GuestRun& run, const std::string& initramfs,
                                  const std::string& host_socket, const std::string& work_socket,
                                  const std::string& console_path) {
  const std::string mem = std::to_string(run.memory_mib) + "M";
  const bool icount = !run.kvm && run.instruction_clock;
  std::vector<std::string> argv = {"qemu-system-x86_64",
                                   "-accel",
                                   run.kvm  ? "kvm"
                                   : icount ? "tcg,thread=single"
                                            : "tcg,thread=multi",
                                   "-cpu",
                                   run.kvm ? "host" : "max",
                                   "-smp",
                                   std::to_string(run.cpus),
                                   "-m",
                                   mem,
                                   "-object",
                                   "memory-backend-memfd,id=mem,size=" + mem + ",share=on",
                                   "-numa",
                                   "node,memdev=mem",
                                   "-chardev",
                                   "socket,id=host,path=" + host_socket,
                                   "-device",
                                   "vhost-user-fs-pci,chardev=host,tag=host",
                                   "-chardev",
                                   "socket,id=work,path=" + work_socket,
                                   "-device",
                                   "vhost-user-fs-pci,chardev=work,tag=work",
                                   "-kernel",
                                   run.kernel.image,
                                   "-initrd",
                                   initramfs,
                                   "-append",
                                   "console=ttyS0 quiet panic=-1",
                                   "-nic",
                                   "none",
                                   "-display",
                                   "none",
                                   "-monitor",
                                   "none",
                                   "-serial",
                                   "file:" + console_path,
                                   "-no-reboot"};
  // One guest instruction a nanosecond of guest time; idle time (waiting on the disk's model)
  // passes as the host's (sleep=on).
  if (icount) argv.insert(argv.begin() + 3, {"-icount", "shift=0,sleep=on"});
  return argv;
}

}  // namespace elevbench
