#include "harness/cli/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "harness/cli/commands.h"

namespace elevbench {

void PrintError(const std::string& message) {
  std::fprintf(stderr, "elevbench: %s\n", message.c_str());
}

namespace {

// CLI11's messages can span lines; the contract is one line.
std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string JoinArgs(int argc, char** argv) {
  std::ostringstream out;
  for (int i = 0; i < argc; ++i) out << (i ? " " : "") << argv[i];
  return out.str();
}

}  // namespace

int RunCli(int argc, char** argv) {
  CLI::App app{"elevbench: which block I/O scheduler is best for this box and this workload?",
               "elevbench"};
  app.set_version_flag("--version", std::string("elevbench ") + ELEVBENCH_VERSION);
  app.require_subcommand(1);

  // run
  RunOptions run;
  run.command_line = JoinArgs(argc, argv);
  std::string threads = "1,2,4,8";
  CLI::App* run_cmd = app.add_subcommand("run", "Run a suite and print the 2003-style tables");
  run_cmd->add_option("suite", run.suite, "Suite to run (tiobench)")->required();
  run_cmd->add_option("--dir", run.tio.directory,
                      "Run in this existing directory (default as root: a scratch device)");
  run_cmd->add_option("--scratch", run.scratch,
                      "Create a scratch loop device of this size (e.g. 1G) and run on it");
  run_cmd->add_option("--emulated", run.emulated,
                      "Run on an emulated rotating disk: PROFILE[:SIZE], e.g. ide-2003:2G");
  run_cmd->add_option("--disk-set", run.disk_settings,
                      "Override an emulated-disk model parameter (key=value), repeatable");
  run_cmd->add_option("--disk-trace", run.disk_trace, "Write the emulated disk's request trace");
  run_cmd->add_option("--fs", run.fs, "Filesystem of a scratch/emulated device: ext2, ext4, xfs");
  run_cmd->add_option("--device", run.device,
                      "Allow switching the scheduler of this existing device (e.g. sdb)");
  run_cmd->add_option("--schedulers", run.schedulers,
                      "'all' or a list: none,mq-deadline,kyber,bfq,bfq:low_latency=0[@code]");
  run_cmd->add_option("--queue", run.queue, "Pin queue attributes: read_ahead_kb=128,...");
  run_cmd->add_option("--repetitions", run.repetitions, "Repetitions of every cell")
      ->check(CLI::Range(1u, 1000u));
  run_cmd->add_option("--seed", run.seed, "Seed of the interleaving order (default: random)");
  run_cmd->add_flag("--no-drop-caches", run.no_drop_caches,
                    "Do not drop the page cache before cells and read phases");
  int64_t size_mb = 0;
  run_cmd->add_option("--size", size_mb,
                      "Total file size in MB over all threads (default 2xRAM, 200..2000)");
  run_cmd->add_option("--threads", threads, "Thread counts, comma separated (default 1,2,4,8)");
  run_cmd->add_option("--block", run.tio.block_bytes, "Block size in bytes (default 4096)");
  run_cmd->add_option("--random", run.tio.random_ops,
                      "Random I/O operations over all threads (default 4000)");
  run_cmd->add_option("--numruns", run.tio.numruns, "tiotest runs pooled per row (default 1)");
  run_cmd->add_flag("--nofrag", run.tio.nofrag,
                    "Threads write their files one after another (tiobench.pl --nofrag)");
  run_cmd->add_option("--identifier", run.identifier,
                      "Row label (default: uname -r, or <kernel>-<code> per scheduler)");
  run_cmd->add_option("--format", run.format, "Table format: nick (default), tiobench, json");
  run_cmd->add_option("--out", run.out,
                      "Results JSON (default results/<time>-<host>-<suite>.json)");

  // report
  std::string report_path, report_format = "nick";
  CLI::App* report_cmd = app.add_subcommand("report", "Print the tables of a saved results file");
  report_cmd->add_option("file", report_path, "Results JSON written by 'run'")->required();
  report_cmd->add_option("--format", report_format, "nick (default), tiobench or json");

  // devices
  bool devices_json = false;
  CLI::App* devices_cmd = app.add_subcommand("devices", "List block devices and their schedulers");
  devices_cmd->add_flag("--json", devices_json, "JSON output");

  // restore
  CLI::App* restore_cmd = app.add_subcommand(
      "restore", "Undo what a killed run left: sysfs values, loop devices, mounts");

  // disk
  CLI::App* disk_cmd = app.add_subcommand("disk", "The emulated rotating disk (FUSE daemon)");
  disk_cmd->require_subcommand(1);
  DiskServeOptions serve;
  CLI::App* serve_cmd = disk_cmd->add_subcommand("serve", "Serve an image file through the model");
  serve_cmd->add_option("--backing", serve.backing, "Backing image file (best on tmpfs)")
      ->required();
  serve_cmd->add_option("--mount", serve.mountpoint, "Empty directory to mount on")->required();
  serve_cmd->add_option("--profile", serve.profile, "ide-2003 (default), sata-7200, ssd");
  serve_cmd->add_option("--set", serve.settings, "Override a model parameter (key=value)");
  serve_cmd->add_option("--trace", serve.trace, "Per-request trace file");
  bool profiles_json = false;
  CLI::App* profiles_cmd = disk_cmd->add_subcommand("profiles", "List the disk profiles");
  profiles_cmd->add_flag("--json", profiles_json, "JSON output");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    PrintError(OneLine(e.what()) + " (see --help)");
    return kExitUsage;
  }

  if (*run_cmd) {
    run.size_given = run_cmd->count("--size") > 0;
    if (run.size_given && size_mb <= 0) {
      PrintError("--size must be a positive number of megabytes (got " + std::to_string(size_mb) +
                 ")");
      return kExitUsage;
    }
    run.tio.size_mb = static_cast<uint64_t>(std::max<int64_t>(size_mb, 0));
    run.seed_given = run_cmd->count("--seed") > 0;
    run.tio.threads.clear();
    std::stringstream ss(threads);
    std::string item;
    while (std::getline(ss, item, ',')) {
      try {
        size_t used = 0;
        const long v = std::stol(item, &used);
        if (used != item.size() || v <= 0 || v > 4096) throw std::out_of_range("threads");
        run.tio.threads.push_back(static_cast<uint32_t>(v));
      } catch (const std::exception&) {
        PrintError("--threads: '" + item + "' is not a thread count between 1 and 4096");
        return kExitUsage;
      }
    }
    if (run.tio.threads.empty()) {
      PrintError("--threads needs at least one thread count");
      return kExitUsage;
    }
    return RunCommand(run);
  }
  if (*report_cmd) return ReportCommand(report_path, report_format);
  if (*devices_cmd) return DevicesCommand(devices_json);
  if (*restore_cmd) return RestoreCommand();
  if (*serve_cmd) return DiskServeCommand(serve);
  if (*profiles_cmd) return DiskProfilesCommand(profiles_json);
  return kExitUsage;
}

}  // namespace elevbench
