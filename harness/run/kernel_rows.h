#pragma once
// `--kernels`: the kernels under test as rows (docs/kernels.md). What needs no guest lives here:
// the list read from the command line, the command each guest runs (the run's own words, less
// what only the host does), and the guests' documents merged into one whose rows are kernel ×
// configuration, labelled as the 2003 posts labelled theirs ("6.1.0-50-cloud-DL").

#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/run/host_paths.h"
#include "harness/run/run_labels.h"

namespace elevbench {

/// One kernel of `--kernels`: a Debian package, or a user's build (kernel_build.h).
struct KernelChoice {
  std::string flag;     ///< the flag that gave it: "--kernels" or "--kernel-image"
  std::string word;     ///< as given: "debian:linux-image-6.1.0-50-cloud-amd64@61"
  std::string package;  ///< "linux-image-6.1.0-50-cloud-amd64"; empty for a build
  std::string image;    ///< a build's bzImage as given ("arch/x86/boot/bzImage"); empty: package
  std::string modroot;  ///< a build's INSTALL_MOD_PATH (or lib/modules/<release>); empty: none
  std::string label;    ///< the user's row prefix after '@'; empty: KernelRowLabel(release)
};

/// Reads `--kernels K1,K2,…`, each `debian:PACKAGE[@LABEL]` or `image:IMAGE[:MODROOT][@LABEL]`,
/// then each `--kernel-image IMAGE[:MODROOT][@LABEL]` of `images` after them, in order (one
/// value a flag, so a path may hold a ','). IMAGE holds no ':'; an '@' is a label's only when
/// no '/' follows it. err (one line, for exit 2) names the flag and the word: another kind, a
/// package that is no kernel release's (CheckDebianKernelPackageName), an empty image, MODROOT
/// or label, a label with characters other than letters, digits, '.', '_' and '-', the same
/// package, image or label twice, or no kernel at all.
[[nodiscard]] bool ParseKernelChoices(const std::string& text,
                                      const std::vector<std::string>& images,
                                      std::vector<KernelChoice>* choices, std::string* err);

/// `--kernels` alone (`kernels fetch`'s words).
[[nodiscard]] inline bool ParseKernelChoices(const std::string& text,
                                             std::vector<KernelChoice>* choices, std::string* err) {
  return ParseKernelChoices(text, {}, choices, err);
}

/// Whether a guest reaches every host path of `uses` (`owner` + the use's flag names it: "run
/// replay's --trace"), `binary` the command it runs and `working_directory` its folder: none
/// written (the host's root is read-only in it) and none under the guest's own /tmp, /var/tmp
/// or /run (guest_boot.h's GuestPrivateMountOf). err (one line, for exit 2) names the flag, the
/// path and why.
[[nodiscard]] bool CheckGuestHostPaths(const std::string& owner,
                                       const std::vector<HostPathUse>& uses,
                                       const std::string& binary,
                                       const std::string& working_directory, std::string* err);

/// The arguments a guest runs: `args` (the command line's words after the program's name) less
/// the flags only the host acts on (--kernels, --kernel-image, --out, --db, --no-history, --lanes,
/// --guest-clock, each with its value), then `--out out --no-history --label-prefix label`.
std::vector<std::string> GuestCommandArgs(const std::vector<std::string>& args,
                                          const std::string& out, const std::string& label);

/// Merges the guests' documents, in kernel order, into `*merged` (whose suite and context the
/// caller filled): identifiers, labels, cells (their plan_index counted on over the kernels; a
/// shard's guest's by its whole plan, context.shard.plan_cells, so every shard numbers alike)
/// and records one kernel after another; the first set-up; complete when every document is.
/// Every cell and record of `docs[i]` gets `kernels[i]` as its "kernel" field (the guest knows
/// not which kernel it is, the host does), so that no reader recovers a row's kernel from its
/// label; their "configuration_label" (the guest wrote it: it named the configurations) is kept
/// as it is. The suite's summary is the caller's to redo.
void MergeKernelDocuments(const std::vector<ResultsDocument>& docs,
                          const std::vector<RowKernel>& kernels, ResultsDocument* merged);

/// A cell for each configuration of a guest that did not give its results: one per
/// `names.identifiers[i]`, with its label and configuration label where `names` has them,
/// `status` ("failed", or "interrupted" when a signal stopped the guest: its cells never ran,
/// and no reader may count them as finished) and `error` as given, each under `kernel`.
std::vector<CellRecord> FailedGuestCells(const RunNames& names, const RowKernel& kernel,
                                         const std::string& status, const std::string& error);

}  // namespace elevbench
