// Run-time compilation for the cpu backend: C source -> shared object -> dlopen, cached on disk.
// The compiler is $FRMINI_CC (default "cc"); flags are -O3, the ISA target's -march
// (device.hpp: -march=native unless $FRMINI_CPU_ISA says otherwise), -fopenmp -shared -fPIC
// -Wall -Wextra, then $FRMINI_CFLAGS (e.g. -Werror in tests), then the caller's (a later
// -march overrides, for compile-only tests of other ISAs). The cache key hashes source, flags,
// the compiler's `--version`, and the CPU model and ISA flags (-march=native code is only
// valid on the machine that built it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/backend.hpp"

namespace frmini::kernels::cpu {

// A loaded shared object. Closing happens when the last owner lets go.
class CpuModule : public Module {
 public:
  CpuModule(void* handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  ~CpuModule() override;
  CpuModule(const CpuModule&) = delete;
  CpuModule& operator=(const CpuModule&) = delete;

  // The address of an exported function; throws if the object lacks it.
  void* symbol(const std::string& name) const;
  const std::string& path() const { return path_; }

 private:
  void* handle_;
  std::string path_;
};

struct CompileStats {
  int compiled = 0;   // compiler runs
  int disk_hits = 0;  // loaded from the disk cache
  int rebuilt = 0;    // cached objects that failed to load and were rebuilt
};

class Compiler {
 public:
  explicit Compiler(bool verbose) : verbose_(verbose) {}
  std::shared_ptr<CpuModule> compile(const std::string& source,
                                     const std::vector<std::string>& flags);
  const CompileStats& stats() const { return stats_; }
  // The path compile() uses for a source and flags (for tests of the cache).
  std::string cached_object_path(const std::string& source, const std::vector<std::string>& flags);

 private:
  std::vector<std::string> all_flags(const std::vector<std::string>& extra) const;
  bool verbose_;
  CompileStats stats_;
};

std::string compiler_command();   // $FRMINI_CC or "cc"
std::string compiler_version();   // first line of `cc --version`
// `wanted` if the compiler takes all of it without a warning, else nothing (asked once per
// compiler and flag set): for flags of one compiler's, such as GCC's scheduling options,
// which clang rejects.
std::vector<std::string> accepted_flags(const std::vector<std::string>& wanted);

}  // namespace frmini::kernels::cpu
