// The text of generated files (SourceTextGenerator in source_tree.h): pools of source-like
// lines built from the seed, and per-file streams that copy runs of consecutive pool lines after
// a header naming the file. docs/source-tree.md explains the choices and the measured speed.

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/strings.h"
#include "harness/tree/source_tree.h"
#include "harness/tree/source_tree_internal.h"

namespace elevbench {
namespace {

using source_tree_internal::HashString;
using source_tree_internal::kBuild;
using source_tree_internal::kDoc;
using source_tree_internal::kH;
using source_tree_internal::Kind;
using source_tree_internal::KindOfPath;
using source_tree_internal::kKindCount;
using source_tree_internal::kOther;
using source_tree_internal::Mix64;
using source_tree_internal::Rng;
using source_tree_internal::Word;

// The words of comments' and documents' prose, in the order ProseWord draws them by index.
constexpr std::string_view kProseList =
    "the a to of and is in this that driver device kernel must be can will when with for not are "
    "on it if as by or support file data memory interrupt buffer system user option module should "
    "may only each which used value default set read write call returns see also note following "
    "example number time all other one two more than some any new old first last patch bug report "
    "source code function structure field list table entry page block disk request queue scheduler "
    "elevator latency we here there before after because so no";

const std::string& ProseWord(Rng& rng) {
  static const std::vector<std::string> words = SplitWords(kProseList);
  return words[rng.Below(words.size())];
}

constexpr const char* kTypes[] = {
    "int",
    "unsigned int",
    "unsigned long",
    "long",
    "u8",
    "u16",
    "u32",
    "char *",
    "void *",
    "size_t",
    "ssize_t",
    "loff_t",
    "dma_addr_t",
    "kdev_t",
    "struct page *",
    "struct inode *",
    "struct sk_buff *",
    "struct file *",
};

constexpr const char* kVars[] = {
    "dev",   "pdev",   "priv", "skb",   "buf",  "len", "ret",  "err",   "i",    "j",
    "flags", "count",  "page", "inode", "file", "sb",  "host", "port",  "regs", "val",
    "addr",  "offset", "size", "data",  "info", "ctx", "req",  "q",     "bh",   "vma",
    "mm",    "tsk",    "cpu",  "irq",   "nr",   "tmp", "p",    "entry", "node", "list",
};

constexpr const char* kErrors[] = {"EINVAL", "ENOMEM", "EIO",   "EBUSY", "ENODEV",
                                   "EFAULT", "EAGAIN", "ENXIO", "EPERM", "ENOSPC"};
constexpr const char* kLevels[] = {"KERN_ERR", "KERN_WARNING", "KERN_INFO", "KERN_DEBUG",
                                   "KERN_NOTICE"};
constexpr const char* kAuthors[] = {
    "Linus Torvalds", "A. N. Hacker", "J. Random Developer", "P. Maintainer",
    "S. Kernelson",   "M. Elevator",  "R. Blockdev",         "T. Driverwriter",
    "K. Filesystem",  "D. Netstack",  "L. Scheduler",        "B. Portmaster",
};

template <size_t N>
const char* Pick(const char* const (&list)[N], Rng& rng) {
  return list[rng.Below(N)];
}

// A C macro name of an identifier: upper case, '-' as '_'.
std::string MacroNameOf(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c == '-') c = '_';
  }
  return s;
}

std::string Ident(Rng& rng) {
  std::string s = Word(rng);
  if (rng.Chance(600)) {
    s += '_';
    s += Word(rng);
  }
  for (char& c : s) {
    if (c == '-') c = '_';
  }
  return s;
}

std::string Macro(Rng& rng) { return MacroNameOf(Ident(rng)); }

std::string Sentence(Rng& rng, size_t words) {
  std::string s;
  for (size_t i = 0; i < words; ++i) {
    if (i > 0) s += ' ';
    s += ProseWord(rng);
  }
  return s;
}

std::string Hex(uint64_t v, int digits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s = "0x";
  for (int i = digits - 1; i >= 0; --i) s += kDigits[(v >> (4 * i)) & 15];
  return s;
}

std::string Expr(Rng& rng) {
  switch (rng.Below(5)) {
    case 0:
      return std::to_string(rng.Below(256));
    case 1:
      return Macro(rng);
    case 2:
      return std::string(Pick(kVars, rng)) + "->" + Ident(rng);
    case 3:
      return Ident(rng) + "(" + Pick(kVars, rng) + ")";
    default:
      return std::string(Pick(kVars, rng)) + " + " + std::to_string(rng.Below(16));
  }
}

