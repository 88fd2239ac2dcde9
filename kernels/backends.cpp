#include "kernels/backends.hpp"

#include <stdexcept>

#include "base/error.hpp"
#include "frmini_config.hpp"

namespace frmini::kernels {

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& opts) {
  if (name == "cpu") return make_cpu_backend(opts);
  if (name == "opencl") return make_opencl_backend(opts);
  if (name == "cuda") return make_cuda_backend(opts);
  throw UserError("unknown backend '" + name + "' (choose cpu, opencl or cuda)");
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
