#include "kernels/backends.hpp"

#include <stdexcept>

#include "base/error.hpp"
#include "frmini_config.hpp"
#include "kernels/cpu/matmul_provider_list.hpp"
#include "kernels/cuda/matmul_provider_list.hpp"
#include "kernels/opencl/matmul_provider_list.hpp"

namespace frmini::kernels {

// The backends, one line each with the providers their lists offer: a new backend is its
// folder, its list's include and a line here.
const std::vector<BackendType>& backend_types() {
#define FRMINI_OFFER(name, help) {#name, help},
  static const std::vector<BackendType> t = {
      {"cpu", make_cpu_backend, {FRMINI_CPU_MATMUL_PROVIDERS(FRMINI_OFFER)}},
      {"opencl", make_opencl_backend, {FRMINI_OPENCL_MATMUL_PROVIDERS(FRMINI_OFFER)}},
      {"cuda", make_cuda_backend, {FRMINI_CUDA_MATMUL_PROVIDERS(FRMINI_OFFER)}},
  };
#undef FRMINI_OFFER
  return t;
}

std::vector<std::string> backend_names() {
  std::vector<std::string> out;
  for (const auto& b : backend_types()) out.push_back(b.name);
  return out;
}

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& opts) {
  std::string names;
  for (const auto& b : backend_types()) {
    if (b.name == name) return b.make(opts);
    names += (names.empty() ? "" : ", ") + b.name;
  }
  throw UserError("unknown backend '" + name + "' (choose " + names + ")");
}

std::unique_ptr<pointwise::PointwiseKernel> Backend::pointwise(const pointwise::Spec& spec,
                                                              Precision) {
  throw std::logic_error("backend " + name() + " cannot run pointwise kernels yet (" +
                         spec.name + ")");
}

void Backend::run_chain(int64_t begin, int64_t end, int64_t, const std::vector<ChainStep>& steps,
                        const std::function<void()>& poll) {
  if (end <= begin) return;
  for (const auto& s : steps) s(begin, end);
  if (poll) poll();
}

std::vector<std::string> built_backends() {
  std::vector<std::string> out{"cpu"};
  if (config::have_opencl) out.push_back("opencl");
  if (config::have_cuda) out.push_back("cuda");
  return out;
}

}  // namespace frmini::kernels
