#include "kernels/matmul/catalogue.hpp"

#include <map>

#include "kernels/backends.hpp"

namespace frmini::kernels::matmul {

const std::vector<ProviderInfo>& provider_catalogue() {
  static const std::vector<ProviderInfo> c = [] {
    // One entry per name, in first appearance; the help the same on every backend that has
    // the name, else "backend: help" for each.
    struct Offered {
      const char* backend;
      const char* name;
      const char* help;
    };
    std::vector<std::string> order;
    std::map<std::string, std::vector<Offered>> by;
    for (const auto& b : backend_types())
      for (const auto& p : b.providers) {
        if (!by.count(p.name)) order.push_back(p.name);
        by[p.name].push_back({b.name.c_str(), p.name, p.help});
      }
    std::vector<ProviderInfo> out;
    for (const auto& name : order) {
      const auto& all = by[name];
      bool same = true;
      for (const auto& o : all) same = same && std::string(o.help) == all.front().help;
      std::string help, where;
      for (const auto& o : all) {
        where += (where.empty() ? "" : ", ") + std::string(o.backend);
        if (!same) help += (help.empty() ? "" : "; ") + std::string(o.backend) + ": " + o.help;
      }
      if (same) help = std::string(all.front().help) + " (" + where + ")";
      out.push_back({name, help});
    }
    out.push_back({"auto", "time every provider that takes the product, keep the fastest"});
    return out;
  }();
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