void CStatement(std::string* out, Rng& rng, int indent, int nesting) {
  const std::string tab(indent, '\t');
  const std::string v = Pick(kVars, rng);
  switch (rng.Below(nesting < 2 ? 10 : 7)) {
    case 0:
      *out += tab + v + "->" + Ident(rng) + " = " + Expr(rng) + ";\n";
      break;
    case 1:
      *out += tab + Ident(rng) + "(" + v + ", " + Expr(rng) + ");\n";
      break;
    case 2:
      *out += tab + "printk(" + Pick(kLevels, rng) + " \"" + Word(rng) + ": " +
              Sentence(rng, 2 + rng.Below(6)) + "\\n\");\n";
      break;
    case 3:
      *out += tab + "/* " + Sentence(rng, 3 + rng.Below(8)) + " */\n";
      break;
    case 4:
      *out += tab + v + " = " + Expr(rng) + ";\n";
      break;
    case 5:
      *out += tab + "spin_lock_irqsave(&" + v + "->lock, flags);\n";
      CStatement(out, rng, indent, nesting + 1);
      *out += tab + "spin_unlock_irqrestore(&" + v + "->lock, flags);\n";
      break;
    case 6:
      *out += tab + "if (" + v + " < 0)\n" + tab + "\treturn -" + Pick(kErrors, rng) + ";\n";
      break;
    case 7:
    case 8: {
      *out += tab + "if (" + v + "->" + Ident(rng) + " & " + Macro(rng) + ") {\n";
      const uint64_t n = 1 + rng.Below(3);
      for (uint64_t i = 0; i < n; ++i) CStatement(out, rng, indent + 1, nesting + 1);
      *out += tab + "}\n";
      break;
    }
    default:
      *out += tab + "for (i = 0; i < " + Macro(rng) + "; i++) {\n";
      CStatement(out, rng, indent + 1, nesting + 1);
      *out += tab + "}\n";
      break;
  }
}

std::string CFunctionHead(Rng& rng) {
  std::string s = rng.Chance(600) ? "static " : "";
  s += std::string(Pick(kTypes, rng)) + " " + Ident(rng) + "_" + Word(rng) + "(";
  const uint64_t params = rng.Below(4);
  for (uint64_t i = 0; i < params; ++i) {
    if (i > 0) s += ", ";
    s += std::string(Pick(kTypes, rng)) + " " + Pick(kVars, rng);
  }
  return s + (params == 0 ? "void)" : ")");
}

void AppendC(std::string* out, Rng& rng) {
  switch (rng.Below(10)) {
    case 0:
      *out += "#include <linux/" + std::string(Word(rng)) + ".h>\n#include <asm/" + Word(rng) +
              ".h>\n\n";
      return;
    case 1:
    case 2:
      *out += "/*\n * " + Sentence(rng, 6 + rng.Below(8)) + "\n * " +
              Sentence(rng, 4 + rng.Below(8)) + ".\n */\n";
      [[fallthrough]];
    default: {
      *out += CFunctionHead(rng) + "\n{\n";
      const uint64_t decls = 1 + rng.Below(3);
      for (uint64_t i = 0; i < decls; ++i) {
        *out += "\t" + std::string(Pick(kTypes, rng)) + " " + Pick(kVars, rng) + ";\n";
      }
      *out += "\n";
      const uint64_t n = 2 + rng.Below(12);
      for (uint64_t i = 0; i < n; ++i) CStatement(out, rng, 1, 0);
      *out += "\treturn " + std::string(rng.Chance(500) ? "0" : Pick(kVars, rng)) + ";\n}\n\n";
      if (rng.Chance(200)) *out += "EXPORT_SYMBOL(" + Ident(rng) + ");\n\n";
      return;
    }
  }
}

void AppendH(std::string* out, Rng& rng) {
  switch (rng.Below(6)) {
    case 0:
    case 1: {
      const std::string prefix = Macro(rng);
      const uint64_t n = 2 + rng.Below(10);
      for (uint64_t i = 0; i < n; ++i) {
        *out += "#define " + prefix + "_" + Macro(rng) + "\t\t" + Hex(rng.Below(1 << 16), 4) +
                (rng.Chance(300) ? "\t/* " + Sentence(rng, 2 + rng.Below(4)) + " */" : "") + "\n";
      }
      *out += "\n";
      return;
    }
    case 2: {
      *out += "struct " + Ident(rng) + " {\n";
      const uint64_t n = 2 + rng.Below(12);
      for (uint64_t i = 0; i < n; ++i) {
        *out += "\t" + std::string(Pick(kTypes, rng)) + "\t" + Ident(rng) + ";" +
                (rng.Chance(250) ? "\t/* " + Sentence(rng, 2 + rng.Below(5)) + " */" : "") + "\n";
      }
      *out += "};\n\n";
      return;
    }
    case 3:
      *out += "/*\n * " + Sentence(rng, 5 + rng.Below(9)) + "\n */\n";
      return;
    default: {
      const uint64_t n = 1 + rng.Below(6);
      for (uint64_t i = 0; i < n; ++i) *out += "extern " + CFunctionHead(rng) + ";\n";
      *out += "\n";
      return;
    }
  }
}

