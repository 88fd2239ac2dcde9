#include "kernels/matmul/catalogue.hpp"

namespace frmini::kernels::matmul {

// The providers, one line each.
const std::vector<ProviderInfo>& provider_catalogue() {
  static const std::vector<ProviderInfo> c = {
      {"generated", "kernels generated for each operator, its entries in the source"},
      {"blas", "the vendor BLAS (cpu: OpenBLAS; opencl: CLBlast; cuda: cuBLASLt with its "
               "algorithms searched)"},
      {"cublas", "plain cuBLAS gemm (cuda)"},
      {"xsmm", "libxsmm's JIT kernels (cpu)"},
      {"reference", "plain loops, the correctness yardstick"},
      {"auto", "time every provider that takes the product, keep the fastest"},
  };
  return c;
}

std::vector<std::string> provider_names() {
  std::vector<std::string> out;
  for (const auto& p : provider_catalogue()) out.push_back(p.name);
  return out;
}

std::vector<std::string> provider_helps() {
  std::vector<std::string> out;
  for (const auto& p : provider_catalogue()) out.push_back(p.help);
  return out;
}

}  // namespace frmini::kernels::matmul
