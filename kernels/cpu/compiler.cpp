#include "kernels/cpu/compiler.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "kernels/cache.hpp"
#include "kernels/cpu/device.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels::cpu {

namespace fs = std::filesystem;

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

// Runs a shell command, returning its exit status and its combined output.
int run_capture(const std::string& cmd, std::string& output) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) throw std::runtime_error("cannot run: " + cmd);
  char buf[4096];
  std::size_t got;
  while ((got = fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, got);
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::vector<std::string> split_words(const char* s) {
  std::vector<std::string> out;
  if (!s) return out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

// In-process: one dlopen per object, shared by all kernels compiled from the same source.
std::mutex loaded_mutex;
std::map<std::string, std::weak_ptr<CpuModule>>& loaded() {
  static std::map<std::string, std::weak_ptr<CpuModule>> m;
  return m;
}

}  // namespace

CpuModule::~CpuModule() {
  if (handle_) dlclose(handle_);
}

void* CpuModule::symbol(const std::string& name) const {
  void* f = dlsym(handle_, name.c_str());
  if (!f) throw std::runtime_error("cpu backend: " + path_ + " lacks symbol " + name);
  return f;
}

std::string compiler_command() {
  const char* e = std::getenv("FRMINI_CC");
  return e && *e ? e : "cc";
}

std::string compiler_version() {
  static std::mutex m;
  static std::map<std::string, std::string> versions;
  std::lock_guard<std::mutex> lock(m);
  auto cc = compiler_command();
  auto it = versions.find(cc);
  if (it != versions.end()) return it->second;
  std::string out;
  run_capture(shell_quote(cc) + " --version", out);
  auto nl = out.find('\n');
  return versions[cc] = out.substr(0, nl);
}

std::vector<std::string> accepted_flags(const std::vector<std::string>& wanted) {
  static std::mutex m;
  static std::map<std::string, bool> known;
  std::string cmd = shell_quote(compiler_command()) + " -Werror";
  for (const auto& f : wanted) cmd += " " + shell_quote(f);
  cmd += " -x c -c /dev/null -o /dev/null";
  std::lock_guard<std::mutex> lock(m);
  auto it = known.find(cmd);
  if (it == known.end()) {
    std::string out;
    it = known.emplace(cmd, run_capture(cmd, out) == 0).first;
  }
  return it->second ? wanted : std::vector<std::string>{};
}

std::vector<std::string> Compiler::all_flags(const std::vector<std::string>& extra) const {
  std::vector<std::string> f{"-std=gnu11", "-O3"};
  for (const auto& w : isa_target().cflags) f.push_back(w);
  for (const char* w : {"-fopenmp", "-shared", "-fPIC", "-Wall", "-Wextra"}) f.push_back(w);
  for (auto& w : split_words(std::getenv("FRMINI_CFLAGS"))) f.push_back(w);
  for (auto& w : extra) f.push_back(w);
  return f;
}

std::string Compiler::cached_object_path(const std::string& source,
                                         const std::vector<std::string>& flags) {
  std::string key = source;
  key += '\0' + compiler_command() + '\0' + compiler_version() + '\0' + cpu_model() + '\0' +
         cpu_flags_hash();
  for (const auto& f : all_flags(flags)) key += '\0' + f;
  auto h = matmul::hex64(matmul::fnv1a(key.data(), key.size()));
  auto dir = cache_dir() / "cpu";
  std::error_code ec;
  fs::create_directories(dir, ec);
  return (dir / (h + ".so")).string();
}

std::shared_ptr<CpuModule> Compiler::compile(const std::string& source,
                                             const std::vector<std::string>& flags) {
  const std::string so = cached_object_path(source, flags);
  {
    std::lock_guard<std::mutex> lock(loaded_mutex);
    if (auto m = loaded()[so].lock()) return m;
  }

  bool had_file = fs::exists(so);
  if (had_file) {
    if (void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      ++stats_.disk_hits;
      if (verbose_) std::cerr << "frmini: cpu: kernel cache hit " << so << "\n";
      auto m = std::make_shared<CpuModule>(h, so);
      std::lock_guard<std::mutex> lock(loaded_mutex);
      loaded()[so] = m;
      return m;
    }
    // A truncated or corrupted object (a crash mid-write, a disk error): rebuild it.
    if (verbose_) std::cerr << "frmini: cpu: cached " << so << " unusable (" << dlerror()
                            << "), rebuilding\n";
    ++stats_.rebuilt;
  }

  // Unique temporaries, then an atomic rename: concurrent processes never load half a file,
  // and a process that has the old object mapped keeps its (unlinked) inode.
  const std::string base = so.substr(0, so.size() - 3);
  const std::string tag = "." + std::to_string(getpid()) + "-" +
                          std::to_string(reinterpret_cast<std::uintptr_t>(this) & 0xffffff);
  const std::string src = base + tag + ".c", tmp = base + tag + ".so";
  {
    std::ofstream out(src, std::ios::binary);
    out << source;
    if (!out) throw std::runtime_error("cpu backend: cannot write " + src);
  }
  std::string cmd = shell_quote(compiler_command());
  for (const auto& f : all_flags(flags)) cmd += " " + shell_quote(f);
  cmd += " -o " + shell_quote(tmp) + " " + shell_quote(src);
  std::string log;
  int st = run_capture(cmd, log);
  ++stats_.compiled;
  if (st != 0) {
    std::error_code ec;
    fs::remove(tmp, ec);
    // The source is kept next to the cache for inspection.
    throw std::runtime_error("cpu backend: kernel compilation failed (" + cmd + "):\n" + log);
  }
  if (!log.empty() && verbose_) std::cerr << "frmini: cpu: compiler output:\n" << log;
  std::error_code ec;
  fs::rename(src, base + ".c", ec);
  fs::rename(tmp, so, ec);
  if (ec) throw std::runtime_error("cpu backend: cannot install " + so + ": " + ec.message());
  if (verbose_) std::cerr << "frmini: cpu: compiled " << so << "\n";

  void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw std::runtime_error(std::string("cpu backend: dlopen failed: ") + dlerror());
  auto m = std::make_shared<CpuModule>(h, so);
  std::lock_guard<std::mutex> lock(loaded_mutex);
  loaded()[so] = m;
  return m;
}

}  // namespace frmini::kernels::cpu
