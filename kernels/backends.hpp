// The backends by name: each is defined in its own folder and registered with one line in
// backends.cpp; a backend this build lacks is replaced (by CMake, not the preprocessor) with a
// factory that throws NotBuiltError. The case file's [backend] name takes its choices from here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/backend.hpp"

namespace frmini::kernels {

std::unique_ptr<Backend> make_cpu_backend(const BackendOptions& opts);
std::unique_ptr<Backend> make_opencl_backend(const BackendOptions& opts);
std::unique_ptr<Backend> make_cuda_backend(const BackendOptions& opts);

// A matmul provider a backend offers: a line of its kernels/<backend>/matmul_provider_list.hpp.
struct ProviderOffer {
  const char* name;
  const char* help;
};
struct BackendType {
  std::string name;
  std::unique_ptr<Backend> (*make)(const BackendOptions&);
  std::vector<ProviderOffer> providers;  // in the order 'auto' asks them
};
// Every registered backend, built into this binary or not.
const std::vector<BackendType>& backend_types();
std::vector<std::string> backend_names();

}  // namespace frmini::kernels
