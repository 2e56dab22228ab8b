#include "harness/run/run_labels.h"

#include "harness/core/strings.h"
#include "harness/core/system_info.h"
#include "harness/device/sysfs.h"

namespace elevbench {

std::string TableLabel(const SchedulerConfig& config) {
  if (!config.code_override.empty()) return config.code_override;
  return Uppercase(ShortCode(config));
}

std::string CurrentSchedulerLabel(const std::map<std::string, std::string>& queue_snapshot) {
  static const std::string kSuffix = "/queue/scheduler";
  for (const auto& [key, value] : queue_snapshot) {
    if (key.size() < kSuffix.size() ||
        key.compare(key.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) {
      continue;
    }
    std::vector<std::string> names;
    std::string current, ignored;
    if (ParseSchedulerLine(value, &names, &current, &ignored) && !current.empty()) {
      return TableLabel(SchedulerConfig{current, {}, ""});
    }
  }
  return "CURRENT";
}

RunNames NameConfigurations(const std::vector<SchedulerConfig>& configs, const std::string& kernel,
                            const std::string& identifier, const std::string& current_label) {
  RunNames names;
  if (configs.empty()) {
    names.identifiers.push_back(identifier.empty() ? kernel : identifier);
    names.labels.push_back(identifier.empty() ? current_label : identifier);
    return names;
  }
  const std::string prefix = identifier.empty() ? ShortKernelVersion(kernel) : identifier;
  for (const SchedulerConfig& c : configs) {
    names.identifiers.push_back(prefix + "-" + ShortCode(c));
    names.labels.push_back(TableLabel(c));
  }
  return names;
}

RunNames NameKernelConfigurations(const std::vector<SchedulerConfig>& configs,
                                  const std::string& prefix) {
  RunNames names;
  if (configs.empty()) {
    names.identifiers.push_back(prefix);
    names.labels.push_back(prefix);
    return names;
  }
  for (const SchedulerConfig& c : configs) {
    names.identifiers.push_back(prefix + "-" + ShortCode(c));
    names.labels.push_back(prefix + "-" + TableLabel(c));
    names.configuration_labels.push_back(TableLabel(c));
  }
  return names;
}

ControlledConfigurations CrossWithControls(const std::vector<SchedulerConfig>& configs,
                                           const RunNames& names,
                                           const std::vector<IoControl>& controls) {
  ControlledConfigurations out;
  for (size_t i = 0; i < names.identifiers.size(); ++i) {
    for (size_t j = 0; j < controls.size(); ++j) {
      if (i < configs.size()) out.configs.push_back(configs[i]);
      out.names.identifiers.push_back(ControlledIdentifier(names.identifiers[i], controls[j]));
      out.names.labels.push_back(ControlledLabel(names.labels[i], controls[j]));
      if (i < names.configuration_labels.size()) {
        out.names.configuration_labels.push_back(
            ControlledLabel(names.configuration_labels[i], controls[j]));
      }
      out.control_of.push_back(j);
    }
  }
  return out;
}

RunNames NameKernelRows(const std::vector<SchedulerConfig>& configs,
                        const std::vector<IoControl>& controls, const std::string& prefix) {
  const RunNames names = NameKernelConfigurations(configs, prefix);
  return AnyControl(controls) ? CrossWithControls(configs, names, controls).names : names;
}

}  // namespace elevbench
