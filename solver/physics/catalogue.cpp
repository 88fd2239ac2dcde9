// The kernel-language files by name, and the Riemann solvers and boundary conditions they
// define: a new one is its .kern file (embedded by the build's glob, or added at run time),
// described by its own "//! " lines, which also give the case-file schema its choices and help.
#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include "base/embedded.hpp"
#include "solver/config/schema.hpp"
#include "solver/physics/physics.hpp"

namespace frmini::physics::detail {
extern const ::frmini::EmbeddedFile physics_sources[];
extern const std::size_t physics_sources_count;
}  // namespace frmini::physics::detail

namespace frmini::physics {

namespace {
const std::string kRsolvers = "euler/rsolvers/", kBcs = "bcs/", kKern = ".kern";

std::map<std::string, std::string>& sources() {
  static std::map<std::string, std::string> all = [] {
    std::map<std::string, std::string> m;
    for (std::size_t i = 0; i < detail::physics_sources_count; ++i)
      m[detail::physics_sources[i].name] = detail::physics_sources[i].text;
    return m;
  }();
  return all;
}

// The names of the files "<folder><name>.kern" directly in `folder`.
std::vector<std::string> names_in(const std::string& folder) {
  std::vector<std::string> out;
  for (const auto& [path, text] : sources()) {
    if (path.rfind(folder, 0) != 0 || path.size() <= folder.size() + kKern.size()) continue;
    std::string rest = path.substr(folder.size());
    if (rest.find('/') != std::string::npos || rest.substr(rest.size() - kKern.size()) != kKern)
      continue;
    out.push_back(rest.substr(0, rest.size() - kKern.size()));
  }
  return out;
}

// The "//! key: text" lines of a file, in order.
std::vector<std::pair<std::string, std::string>> header(const std::string& file) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(source(file));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("//! ", 0) != 0) continue;
    auto colon = line.find(':');
    if (colon == std::string::npos)
      throw std::logic_error(file + ": a '//! ' line without 'key: text': " + line);
    std::string text = line.substr(colon + 1);
    text.erase(0, text.find_first_not_of(' '));
    out.emplace_back(line.substr(4, colon - 4), text);
  }
  return out;
}

std::string help_of(const std::string& file, const std::vector<std::pair<std::string, std::string>>& h) {
  std::string help;
  for (const auto& [key, text] : h)
    if (key == "help") help += (help.empty() ? "" : " ") + text;
  if (help.empty()) throw std::logic_error(file + ": no '//! help:' line");
  return help;
}
}  // namespace

const std::string& source(const std::string& name) {
  auto it = sources().find(name);
  if (it == sources().end()) throw std::logic_error("physics: no kernel source " + name);
  return it->second;
}

std::vector<std::string> source_names() {
  std::vector<std::string> out;
  for (const auto& [name, text] : sources()) out.push_back(name);
  return out;
}

void add_source(const std::string& name, const std::string& text) { sources()[name] = text; }

std::vector<RiemannSolver> riemann_solvers() {
  std::vector<RiemannSolver> out;
  for (const auto& name : names_in(kRsolvers)) {
    const std::string file = kRsolvers + name + kKern;
    auto h = header(file);
    RiemannSolver r{name, help_of(file, h)};
    for (const auto& [key, text] : h) r.block_vectors = r.block_vectors && key != "scalar";
    out.push_back(r);
  }
  return out;
}

const RiemannSolver& riemann_solver(const std::string& name) {
  // Kept per name so that the reference outlives the call (files may be added later).
  static std::map<std::string, RiemannSolver> seen;
  for (const auto& r : riemann_solvers())
    if (r.name == name) return seen[name] = r;
  throw std::logic_error("physics: no Riemann solver " + name);
}

std::vector<BcType> bc_types() {
  std::vector<BcType> out;
  for (const auto& name : names_in(kBcs)) {
    if (name == "common") continue;  // the helpers every boundary condition includes
    const std::string file = kBcs + name + kKern;
    auto h = header(file);
    BcType t{name, help_of(file, h), {}};
    for (const auto& [key, text] : h) {
      if (key.rfind("value ", 0) != 0) continue;
      std::istringstream words(key.substr(6));
      BcValue v;
      std::string flag;
      words >> v.name >> flag;
      if (v.name.empty() || !(flag.empty() || flag == "optional"))
        throw std::logic_error(file + ": '//! value NAME [optional]: help' expected, got " + key);
      v.optional = flag == "optional";
      v.help = text;
      t.values.push_back(v);
    }
    out.push_back(t);
  }
  return out;
}

const BcType& bc_type(const std::string& name) {
  static std::map<std::string, BcType> seen;
  for (const auto& t : bc_types())
    if (t.name == name) return seen[name] = t;
  throw std::logic_error("physics: no boundary condition " + name);
}

std::vector<std::string> bc_values(const std::string& type) {
  std::vector<std::string> out;
  for (const auto& v : bc_type(type).values) out.push_back(v.name);
  return out;
}

void register_schema() {
  for (const auto& r : riemann_solvers())
    config::register_choice("solver", "riemann-solver", r.name, r.help);
  // One [bcs.*] key per value name: its help from the first type that declares it, the types
  // that take it, and what a type that says otherwise says.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> takers;
  for (const auto& t : bc_types()) {
    config::register_choice("bcs.*", "type", t.name, t.help);
    for (const auto& v : t.values) {
      if (!takers.count(v.name)) order.push_back(v.name);
      takers[v.name].emplace_back(t.name, v.help);
    }
  }
  for (const auto& name : order) {
    const auto& by = takers[name];
    std::string types, others;
    for (const auto& [type, help] : by) {
      types += (types.empty() ? "" : ", ") + type;
      if (help != by.front().second) others += "; " + type + ": " + help;
    }
    config::register_key("bcs.*", {name, config::ValueType::expression, "",
                                   by.front().second + " (" + types + ")" + others});
  }
}

}  // namespace frmini::physics
