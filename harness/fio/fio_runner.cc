#include "harness/fio/fio_runner.h"

#include "harness/core/atomic_file.h"
#include "harness/process/subprocess.h"

namespace elevbench {

bool RunFio(const FioInvocation& inv, FioRunResult* result, std::string* err) {
  std::string job_text;
  if (!WriteFioJobFile(inv.global, inv.streams, &job_text, err)) {
    *err = "fio job: " + *err;
    return false;
  }
  const std::string job_path = inv.work_dir + "/" + inv.label + ".fio";
  const std::string out_path = inv.work_dir + "/" + inv.label + ".json";
  if (!WriteFileAtomically(job_path, job_text, err)) return false;
  if (!ProgramInPath("fio")) {
    *err = "fio is not installed (run scripts/install-deps)";
    return false;
  }
  ProcessOptions opts;
  opts.timeout_seconds = inv.timeout_seconds;
  ProcessResult pr;
  if (!RunProcess({"fio", "--output-format=json+", "--output=" + out_path, job_path}, opts, &pr,
                  err)) {
    *err = "fio: " + *err;
    return false;
  }
  if (pr.interrupted) {
    *err = "fio interrupted";
    return false;
  }
  if (pr.timed_out) {
    *err = "fio timed out after " + std::to_string(static_cast<int>(inv.timeout_seconds)) + " s";
    return false;
  }
  if (pr.exit_code != 0) {
    std::string why = LastLine(pr.error_output);
    if (why.empty()) why = LastLine(pr.output);
    *err = "fio failed (" +
           (pr.term_signal ? "signal " + std::to_string(pr.term_signal)
                           : "exit " + std::to_string(pr.exit_code)) +
           ")" + (why.empty() ? "" : ": " + why);
    return false;
  }
  std::string text;
  if (!ReadWholeFile(out_path, &text, err)) return false;
  if (!ParseFioJsonPlus(text, result, err)) {
    *err = "fio output " + out_path + ": " + *err;
    return false;
  }
  for (const FioJobResult& job : result->jobs) {
    if (job.error != 0) {
      *err = "fio job " + job.name + " reported error " + std::to_string(job.error);
      return false;
    }
  }
  return true;
}

bool FioVersion(std::string* version, std::string* err) {
  std::string out;
  if (!RunChecked({"fio", "--version"}, &out, err)) return false;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  *version = out;
  return true;
}

}  // namespace elevbench
