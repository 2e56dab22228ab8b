#include "reporters/gnuplot.h"

#include <stdlib.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/process/subprocess.h"
#include "reporters/markup_escape.h"

namespace elevbench {
namespace {

// A private temporary directory, removed with its contents on destruction.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/elevbench-plot-XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool SafeChar(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return u >= 0x20 && u < 0x7f && c != '<' && c != '>' && c != '&' && c != '"' && c != '\\';
}

void ReplaceAll(std::string* text, const std::string& from, const std::string& to) {
  size_t pos = 0;
  while ((pos = text->find(from, pos)) != std::string::npos) {
    text->replace(pos, from.size(), to);
    pos += to.size();
  }
}

// Removes every ` name="…"` / ` name='…'` attribute from the first tag of `svg`.
void DropAttribute(std::string* svg, const std::string& name) {
  const size_t tag_end = svg->find('>');
  size_t pos = svg->find(name + "=");
  while (pos != std::string::npos && pos < tag_end) {
    const size_t quote = pos + name.size() + 1;
    const size_t close = svg->find((*svg)[quote], quote + 1);
    if (close == std::string::npos) return;
    size_t start = pos;
    while (start > 0 && std::isspace(static_cast<unsigned char>((*svg)[start - 1]))) --start;
    svg->erase(start, close + 1 - start);
    pos = svg->find(name + "=", start);
  }
}

}  // namespace

bool GnuplotAvailable(const GnuplotOptions& options) { return ProgramInPath(options.program); }

bool RunGnuplotSvg(const std::string& script, int width, int height, const GnuplotOptions& options,
                   std::string* svg, std::string* err) {
  TempDir dir;
  if (dir.path().empty()) {
    *err = "cannot create a temporary directory for gnuplot";
    return false;
  }
  const std::string script_path = dir.path() + "/plot.gp";
  const std::string svg_path = dir.path() + "/plot.svg";
  {
    std::ofstream out(script_path);
    out << "set terminal svg size " << width << "," << height
        << " dynamic noenhanced font 'sans,11' background '#ffffff'\n"
        << "set output " << GnuplotString(svg_path) << "\n"
        << script << "\nunset output\n";
    if (!out) {
      *err = "cannot write " + script_path;
      return false;
    }
  }
  ProcessOptions po;
  po.stdout_path = "/dev/null";
  po.timeout_seconds = options.timeout_seconds;
  po.kill_grace_seconds = 1;
  ProcessResult result;
  if (!RunProcess({options.program, script_path}, po, &result, err)) return false;
  if (result.timed_out) {
    *err = "gnuplot did not finish within " + std::to_string(options.timeout_seconds) + " s";
    return false;
  }
  if (result.exit_code != 0) {
    const std::string last = LastLine(result.error_output);
    *err = "gnuplot failed" + (last.empty() ? std::string() : ": " + last);
    return false;
  }
  std::ifstream in(svg_path);
  std::ostringstream text;
  text << in.rdbuf();
  *svg = text.str();
  if (svg->find("<svg") == std::string::npos || svg->find("</svg>") == std::string::npos) {
    *err = "gnuplot wrote no SVG";
    return false;
  }
  return true;
}

std::string InlineSvg(const std::string& svg, const std::string& id_prefix,
                      const std::string& title) {
  const size_t start = svg.find("<svg");
  const size_t end = svg.rfind("</svg>");
  if (start == std::string::npos || end == std::string::npos || end < start) return "";
  std::string out = svg.substr(start, end + 6 - start);
  DropAttribute(&out, "xmlns:xlink");
  DropAttribute(&out, "xmlns");
  ReplaceAll(&out, "id='", "id='" + id_prefix);
  ReplaceAll(&out, "id=\"", "id=\"" + id_prefix);
  ReplaceAll(&out, "href='#", "href='#" + id_prefix);
  ReplaceAll(&out, "href=\"#", "href=\"#" + id_prefix);
  ReplaceAll(&out, "url(#", "url(#" + id_prefix);
  const size_t t0 = out.find("<title>");
  const size_t t1 = out.find("</title>");
  if (t0 != std::string::npos && t1 != std::string::npos && t1 > t0) {
    out.replace(t0, t1 + 8 - t0, "<title>" + MarkupEscape(title) + "</title>");
  }
  return out;
}

std::string GnuplotString(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "''";
    } else {
      out += SafeChar(c) ? c : '?';
    }
  }
  return out + "'";
}

std::string GnuplotDataString(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) out += SafeChar(c) && c != '\'' ? c : '?';
  return out + "\"";
}

std::string GnuplotNumber(double value) {
  if (!std::isfinite(value)) return "NaN";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", value);
  return buf;
}

}  // namespace elevbench
