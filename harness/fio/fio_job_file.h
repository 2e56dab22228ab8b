#pragma once
// fio job-file writer: turns stream descriptions into fio's INI text. A pure function so the
// exact bytes handed to fio can be golden-tested and recorded next to the results.
//
// Fixed [global] choices (and why):
//   clat_percentiles=1, lat_percentiles=0  -- fio prints json+ "bins" only under clat_ns when
//       clat percentiles are on (stat.c add_ddir_lat_json); fio_output.h parses exactly those.
//   disable_slat=1  -- does not affect clat: fio still stamps issue_time whenever clat is enabled
//       (fio_fill_issue_time() tests !disable_clat || !disable_slat || !disable_bw) and clat is
//       completion - issue. Checked with fio 3.33: libaio iodepth=4 randread gives clat_ns.N=300
//       and 300 binned samples with disable_slat=1 as with 0. It saves one clock read per I/O on
//       async engines; sync engines (psync) never record slat anyway.
//   disable_lat=1  -- fio's total latency (completion - io_u allocation) is read by no parser here;
//       every suite uses clat. Keeping it costs one more clock read (io_u->start_time) and one
//       more mean/variance update per call: ~190 of fio's ~1930 user instructions per 4 KiB psync
//       read (callgrind, fio 3.33) and part of the CPU column tiobench reports. clat is untouched:
//       clat_ns.N and its bins stay complete (checked: 131072 calls, 131072 in clat_ns.N).
//       See docs/metrics.md, "CPU columns against the real tiotest".
//   invalidate/randrepeat are always written explicitly, because fio's defaults (both 1) are
//       not what the legacy suites did.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace elevbench {

/// One bulk I/O stream, i.e. one fio job section. Every member has its default, so a designated
/// initializer names only what it sets (FileStream).
struct StreamSpec {
  /// Job section name; also the file name stem (fio: name.jobnum.filenum). [A-Za-z0-9_.-]+,
  /// unique within a file, not "global".
  std::string name{};
  /// fio rw= value: read, write, randread, randwrite, rw, randrw.
  std::string rw{};
  /// fio directory=; omitted when empty (fio then uses its working directory).
  std::string directory{};
  /// Optional explicit filename= (else fio's default jobname.jobnum.filenum).
  std::string filename{};
  /// size= per job clone; 0 omits it (fio then uses the existing file's size).
  uint64_t file_size_bytes = 0;
  /// bs=; must be > 0.
  uint32_t block_size_bytes = 4096;
  /// numjobs=; must be >= 1. Each clone is a separate entry in fio's JSON with the same name.
  uint32_t numjobs = 1;
  /// number_ios=; 0 = not set (run to size / runtime).
  uint64_t number_ios = 0;
  /// end_fsync=1: fsync at the end of the write stage. fio counts its time in the job's runtime
  /// (measured; see fio_output.h).
  bool end_fsync = false;
  /// direct=1 (O_DIRECT); always written.
  bool direct = false;
  /// ioengine=.
  std::string ioengine = "psync";
  /// iodepth=; must be >= 1.
  uint32_t iodepth = 1;
  /// norandommap=1 for random rw values (tiobench picks offsets with repeats); no effect on
  /// sequential streams.
  bool random_repeats = true;
  /// 0 = run to size; else runtime=<ms>ms and time_based.
  uint64_t runtime_ms = 0;
  /// rate= in bytes/s (all directions); 0 = unlimited.
  uint64_t rate_bytes_per_sec = 0;
  /// startdelay=<ms>ms; 0 = omitted.
  uint32_t start_delay_ms = 0;
  /// new_group: start a new reporting group.
  bool new_group = false;
  /// stonewall: wait for the preceding jobs to finish first (implies a new group).
  bool stonewall = false;
  /// Extra options appended verbatim after the generated ones, in order. Keys: non-empty,
  /// [A-Za-z0-9_], not one the writer already emits in this section. Values: no line breaks or
  /// NUL, no surrounding blanks; an empty value writes the bare key (fio flag options).
  std::vector<std::pair<std::string, std::string>> extra{};
};

/// The [global] section. Its defaults are the legacy tools' (LegacyToolFioGlobal() but for
/// fadvise_hint=0), so a suite sets only what it does differently.
struct FioGlobalSpec {
  /// thread: pthreads instead of fork (per-thread rusage, shared address space).
  bool thread = true;
  /// group_reporting: one result per group instead of per job clone.
  bool group_reporting = false;
  /// invalidate=0/1: drop the files' page cache before each job starts.
  bool invalidate = false;
  /// randrepeat=0/1: seed the random offsets predictably.
  bool randrepeat = false;
  /// randseed=; 0 = unset.
  uint64_t random_seed = 0;
  /// fallocate=none: lay files out with plain writes, as the legacy tools did.
  bool fallocate_none = true;
  /// exitall: when one job finishes, stop the others in its group.
  bool exitall = false;
  /// Extra [global] options, same rules as StreamSpec::extra.
  std::vector<std::pair<std::string, std::string>> extra;
};

/// A job section over one file: `rw` ("read", "write", …) on `filename`, size= and bs= as given,
/// the rest at StreamSpec's defaults (buffered psync, one job, run to size). The suites' streams
/// start from it and set what differs.
StreamSpec FileStream(const std::string& name, const std::string& rw, const std::string& filename,
                      uint64_t file_size_bytes, uint32_t block_size_bytes);

/// The [global] section of the suites that stand in for the legacy tools' buffered streams
/// (tiobench, nickbench, probes, contest, morton, visave): threads, for per-thread rusage as
/// tiotest's LinuxThreads had; one result per thread; no page-cache drop (the tools never
/// dropped it; the harness may, explicitly); random offsets not seeded predictably (tiotest
/// seeded rand_r() from the clock); files laid out with plain write(); and fadvise_hint=0: the
/// tools never called posix_fadvise, and fio's default fadvise_hint=1 would double the readahead
/// of sequential streams and switch it off for random ones.
FioGlobalSpec LegacyToolFioGlobal();

/// Renders a complete fio job file into *text: a comment line, [global], then one section per
/// stream in order. Deterministic: the same input gives the same bytes. Returns false with a
/// one-line err (and *text untouched) for no streams, an invalid name/rw/size/depth, or any
/// string that could inject a line, a section or a second key into the file.
[[nodiscard]] bool WriteFioJobFile(const FioGlobalSpec& global,
                                   const std::vector<StreamSpec>& streams, std::string* text,
                                   std::string* err);

}  // namespace elevbench
