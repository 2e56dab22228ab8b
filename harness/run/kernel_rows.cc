#include "harness/run/kernel_rows.h"

#include <set>

#include "harness/core/error.h"
#include "harness/core/strings.h"
#include "harness/guest/guest_boot.h"
#include "harness/guest/kernel_cache.h"

namespace elevbench {
namespace {

bool KernelLabelCharactersOk(const std::string& label) {
  for (char c : label) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return !label.empty();
}

// The flags only the host acts on, each followed by its value unless written FLAG=VALUE.
bool IsHostOnlyFlag(const std::string& word, bool* takes_value) {
  for (const char* flag : {"--kernels", "--kernel-image", "--out", "--db", "--lanes",
                           "--label-prefix", "--guest-clock"}) {
    const std::string f = flag;
    if (word == f) {
      *takes_value = true;
      return true;
    }
    if (word.rfind(f + "=", 0) == 0) {
      *takes_value = false;
      return true;
    }
  }
  *takes_value = false;
  return word == "--no-history";
}

// `debian:PACKAGE[@LABEL]`.
bool ParseDebianWord(const std::string& word, KernelChoice* c, std::string* err) {
  const std::string rest = word.substr(std::string("debian:").size());
  const size_t at = rest.find('@');
  c->package = rest.substr(0, at);
  if (at != std::string::npos) c->label = rest.substr(at + 1);
  // Its shape before apt is asked (issue 57 §4.2: debian:linux-image- reached apt-get).
  if (!CheckDebianKernelPackageName(c->package, err)) return Fail(err, "--kernels: " + *err);
  if (at != std::string::npos && !KernelLabelCharactersOk(c->label)) {
    return Fail(err, "--kernels: the label of '" + word +
                         "' may hold only letters, digits, '.', '_' and '-'");
  }
  return true;
}

// `IMAGE[:MODROOT][@LABEL]` (after `image:`, or --kernel-image's value).
bool ParseImageWord(const std::string& flag, const std::string& word, const std::string& rest,
                    KernelChoice* c, std::string* err) {
  std::string paths = rest;
  const size_t at = rest.rfind('@');
  const bool labelled = at != std::string::npos && rest.find('/', at) == std::string::npos;
  if (labelled) {
    paths = rest.substr(0, at);
    c->label = rest.substr(at + 1);
    if (!KernelLabelCharactersOk(c->label)) {
      return Fail(err, flag + ": the label of '" + word +
                           "' may hold only letters, digits, '.', '_' and '-'");
    }
  }
  const size_t colon = paths.find(':');
  c->image = paths.substr(0, colon);
  if (colon != std::string::npos) c->modroot = paths.substr(colon + 1);
  if (c->image.empty() || (colon != std::string::npos && c->modroot.empty())) {
    return Fail(err, flag + ": '" + word + "' is not " + (flag == "--kernels" ? "image:" : "") +
                         "IMAGE[:MODROOT][@LABEL] (e.g. " + (flag == "--kernels" ? "image:" : "") +
                         "arch/x86/boot/bzImage:/tmp/mods, MODROOT being make modules_install's "
                         "INSTALL_MOD_PATH)");
  }
  return true;
}

// One word of --kernels (or --kernel-image's value) into `*c`.
bool ParseKernelWord(const std::string& flag, const std::string& word, KernelChoice* c,
                     std::string* err) {
  c->flag = flag;
  c->word = word;
  if (flag == "--kernel-image") {
    const std::string rest = word.rfind("image:", 0) == 0 ? word.substr(6) : word;
    return ParseImageWord(flag, word, rest, c, err);
  }
  if (word.rfind("image:", 0) == 0) return ParseImageWord(flag, word, word.substr(6), c, err);
  if (word.rfind("debian:", 0) == 0) return ParseDebianWord(word, c, err);
  return Fail(err, "--kernels: '" + word +
                       "' is not debian:PACKAGE[@LABEL] (e.g. debian:linux-image-6.1.0-50-cloud-"
                       "amd64) or image:IMAGE[:MODROOT][@LABEL] (your own build)");
}

}  // namespace

bool ParseKernelChoices(const std::string& text, const std::vector<std::string>& images,
                        std::vector<KernelChoice>* choices, std::string* err) {
  std::vector<std::pair<std::string, std::string>> words;  // flag, word
  for (const std::string& word : SplitAndTrim(text, ',')) {
    if (!word.empty()) words.emplace_back("--kernels", word);
  }
  for (const std::string& image : images) words.emplace_back("--kernel-image", image);
  std::vector<KernelChoice> out;
  std::set<std::string> names, labels;
  for (const auto& [flag, word] : words) {
    KernelChoice c;
    if (!ParseKernelWord(flag, word, &c, err)) return false;
    const std::string name = c.image.empty() ? c.package : "image " + c.image;
    if (!names.insert(name).second) return Fail(err, flag + ": " + name + " is given twice");
    if (!c.label.empty() && !labels.insert(c.label).second) {
      return Fail(err, flag + ": the label '" + c.label + "' is given twice");
    }
    out.push_back(std::move(c));
  }
  if (out.empty()) return Fail(err, "--kernels: no kernel given");
  *choices = std::move(out);
  return true;
}

bool CheckGuestHostPaths(const std::string& owner, const std::vector<HostPathUse>& uses,
                         const std::string& binary, const std::string& working_directory,
                         std::string* err) {
  for (const HostPathUse& use : uses) {
    const std::string what = "--kernels: " + owner + use.flag + " " + use.path;
    if (use.written) {
      return Fail(err, what +
                           ": a guest writes nothing on the host but its results (the host's root "
                           "is read-only in it); leave " +
                           use.flag + " out with --kernels");
    }
    const std::string top = GuestPrivateMountOf(use.path, binary, working_directory);
    if (!top.empty()) {
      return Fail(err, what + " is under " + top +
                           ", which a guest does not see (its /tmp, /var/tmp and /run are its "
                           "own): put it elsewhere, e.g. under the working directory");
    }
  }
  return true;
}

std::vector<std::string> GuestCommandArgs(const std::vector<std::string>& args,
                                          const std::string& out, const std::string& label) {
  std::vector<std::string> kept;
  size_t i = 0;
  // elevbench's own words end at "--": what follows is the user's program (`run command -- …`),
  // passed as it is, and the guest's words go before it.
  for (; i < args.size() && args[i] != "--"; ++i) {
    bool takes_value = false;
    if (IsHostOnlyFlag(args[i], &takes_value)) {
      if (takes_value) ++i;
      continue;
    }
    kept.push_back(args[i]);
  }
  kept.insert(kept.end(), {"--out", out, "--no-history", "--label-prefix", label});
  kept.insert(kept.end(), args.begin() + static_cast<std::ptrdiff_t>(std::min(i, args.size())),
              args.end());
  return kept;
}

void MergeKernelDocuments(const std::vector<ResultsDocument>& docs,
                          const std::vector<RowKernel>& kernels, ResultsDocument* merged) {
  merged->identifiers.clear();
  merged->labels.clear();
  merged->cells.clear();
  merged->records.clear();
  merged->complete = !docs.empty();
  size_t plan_offset = 0;
  for (size_t k = 0; k < docs.size(); ++k) {
    const ResultsDocument& d = docs[k];
    const RowKernel kernel = k < kernels.size() ? kernels[k] : RowKernel{};
    merged->identifiers.insert(merged->identifiers.end(), d.identifiers.begin(),
                               d.identifiers.end());
    merged->labels.insert(merged->labels.end(), d.labels.begin(), d.labels.end());
    size_t most = 0;
    for (CellRecord c : d.cells) {
      most = std::max(most, c.plan_index + 1);
      c.plan_index += plan_offset;
      if (!kernel.empty()) c.kernel = kernel;
      merged->cells.push_back(std::move(c));
    }
    // A shard's guest (`--shard I/N`, docs/ci.md) ran some of its plan: the next kernel's plan
    // starts after the whole of this one's, so that every shard numbers the cells alike.
    const nlohmann::json shard = d.context.value("shard", nlohmann::json::object());
    const nlohmann::json plan_cells =
        shard.is_object() ? shard.value("plan_cells", nlohmann::json()) : nlohmann::json();
    plan_offset +=
        plan_cells.is_number_unsigned() ? plan_cells.get<size_t>() : std::max(most, d.cells.size());
    for (nlohmann::json r : d.records) {
      if (!kernel.empty()) r["kernel"] = RowKernelToJson(kernel);  // the record header's field
      merged->records.push_back(std::move(r));
    }
    if (merged->setup.is_null() && !d.setup.is_null()) merged->setup = d.setup;
    if (merged->parameters.empty() && !d.parameters.empty()) merged->parameters = d.parameters;
    merged->complete = merged->complete && d.complete;
  }
}

std::vector<CellRecord> FailedGuestCells(const RunNames& names, const RowKernel& kernel,
                                         const std::string& status, const std::string& error) {
  std::vector<CellRecord> cells;
  for (size_t i = 0; i < names.identifiers.size(); ++i) {
    CellRecord c;
    c.identifier = names.identifiers[i];
    c.label = i < names.labels.size() ? names.labels[i] : names.identifiers[i];
    if (i < names.configuration_labels.size()) {
      c.configuration_label = names.configuration_labels[i];
    }
    c.kernel = kernel;
    c.status = status;
    c.error = error;
    cells.push_back(std::move(c));
  }
  return cells;
}

}  // namespace elevbench