void AppendAsm(std::string* out, Rng& rng) {
  static constexpr const char* kRegs[] = {"%eax", "%ebx", "%ecx", "%edx", "%esi", "%edi"};
  static constexpr const char* kOps[] = {"movl", "addl", "subl", "andl",
                                         "orl",  "xorl", "cmpl", "testl"};
  *out += "/*\n * " + Sentence(rng, 4 + rng.Below(8)) + "\n */\nENTRY(" + Ident(rng) +
          ")\n\tpushl %ebp\n\tmovl %esp,%ebp\n";
  const uint64_t n = 3 + rng.Below(14);
  for (uint64_t i = 0; i < n; ++i) {
    switch (rng.Below(6)) {
      case 0:
        *out += std::to_string(1 + rng.Below(9)) + ":\tdecl " + Pick(kRegs, rng) + "\n\tjnz " +
                std::to_string(1 + rng.Below(9)) + "b\n";
        break;
      case 1:
        *out += "\tmovl " + std::to_string(4 * rng.Below(8)) + "(%ebp)," + Pick(kRegs, rng) + "\n";
        break;
      default:
        *out += "\t" + std::string(Pick(kOps, rng)) + " " + Pick(kRegs, rng) + "," +
                Pick(kRegs, rng) + "\n";
        break;
    }
  }
  *out += "\tpopl %ebp\n\tret\n\n";
}

void AppendBuild(std::string* out, Rng& rng) {
  const std::string name = Ident(rng);
  switch (rng.Below(3)) {
    case 0: {
      *out += "config " + MacroNameOf(name) + "\n\t" + (rng.Chance(500) ? "tristate" : "bool") +
              " \"" + Sentence(rng, 2 + rng.Below(5)) + "\"\n\tdepends on " + Macro(rng) + "\n";
      *out += "\thelp\n";
      const uint64_t n = 1 + rng.Below(5);
      for (uint64_t i = 0; i < n; ++i) *out += "\t  " + Sentence(rng, 6 + rng.Below(6)) + "\n";
      *out += "\n";
      return;
    }
    case 1:
      *out += "O_TARGET := " + name + ".o\nexport-objs := " + Ident(rng) + ".o\n\n";
      [[fallthrough]];
    default: {
      const uint64_t n = 2 + rng.Below(10);
      for (uint64_t i = 0; i < n; ++i) {
        *out += "obj-$(CONFIG_" + Macro(rng) + ")\t+= " + Ident(rng) + ".o\n";
      }
      *out += rng.Chance(300) ? "\ninclude $(TOPDIR)/Rules.make\n\n" : "\n";
      return;
    }
  }
}

void AppendDoc(std::string* out, Rng& rng) {
  if (rng.Chance(200)) {
    const std::string title = Sentence(rng, 2 + rng.Below(4));
    *out += title + "\n" + std::string(title.size(), '-') + "\n\n";
  }
  const uint64_t lines = 2 + rng.Below(9);
  for (uint64_t i = 0; i < lines; ++i) {
    std::string line;
    while (line.size() < 60) {
      if (!line.empty()) line += ' ';
      line += ProseWord(rng);
    }
    *out += line + (i + 1 == lines ? ".\n\n" : "\n");
  }
  if (rng.Chance(150))
    *out += "\t# echo " + std::to_string(rng.Below(512)) + " > /proc/sys/" + Word(rng) + "/" +
            Ident(rng) + "\n\n";
}

void AppendScript(std::string* out, Rng& rng) {
  const std::string v = Word(rng);
  switch (rng.Below(3)) {
    case 0:
      *out += "if [ -f \"$" + MacroNameOf(v) + "\" ]; then\n\techo \"" +
              Sentence(rng, 3 + rng.Below(5)) + "\"\n\t" + Word(rng) + " $" + MacroNameOf(v) +
              " > /dev/null\nfi\n\n";
      return;
    case 1:
      *out += "sub " + Ident(rng) + " {\n\tmy ($" + v + ") = @_;\n\treturn $" + v + " =~ /" +
              Word(rng) + "/;\n}\n\n";
      return;
    default:
      *out += "# " + Sentence(rng, 4 + rng.Below(8)) + "\nfor f in $*; do\n\t" + Word(rng) +
              " \"$f\" " + Hex(rng.Below(256), 2) + "\ndone\n\n";
      return;
  }
}

