// The plugins by section name: registered types (the built-in ones listed in
// plugins_internal.hpp, others by register_plugin), and the plugins a case makes of them.
#include <algorithm>
#include <mutex>

#include "solver/physics/physics.hpp"
#include "solver/plugins/plugins_internal.hpp"

namespace frmini::solver {

namespace {
std::vector<PluginType>& types() {
  static std::vector<PluginType> t;
  return t;
}

std::string last_component(const std::string& section) {
  return section.substr(section.rfind('.') + 1);
}
}  // namespace

void register_plugin(PluginType t) {
  for (const auto& s : t.schema) config::register_section(s);
  auto& all = types();
  auto same = std::find_if(all.begin(), all.end(),
                           [&](const PluginType& have) { return have.section == t.section; });
  if (same != all.end()) *same = std::move(t);
  else all.push_back(std::move(t));
  // Stable: plugins of one place keep their registration order.
  std::stable_sort(all.begin(), all.end(),
                   [](const PluginType& a, const PluginType& b) { return a.place < b.place; });
}

void register_builtin_plugins() {
  static std::once_flag once;
  std::call_once(once, [] {
    physics::register_schema();
#define FRMINI_REGISTER_PLUGIN(name) register_plugin(name##_plugin());
    FRMINI_BUILTIN_PLUGINS(FRMINI_REGISTER_PLUGIN)
#undef FRMINI_REGISTER_PLUGIN
  });
}

std::vector<std::unique_ptr<Plugin>> make_plugins(const Case& k, bool quiet) {
  register_builtin_plugins();
  std::vector<std::unique_ptr<Plugin>> p;
  auto add = [&](const PluginType& t, const std::string& table) {
    if (auto made = t.make(k, PluginArgs{table, quiet})) p.push_back(std::move(made));
  };
  for (const auto& t : types()) {
    if (last_component(t.section) == "*") {
      for (const auto& table : k.cfg.subsections(t.section.substr(0, t.section.size() - 2)))
        add(t, table);
    } else if (t.always || k.cfg.has_section(t.section)) {
      add(t, "");
    }
  }
  return p;
}

std::vector<std::unique_ptr<Plugin>> make_required_plugins(const Case& k) {
  register_builtin_plugins();
  std::vector<std::unique_ptr<Plugin>> p;
  for (const auto& t : types())
    if (t.required)
      if (auto made = t.make(k, PluginArgs{"", false})) p.push_back(std::move(made));
  return p;
}

}  // namespace frmini::solver
