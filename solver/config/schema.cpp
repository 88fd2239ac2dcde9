#include "solver/config/schema.hpp"

#include <algorithm>
#include <ostream>
#include <stdexcept>

#include "kernels/backends.hpp"
#include "kernels/matmul/catalogue.hpp"

namespace frmini::config {

namespace {
using T = ValueType;

std::vector<SectionSpec> core() {
  return {
      {"backend", "Where and how the case runs.",
       {{"name", T::choice, "cpu", "backend", kernels::backend_names()},
        {"matmul", T::choice, "auto", "matmul provider for every operator product",
         kernels::matmul::provider_names(), -1e308, 1e308, false,
         kernels::matmul::provider_helps()},
        {"precision", T::choice, "double", "floating-point precision of device data",
         {"single", "double"}},
        {"device", T::integer, "0", "device index (opencl, cuda)", {}, 0, 1024},
        {"platform", T::string, "", "opencl platform name substring (\"\" = first)"},
        {"threads", T::integer, "0", "cpu: OpenMP threads (0 = OpenMP's default)", {}, 0, 4096},
        {"cache-block", T::integer, "0",
         "cpu: elements per cache block of the RHS kernel chains (0 = sized from the caches, "
         "-1 = no blocking)", {}, -1, 1 << 30},
        {"flush-denormals", T::boolean, "true",
         "flush subnormal numbers to zero in the kernels (cpu: FTZ and DAZ on its threads; "
         "cuda: pointwise kernels with --ftz=true; opencl: -cl-denorms-are-zero), as PyFR's "
         "compiler flags do; x86 cores take about a hundred cycles for each operation on one"},
        {"cuda-graphs", T::boolean, "false",
         "cuda: run the launches between two host waits (a step's stages) as CUDA graphs, "
         "captured once and replayed with their changed arguments updated, instead of one host "
         "launch a kernel; the run report counts them"}}},
      {"constants", "Physical constants, and any user constant usable in expressions.",
       {{"gamma", T::real, "1.4", "ratio of specific heats", {}, 1.0, 3.0},
        {"mu", T::real, "0", "dynamic viscosity (navier-stokes)", {}, 0.0},
        {"Pr", T::real, "0.72", "Prandtl number (navier-stokes)", {}, 1e-6},
        {"cpTref", T::real, "", "Sutherland: c_p T_ref (viscosity-correction = sutherland)"},
        {"cpTs", T::real, "", "Sutherland: c_p T_s (viscosity-correction = sutherland)"}},
       true, T::real},
      {"mesh", "The mesh: a frmini mesh file, or a built-in generator.",
       {{"file", T::string, "", "mesh file (.h5 from `frmini import`) relative to the case file"},
        {"generator", T::string, "", "built-in generator name (see `frmini mesh --help`)"}}},
      {"mesh.options", "Options of the built-in generator (as `frmini mesh NAME --key value`).",
       {}, true, T::any},
      {"solver", "The equations and the scheme.",
       {{"system", T::choice, "navier-stokes", "equation system", {"euler", "navier-stokes"}},
        {"order", T::integer, "3", "polynomial order p of the solution", {}, 1, 8},
        // Choices: the Riemann solvers' kernel files (solver/physics registers them).
        {"riemann-solver", T::choice, "rusanov", "inviscid common flux", {}},
        {"ldg-beta", T::real, "0.5", "LDG beta (navier-stokes)", {}, -0.5, 0.5},
        {"ldg-tau", T::real, "0.1", "LDG tau penalty (navier-stokes)", {}, 0.0},
        {"viscosity-correction", T::choice, "none", "viscosity law", {"none", "sutherland"}},
        {"anti-alias", T::choice, "none",
         "over-integrate the nonlinear flux, as PyFR's [solver] anti-alias",
         {"none", "flux", "surf-flux", "flux,surf-flux"}, -1e308, 1e308, false,
         {"the flux at the solution points",
          "the volume flux at a quadrature rule's points ([solver.quad-deg]), its divergence "
          "projected back",
          "the common flux at a symmetric rule's points on each face ([solver.face-quad-deg]), "
          "projected onto the face's nodal basis before it is lifted",
          "both"}}}},
      {"solver.quad-deg", "Anti-aliasing: the volume quadrature rule's strength per element type "
                          "(-1 = PyFR's default: 2p+3 quad and hex, 2p+1 tet, 2p+2 tri and pyr, 2p+4 pri).",
       {{"quad", T::integer, "-1", "quadrilaterals: the rule's degree (-1: 2p+3, (p+2)^2 Gauss-Legendre points)", {}, -1, 40},
        {"hex", T::integer, "-1", "hexahedra: the rule's degree (-1: 2p+3, (p+2)^3 Gauss-Legendre points)", {}, -1, 40},
        {"tri", T::integer, "-1", "triangles: the rule's degree (-1: 2p+2)", {}, -1, 40},
        {"tet", T::integer, "-1", "tetrahedra: the rule's degree (-1: 2p+1)", {}, -1, 40},
        {"pri", T::integer, "-1", "prisms: the rule's degree (-1: 2p+4)", {}, -1, 40},
        {"pyr", T::integer, "-1", "pyramids: the rule's degree (-1: 2p+2)", {}, -1, 40}}},
      {"solver.face-quad-deg", "Surface-flux anti-aliasing: the face quadrature rule's strength per "
                               "face kind (-1 = PyFR's default: 2p+2 line and tri, 2p+3 quad). "
                               "Only symmetric rules qualify.",
       {{"line", T::integer, "-1", "edges of quadrilaterals and triangles: the rule's degree (-1: 2p+2)", {}, -1, 40},
        {"tri", T::integer, "-1", "triangular faces: the rule's degree (-1: 2p+2)", {}, -1, 40},
        {"quad", T::integer, "-1", "quadrilateral faces: the rule's degree (-1: 2p+3, (p+2)^2 Gauss-Legendre points)", {}, -1, 40}}},
      {"solver.points", "Solution point sets per element type.",
       {{"quad", T::choice, "gauss-legendre", "", {"gauss-legendre", "gauss-legendre-lobatto"}},
        {"hex", T::choice, "gauss-legendre", "", {"gauss-legendre", "gauss-legendre-lobatto"}},
        {"tri", T::choice, "williams-shunn", "", {"williams-shunn"}},
        {"tet", T::choice, "shunn-ham", "", {"shunn-ham"}},
        {"pri", T::choice, "williams-shunn~gauss-legendre", "", {"williams-shunn~gauss-legendre"}},
        {"pyr", T::choice, "gauss-legendre", "", {"gauss-legendre"}}}},
      {"time", "Time integration.",
       {{"scheme", T::choice, "rk4", "explicit Runge-Kutta scheme", {"rk4", "tvd-rk3", "rk45"}},
        {"controller", T::choice, "none", "time-step control (pi needs rk45)", {"none", "pi"}},
        {"dt", T::real, "", "time step (initial step with the pi controller)", {}, 0.0, 1e300,
         true},
        {"tstart", T::real, "0", "start time"},
        {"tend", T::real, "", "end time", {}, -1e308, 1e308, true},
        {"atol", T::real, "1e-6", "pi controller: absolute error tolerance", {}, 0.0},
        {"rtol", T::real, "1e-6", "pi controller: relative error tolerance", {}, 0.0},
        {"safety-fact", T::real, "0.9", "pi controller: safety factor", {}, 0.0, 1.0},
        {"min-fact", T::real, "0.3", "pi controller: smallest step-size factor", {}, 0.0, 1.0},
        {"max-fact", T::real, "2.5", "pi controller: largest step-size factor", {}, 1.0},
        {"dt-max", T::real, "1e300", "pi controller: largest time step", {}, 0.0}}},
      {"ics", "Initial condition: primitive variables as expressions of x, y, z.",
       {{"rho", T::expression, "", "density", {}, -1e308, 1e308, true},
        {"u", T::expression, "", "x velocity", {}, -1e308, 1e308, true},
        {"v", T::expression, "", "y velocity", {}, -1e308, 1e308, true},
        {"w", T::expression, "0", "z velocity (3D)"},
        {"p", T::expression, "", "pressure", {}, -1e308, 1e308, true}}},
      // Types and the values they take: the boundary conditions' kernel files (solver/physics
      // registers them).
      {"bcs.*", "A boundary condition; the table name is a boundary name of the mesh.",
       {{"type", T::choice, "", "boundary condition", {}, -1e308, 1e308, true}}},
  };
}

bool path_matches(const std::string& pattern, const std::string& path) {
  // Component-wise match where a "*" component matches any single component.
  size_t i = 0, j = 0;
  while (i <= pattern.size() && j <= path.size()) {
    size_t pe = pattern.find('.', i), qe = path.find('.', j);
    if (pe == std::string::npos) pe = pattern.size();
    if (qe == std::string::npos) qe = path.size();
    std::string pc = pattern.substr(i, pe - i), qc = path.substr(j, qe - j);
    if (pc != "*" && pc != qc) return false;
    bool pend = pe == pattern.size(), qend = qe == path.size();
    if (pend || qend) return pend && qend;
    i = pe + 1;
    j = qe + 1;
  }
  return false;
}

std::deque<SectionSpec>& schema() {
  static std::deque<SectionSpec> s = [] {
    auto c = core();
    return std::deque<SectionSpec>(c.begin(), c.end());
  }();
  return s;
}

SectionSpec& section_of(const std::string& path) {
  for (auto& s : schema())
    if (s.path == path) return s;
  throw std::logic_error("schema: no section [" + path + "] to register into");
}
}  // namespace

const std::deque<SectionSpec>& case_schema() { return schema(); }

void register_section(SectionSpec s) {
  for (auto& have : schema())
    if (have.path == s.path) {
      have = std::move(s);
      return;
    }
  schema().push_back(std::move(s));
}

void register_choice(const std::string& section, const std::string& key, const std::string& choice,
                     const std::string& help) {
  for (auto& k : section_of(section).keys)
    if (k.name == key) {
      auto at = std::find(k.choices.begin(), k.choices.end(), choice) - k.choices.begin();
      if (std::size_t(at) == k.choices.size()) k.choices.push_back(choice);
      k.choice_help.resize(k.choices.size());
      if (!help.empty()) k.choice_help[at] = help;
      return;
    }
  throw std::logic_error("schema: no key [" + section + "] " + key + " to register into");
}

void register_key(const std::string& section, KeySpec k) {
  auto& keys = section_of(section).keys;
  for (auto& have : keys)
    if (have.name == k.name) {
      have = std::move(k);
      return;
    }
  keys.push_back(std::move(k));
}

const SectionSpec* find_section(const std::string& path) {
  for (const auto& s : case_schema())
    if (path_matches(s.path, path)) return &s;
  return nullptr;
}

const KeySpec* find_key(const SectionSpec& s, const std::string& key) {
  for (const auto& k : s.keys)
    if (k.name == key) return &k;
  return nullptr;
}

const char* type_name(ValueType t) {
  switch (t) {
    case ValueType::string: return "string";
    case ValueType::choice: return "string";
    case ValueType::integer: return "integer";
    case ValueType::real: return "number";
    case ValueType::boolean: return "boolean";
    case ValueType::expression: return "expression";
    case ValueType::any: return "value";
  }
  return "value";
}

void print_schema(std::ostream& o) {
  o << "Case files are TOML. Sections, keys, types and defaults:\n";
  for (const auto& s : case_schema()) {
    o << "\n[" << s.path << "]  " << s.help << "\n";
    for (const auto& k : s.keys) {
      std::string lhs = "  " + k.name + " (" + type_name(k.type) + ")";
      o << lhs;
      for (size_t i = lhs.size(); i < 34; ++i) o << ' ';
      o << k.help;
      const bool described = std::any_of(k.choice_help.begin(), k.choice_help.end(),
                                         [](const std::string& h) { return !h.empty(); });
      if (!k.choices.empty() && !described) {
        o << (k.help.empty() ? "" : "; ") << "one of:";
        for (const auto& c : k.choices) o << " " << c;
      }
      if (k.required) o << " [required]";
      else if (!k.def.empty()) o << " [default: " << k.def << "]";
      o << (described ? "; one of:\n" : "\n");
      if (described)
        for (std::size_t i = 0; i < k.choices.size(); ++i) {
          std::string lhs = "      " + k.choices[i];
          o << lhs;
          for (size_t j = lhs.size(); j < 34; ++j) o << ' ';
          o << (i < k.choice_help.size() ? k.choice_help[i] : "") << "\n";
        }
    }
    if (s.open) o << "  <any key> (" << type_name(s.open_type) << ")\n";
  }
  o << "\nExpressions may use x, y, z, t, pi, any [constants] key, + - * / ^ (or **), and\n"
       "sin cos tan asin acos atan atan2 sinh cosh tanh exp log log10 sqrt abs floor ceil\n"
       "pow min max.\n";
}

}  // namespace frmini::config
