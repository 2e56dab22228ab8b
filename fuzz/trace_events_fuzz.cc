// libFuzzer target: the tracefs line parser and the request matcher (harness/trace/), on any
// text split into lines, summarised to JSON as a cell's request_trace is. The seed corpus holds
// recorded events (tests/fixtures/trace/).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_input.h"
#include "harness/trace/request_analysis.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(elevbench::fuzz::AsText(data, size));
  elevbench::RequestAnalyzer analyzer(7, 8);
  std::string_view rest = text;
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    analyzer.AddLine(rest.substr(0, nl));
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  }
  (void)analyzer.Finish().ToJson().dump();
  return 0;
}
