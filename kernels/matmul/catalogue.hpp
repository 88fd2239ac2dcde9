// The matmul providers by name, as the case file's [backend] matmul offers them: each provider
// is registered here with one line (its name and what it is), and made by the backends that
// have it (kernels/<backend>/matmul_*.cpp, listed in the backend's provider list); a backend
// without a provider of the name the case asks for says so when the case starts.
#pragma once

#include <string>
#include <vector>

namespace frmini::kernels::matmul {

struct ProviderInfo {
  std::string name;
  std::string help;  // one clause for --help-config
};

// Every provider, then "auto" (time every willing one, keep the fastest).
const std::vector<ProviderInfo>& provider_catalogue();
std::vector<std::string> provider_names();
std::vector<std::string> provider_helps();  // parallel to provider_names()

}  // namespace frmini::kernels::matmul