constexpr size_t kPoolBytes = 160 * 1024;
constexpr uint64_t kMinRunLines = 4, kMaxRunLines = 32;

}  // namespace

struct SourceTextGenerator::Pool {
  std::string text;              // whole lines, each ending in '\n'
  std::vector<uint32_t> starts;  // offset of each line, then text.size()
};

struct SourceTextGenerator::Pools {
  Pool pool[kKindCount];
  uint64_t seed_mix = 0;  // mixed into every stream, so runs differ between seeds too
};

SourceTextGenerator::SourceTextGenerator(uint64_t seed) : pools_(std::make_unique<Pools>()) {
  pools_->seed_mix = Mix64(seed ^ 0x7e47f11eULL);
  using Append = void (*)(std::string*, Rng&);
  // Indexed by Kind; "other" files (scripts, device trees, ...) get shell/perl-like lines.
  static constexpr Append kAppend[kKindCount] = {AppendC,   AppendH,   AppendBuild,
                                                 AppendDoc, AppendAsm, AppendScript};
  for (int k = 0; k < kKindCount; ++k) {
    Pool& p = pools_->pool[k];
    Rng rng(Mix64(seed ^ (0x7e47000ULL + static_cast<uint64_t>(k))));
    p.text.reserve(kPoolBytes + 4096);
    while (p.text.size() < kPoolBytes) kAppend[k](&p.text, rng);
    p.starts.push_back(0);
    for (size_t i = 0; i < p.text.size(); ++i) {
      if (p.text[i] == '\n') p.starts.push_back(static_cast<uint32_t>(i + 1));
    }
  }
}

SourceTextGenerator::~SourceTextGenerator() = default;

SourceTextGenerator::Stream SourceTextGenerator::Open(std::string_view path, uint64_t bytes) const {
  Stream s;
  const Kind kind = KindOfPath(path);
  s.pool_ = &pools_->pool[kind];
  const uint64_t h = HashString(path);
  s.rng_ = Mix64(h ^ Mix64(bytes + 0x51ce) ^ pools_->seed_mix);
  s.remaining_ = bytes;
  Rng rng(h);
  switch (kind) {
    case kBuild:
      s.header_ =
          "#\n# " + std::string(path) + "\n#\n# " + Sentence(rng, 4 + rng.Below(6)) + "\n#\n\n";
      break;
    case kDoc:
      s.header_ = std::string(path) + "\n" + std::string(path.size(), '=') + "\n\n";
      break;
    case kOther:
      s.header_ = "# " + std::string(path) + "\n#\n\n";
      break;
    default:
      s.header_ = "/*\n *  linux/" + std::string(path) + "\n *\n *  Copyright (C) " +
                  std::to_string(1991 + rng.Below(12)) + "  " + Pick(kAuthors, rng) + "\n */\n\n";
      if (kind == kH) {
        const std::string guard = "_" + MacroNameOf(std::string(path)) + "_";
        std::string g;
        for (char c : guard) g += (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_';
        s.header_ += "#ifndef " + g + "\n#define " + g + "\n\n";
      }
      break;
  }
  return s;
}

size_t SourceTextGenerator::Stream::Read(char* buf, size_t cap) {
  const size_t n = static_cast<size_t>(std::min<uint64_t>(cap, remaining_));
  size_t out = 0;
  while (out < n) {
    if (header_pos_ < header_.size()) {
      const size_t c = std::min(header_.size() - header_pos_, n - out);
      std::memcpy(buf + out, header_.data() + header_pos_, c);
      header_pos_ += c;
      out += c;
      continue;
    }
    if (run_len_ == 0) {  // a new run of consecutive pool lines
      rng_ += 0x9e3779b97f4a7c15ULL;
      const uint64_t r = Mix64(rng_);
      const size_t lines = pool_->starts.size() - 1;
      const size_t first = static_cast<size_t>(r % lines);
      const size_t count = kMinRunLines + (r >> 32) % (kMaxRunLines - kMinRunLines + 1);
      const size_t last = std::min(lines, first + count);
      run_ = pool_->text.data() + pool_->starts[first];
      run_len_ = pool_->starts[last] - pool_->starts[first];
    }
    const size_t c = std::min(run_len_, n - out);
    std::memcpy(buf + out, run_, c);
    run_ += c;
    run_len_ -= c;
    out += c;
  }
  remaining_ -= n;
  if (remaining_ == 0 && n > 0) buf[n - 1] = '\n';
  return n;
}

}  // namespace elevbench
