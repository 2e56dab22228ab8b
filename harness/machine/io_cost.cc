#include "harness/machine/io_cost.h"

#include <sstream>

#include "harness/core/error.h"
#include "harness/core/strings.h"

namespace elevbench {
namespace {

constexpr const char* kQosPath = "/sys/fs/cgroup/io.cost.qos";
constexpr const char* kModelPath = "/sys/fs/cgroup/io.cost.model";

}  // namespace

std::string IoCostModel::Pairs() const {
  if (!measured()) return "ctrl=auto";
  return "ctrl=user model=linear rbps=" + std::to_string(rbps) +
         " rseqiops=" + std::to_string(rseqiops) + " rrandiops=" + std::to_string(rrandiops) +
         " wbps=" + std::to_string(wbps) + " wseqiops=" + std::to_string(wseqiops) +
         " wrandiops=" + std::to_string(wrandiops);
}

std::string IoCostSwitch::CurrentLine(const std::string& file, const std::string& fallback) const {
  std::string text, ignored;
  if (sysfs_.Read(file, &text, &ignored)) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      const std::vector<std::string> words = SplitWords(line);
      if (!words.empty() && words.front() == device_) return TrimWhitespace(line);
    }
  }
  return device_ + " " + fallback;
}

bool IoCostSwitch::Prepare(const std::string& device, RestoreJournal* journal, std::string* err) {
  device_ = device;
  std::string ignored;
  for (const char* file : {kQosPath, kModelPath}) {
    std::string text;
    if (!sysfs_.Read(file, &text, &ignored)) {
      return Fail(err, std::string(file) + " cannot be read: this kernel has no io.cost");
    }
  }
  const std::string qos = CurrentLine(kQosPath, "enable=0");
  const std::string model = CurrentLine(kModelPath, "ctrl=auto");
  return journal->Record(JournalEntry::SysfsValue(kModelPath, model), err) &&
         journal->Record(JournalEntry::SysfsValue(kQosPath, qos), err);
}

bool IoCostSwitch::Apply(bool on, const IoCostSettings& settings, const IoCostModel& model,
                         std::string* err) {
  if (device_.empty()) return Fail(err, "io.cost: no disk prepared");
  if (!on) return sysfs_.WriteVerified(kQosPath, device_ + " enable=0", err);
  if (!sysfs_.WriteVerified(kModelPath, device_ + " " + model.Pairs(), err)) return false;
  std::string qos = device_ + " enable=1";
  if (settings.qos_latency_us > 0) {
    const std::string lat = std::to_string(settings.qos_latency_us);
    qos += " ctrl=user rpct=95.00 rlat=" + lat + " wpct=95.00 wlat=" + lat;
  } else {
    qos += " ctrl=auto";
  }
  return sysfs_.WriteVerified(kQosPath, qos, err);
}

}  // namespace elevbench
