// libFuzzer target: fio's json+ output (harness/fio/fio_output.h), the file fio writes for every
// phase. A parse that succeeds is read back through the accessors the suites use.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_input.h"
#include "harness/fio/fio_output.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  elevbench::FioRunResult run;
  std::string err;
  if (!elevbench::ParseFioJsonPlus(elevbench::fuzz::AsText(data, size), &run, &err)) return 0;
  for (const elevbench::FioJobResult& job : run.jobs) {
    (void)job.cpu_seconds();
    for (const elevbench::FioDirectionResult* d : {&job.read, &job.write}) {
      (void)d->clat.ValueAtPercentile(99.9);
      (void)d->clat.mean_ns();
      (void)d->clat.ToJson().dump();
    }
  }
  return 0;
}
