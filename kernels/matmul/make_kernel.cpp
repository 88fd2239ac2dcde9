// make_kernel(): the one entry point the solver and the benchmarks use to get a matmul kernel.
#include <memory>
#include <string>

#include "base/error.hpp"
#include "kernels/matmul/auto_tune.hpp"
#include "kernels/matmul/provider.hpp"

namespace frmini::kernels::matmul {

std::unique_ptr<Kernel> make_kernel(Backend& backend, const std::string& provider,
                                    const Problem& p) {
  auto providers = backend.matmul_providers();
  if (provider == "auto") return tune(backend, providers, p, "auto");

  std::string names;
  for (const auto& pr : providers) {
    // A named provider with several strategies (generated) chooses among them by timing,
    // exactly as auto does; a provider that declines raises a UserError with its reason.
    if (pr->name() == provider) return tune(backend, {pr}, p, provider);
    names += (names.empty() ? "" : ", ") + pr->name();
  }
  throw UserError("unknown matmul provider '" + provider + "' for backend " + backend.name() +
                  " (choose auto, " + names + ")");
}

bool threads_its_own(Backend& backend, const std::string& provider) {
  for (const auto& pr : backend.matmul_providers())
    if (pr->name() == provider) return pr->threads_its_own();
  return false;
}

}  // namespace frmini::kernels::matmul
