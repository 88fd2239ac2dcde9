#include "kernels/cuda/compiler.hpp"

#include <nvrtc.h>  // types and enums only: the functions come from dlsym

#include <stdexcept>

#include "base/error.hpp"
#include "kernels/cache.hpp"
#include "kernels/cuda/dynlib.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels::cuda {

struct Compiler::Api {
  decltype(&::nvrtcVersion) version;
  decltype(&::nvrtcCreateProgram) create;
  decltype(&::nvrtcDestroyProgram) destroy;
  decltype(&::nvrtcCompileProgram) compile;
  decltype(&::nvrtcGetProgramLogSize) log_size;
  decltype(&::nvrtcGetProgramLog) log;
  decltype(&::nvrtcGetCUBINSize) cubin_size;
  decltype(&::nvrtcGetCUBIN) cubin;
  decltype(&::nvrtcGetErrorString) error_string;
};

Compiler& Compiler::instance() {
  static Compiler c;  // C++11 guarantees thread-safe one-time construction
  return c;
}

Compiler::Compiler() {
  std::string why;
  void* h = open_first(toolkit_candidates("libnvrtc.so", "13"), &why);
  if (!h) throw UserError("cuda: NVRTC not found (" + why + ")");
  api_ = new Api;
  bool ok = resolve(h, "nvrtcVersion", api_->version) &&
            resolve(h, "nvrtcCreateProgram", api_->create) &&
            resolve(h, "nvrtcDestroyProgram", api_->destroy) &&
            resolve(h, "nvrtcCompileProgram", api_->compile) &&
            resolve(h, "nvrtcGetProgramLogSize", api_->log_size) &&
            resolve(h, "nvrtcGetProgramLog", api_->log) &&
            resolve(h, "nvrtcGetCUBINSize", api_->cubin_size) &&
            resolve(h, "nvrtcGetCUBIN", api_->cubin) &&
            resolve(h, "nvrtcGetErrorString", api_->error_string);
  if (!ok) throw UserError("cuda: NVRTC library lacks nvrtcGetCUBIN (CUDA >= 11.1 needed)");
  api_->version(&major_, &minor_);
}

std::string Compiler::version() const {
  return std::to_string(major_) + "." + std::to_string(minor_);
}

CompileResult Compiler::compile_cubin(const std::string& source, int arch,
                                      const std::vector<std::string>& flags,
                                      bool use_cache) const {
  std::vector<std::string> opts{"--gpu-architecture=sm_" + std::to_string(arch),
                                "--std=c++17", "-Xptxas=-v"};
  opts.insert(opts.end(), flags.begin(), flags.end());

  // Key: source, options, compiler version and arch (all in `opts` or `version()`).
  std::string keytext = source;
  for (auto& o : opts) keytext += '\0' + o;
  keytext += '\0' + version();
  std::string key = "cuda/" + matmul::hex64(matmul::fnv1a(keytext.data(), keytext.size()));
  CompileResult r;
  if (use_cache) {
    auto cubin = cache_read(key + ".cubin");
    auto log = cache_read(key + ".log");
    if (cubin && log && !cubin->empty()) {
      r.cubin = std::move(*cubin);
      r.log = std::move(*log);
      r.resources = parse_ptxas_log(r.log);
      r.from_cache = true;
      return r;
    }
  }

  nvrtcProgram prog = nullptr;
  auto check = [&](nvrtcResult e, const char* what) {
    if (e != NVRTC_SUCCESS)
      throw std::runtime_error(std::string("cuda: ") + what + ": " + api_->error_string(e));
  };
  check(api_->create(&prog, source.c_str(), "frmini.cu", 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  std::vector<const char*> argv;
  for (auto& o : opts) argv.push_back(o.c_str());
  nvrtcResult res = api_->compile(prog, int(argv.size()), argv.data());
  std::size_t n = 0;
  api_->log_size(prog, &n);
  r.log.assign(n, '\0');
  if (n) api_->log(prog, r.log.data());
  while (!r.log.empty() && r.log.back() == '\0') r.log.pop_back();
  if (res != NVRTC_SUCCESS) {
    api_->destroy(&prog);
    // Generated code must compile: an internal error, with the log and the source's start.
    throw std::runtime_error("cuda: NVRTC compilation failed (" +
                             std::string(api_->error_string(res)) + "):\n" + r.log +
                             "\n--- source (first 2000 chars) ---\n" + source.substr(0, 2000));
  }
  check(api_->cubin_size(prog, &n), "nvrtcGetCUBINSize");
  r.cubin.assign(n, '\0');
  check(api_->cubin(prog, r.cubin.data()), "nvrtcGetCUBIN");
  api_->destroy(&prog);
  r.resources = parse_ptxas_log(r.log);
  if (use_cache) {
    cache_write(key + ".log", r.log);
    cache_write(key + ".cubin", r.cubin);
  }
  return r;
}

}  // namespace frmini::kernels::cuda
