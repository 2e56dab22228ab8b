#pragma once
// What each of Andrew Morton's nine tests runs, as pure functions of the options: the sizes at
// a --scale, where the files live, which load runs and which commands are timed. The suite
// (morton_suite.cc) executes these plans; tests check them without any I/O.

#include <cstdint>
#include <string>
#include <vector>

#include "harness/engine/cold_start.h"
#include "harness/fio/fio_job_file.h"

namespace elevbench {

/// The post's sizes times --scale (0 < scale <= 1). Files are whole MiB (at least 1), as fio
/// and dd write them in 1 MiB blocks; the tree is in bytes (TreeSpec).
struct MortonSizes {
  double scale = 1;
  uint64_t stream_file_bytes = 0;  ///< #1's ten files and #6's probe: 100 MB
  uint64_t load_file_bytes = 0;    ///< the dd / cat loop's file: 512 MB
  uint64_t tree_bytes = 0;         ///< one kernel tree: --tree-size MB (2.4.19: 142 MB)
  uint64_t write_bytes = 0;        ///< #9's write-and-fsync: 100 MB
};

/// The sizes at `scale` with a tree of `tree_mb` decimal MB (the generated tree's unit).
MortonSizes MortonSizesFor(double scale, uint64_t tree_mb);

/// Parses --tests: comma-separated numbers 1..9, each at most once, kept in the given order.
/// err: "--tests: unknown test 'x' (1 to 9)", "--tests: 3 is listed twice", or empty list.
[[nodiscard]] bool ParseMortonTests(const std::string& text, std::vector<int>* tests,
                                    std::string* err);

/// Where the suite's files live under the target directory.
struct MortonPaths {
  std::string root;        ///< <dir>/morton
  std::string streams;     ///< root/streams: 100-meg-file-0 .. 9
  std::string load_file;   ///< root/load/512M-file
  std::string trees;       ///< root/trees: dir-with-three-kernel-trees/, kernel-tree-4..6
  std::string three;       ///< trees/dir-with-three-kernel-trees: kernel-tree-1..3 (#4 copies it)
  std::string copy;        ///< trees/new-dir: #4's copy, removed after each cell
  std::string cold_start;  ///< root/cold-start: the program of #2/#3 and its libraries
  std::string outfile;     ///< root/outfile: #9's write, removed after each cell
};
MortonPaths MortonPathsFor(const std::string& directory);

/// Tree i (1..6): kernel-tree-1..3 inside `three`, kernel-tree-4..6 beside it.
std::string MortonTreeRoot(const MortonPaths& paths, int i);
/// #1's file i (0..9) in `streams`: "100-meg-file-<i>", the post's name at every scale.
std::string MortonStreamFileName(int i);

/// What a test lays out and reads: the ten stream files (#1; #6 reads file 0), trees (#4: 1-3,
/// #5: 1-6, #7/#8: 1), the load file (#2, #3, #6-#9), the cold-start copy (#2, #3).
struct MortonNeeds {
  int stream_files = 0;  ///< how many of 100-meg-file-0.. are needed
  int trees = 0;         ///< how many of kernel-tree-1.. are needed
  bool load_file = false;
  bool cold_start = false;
};
MortonNeeds MortonNeedsOf(const std::vector<int>& tests);

/// One timed command of a test.
struct MortonPlannedProbe {
  std::string command;            ///< the post's command as shell text, for the report
  std::vector<std::string> argv;  ///< what runs
  std::string working_directory;
  uint64_t work_bytes = 0;  ///< what it has to move
};

/// The commands `test` times, in start order (all at once for #1 and #5). `cold_start` is the
/// copied program for #2/#3 (ignored otherwise).
std::vector<MortonPlannedProbe> MortonProbesOf(int test, const MortonPaths& paths,
                                               const MortonSizes& sizes,
                                               const ColdStartProgram& cold_start);

/// The load beside `test`: "write" for the dd loop (#2, #6, #7: `while true; do dd
/// if=/dev/zero of=foo bs=1M count=512 conv=notrunc; done`), "read" for the cat loop (#3, #8,
/// #9: `while true; do cat 512M-file > /dev/null; done`), "" for none (#1, #4, #5).
std::string MortonLoadDirection(int test);

/// The load's one fio stream: buffered psync in 1 MiB calls over the load file, time-based
/// (it loops over the file until stopped), a reader re-reading from the disk on every loop.
StreamSpec MortonLoadStream(const std::string& direction, const MortonPaths& paths,
                            const MortonSizes& sizes);

/// What the test runs at these sizes, in words ("ten 5 MB files read at once").
std::string MortonDescription(int test, const MortonSizes& sizes);

/// A size in whole or decimal MB for the texts: "100 MB", "7.1 MB" (MiB for files, decimal MB
/// for trees, as their options are given).
std::string MortonMbText(double mb);

}  // namespace elevbench
