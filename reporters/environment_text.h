#pragma once
// The environment lines every text report starts with, in the style of the seed posts:
// "Machine is …", one line per device, "Target fs for tests was …", and how caches were handled.

#include <nlohmann/json.hpp>
#include <string>

namespace elevbench {

/// The seeds' environment lines from a results context block. Ends with a blank line; empty when
/// the context says nothing.
std::string RenderEnvironmentHeader(const nlohmann::json& context);

}  // namespace elevbench
