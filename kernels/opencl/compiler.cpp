// Run-time compilation with a disk cache of program binaries. The key hashes the source, the
// build options and the platform, device, device version and driver version, so a driver
// upgrade or another device never reuses a stale binary. A cached binary the driver refuses
// (or that fails to build) is discarded and the program is rebuilt from source.
#include <chrono>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "kernels/cache.hpp"
#include "kernels/matmul/analysis.hpp"
#include "kernels/opencl/backend.hpp"

namespace frmini::kernels::opencl {
namespace {

std::string build_log(cl_program p, cl_device_id d) {
  std::size_t size = 0;
  if (clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS)
    return "(no build log)";
  std::string log(size, '\0');
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::string join(const std::vector<std::string>& flags) {
  std::string s;
  for (const auto& f : flags) s += (s.empty() ? "" : " ") + f;
  return s;
}

}  // namespace

cl_program OpenCLBackend::build_from_source(const std::string& source,
                                            const std::string& options) {
  const char* text = source.c_str();
  std::size_t length = source.size();
  // PoCL's own kernel cache (~/.cache/pocl) is not safe when several processes build the same
  // program at once (pocl issue 1480: MPI ranks, parallel tests): the build then fails with
  // no compiler message at all. Such a failure is tried again after a pause; one with the
  // compiler's words is a real error and is reported at once.
  for (int attempt = 0;; ++attempt) {
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(context_, 1, &text, &length, &err);
    check(err, "clCreateProgramWithSource");
    err = clBuildProgram(p, 1, &info_.device, options.c_str(), nullptr, nullptr);
    if (err == CL_SUCCESS) return p;
    std::string log = build_log(p, info_.device);
    clReleaseProgram(p);
    const bool diagnosed = log.find("error") != std::string::npos;
    if (!diagnosed && attempt < 4) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100 << (2 * attempt)));
      continue;
    }
    // Generated code must compile: a failure is a bug, reported with the compiler's words
    // and the head of the source to find it.
    throw std::runtime_error("opencl: clBuildProgram failed (" + error_name(err) +
                             ") with options '" + options + "'" +
                             (attempt ? " (" + std::to_string(attempt + 1) + " attempts)" : "") +
                             ":\n" + log + "\n--- source ---\n" + source.substr(0, 4000));
  }
}

cl_program OpenCLBackend::build_from_binary(const std::string& binary,
                                            const std::string& options) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(binary.data());
  std::size_t length = binary.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program p =
      clCreateProgramWithBinary(context_, 1, &info_.device, &length, &bytes, &status, &err);
  if (err != CL_SUCCESS || status != CL_SUCCESS) {
    if (p) clReleaseProgram(p);
    return nullptr;
  }
  if (clBuildProgram(p, 1, &info_.device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    clReleaseProgram(p);
    return nullptr;
  }
  return p;
}

void OpenCLBackend::store_binary(cl_program program, const std::string& key) {
  std::size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) !=
          CL_SUCCESS ||
      size == 0)
    return;  // some drivers keep no binary: then there is simply no cache
  std::string binary(size, '\0');
  unsigned char* ptr = reinterpret_cast<unsigned char*>(binary.data());
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) != CL_SUCCESS)
    return;
  cache_write(key, binary);
}

std::shared_ptr<Module> OpenCLBackend::compile(const std::string& source,
                                               const std::vector<std::string>& flags) {
  using matmul::fnv1a;
  std::vector<std::string> all = flags;
  if (flush_denormals_) all.push_back("-cl-denorms-are-zero");
  const std::string options = join(all);
  std::uint64_t h = fnv1a(source.data(), source.size());
  const std::string* parts[] = {&options, &info_.platform_name, &info_.device_name,
                                &info_.device_version, &info_.driver_version};
  for (const std::string* s : parts) {
    h = fnv1a("\x1f", 1, h);  // separator: ("ab","c") and ("a","bc") hash differently
    h = fnv1a(s->data(), s->size(), h);
  }
  const std::string key = "opencl/" + matmul::hex64(h) + ".bin";

  std::lock_guard<std::mutex> lock(compile_mutex_);
  if (auto it = modules_.find(key); it != modules_.end())
    if (auto m = it->second.lock()) {
      ++stats_.from_memory;
      return m;
    }

  cl_program p = nullptr;
  if (auto binary = cache_read(key)) {
    p = build_from_binary(*binary, options);
    if (p) {
      ++stats_.from_binary;
      if (verbose_) std::cerr << "opencl: program " << key << " loaded from the cache\n";
    } else {
      ++stats_.binary_rejected;
      if (verbose_) std::cerr << "opencl: cached binary " << key << " refused; rebuilding\n";
    }
  }
  if (!p) {
    p = build_from_source(source, options);
    ++stats_.from_source;
    if (verbose_) std::cerr << "opencl: compiled program " << key << " from source\n";
    store_binary(p, key);
  }
  auto module = std::make_shared<ClModule>(p);
  modules_[key] = module;
  return module;
}

}  // namespace frmini::kernels::opencl
