// The matmul providers by name, as the case file's [backend] matmul offers them: assembled from
// the registered backends' lists (kernels/backends.hpp; kernels/<backend>/matmul_provider_list.hpp,
// one line per provider with what it is), the union of their names in order, then "auto". A backend without a provider
// of the name the case asks for says so when the case starts.
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
