#include "solver/config/schema.hpp"

#include <ostream>

namespace frmini::config {

namespace {
using T = ValueType;

std::vector<SectionSpec> build() {
  const std::vector<std::string> bc_types = {
      "char-riem-inv",  "sup-in-fa",       "sup-out-fn",        "sub-in-frv",
      "sub-out-fp",     "slp-adia-wall",   "no-slp-adia-wall",  "no-slp-isot-wall"};
  return {
      {"backend", "Where and how the case runs.",
       {{"name", T::choice, "cpu", "backend", {"cpu", "opencl", "cuda"}},
        {"matmul", T::choice, "auto",
         "matmul provider for every operator product (auto = time all, keep the fastest; "
         "cuda: blas = cuBLASLt with its algorithms searched, cublas = plain cuBLAS gemm)",
         {"generated", "blas", "cublas", "xsmm", "reference", "auto"}},
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
         "compiler flags do; x86 cores take about a hundred cycles for each operation on one"}}},
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
        {"riemann-solver", T::choice, "rusanov", "inviscid common flux",
         {"rusanov", "hllc", "roe"}},
        {"ldg-beta", T::real, "0.5", "LDG beta (navier-stokes)", {}, -0.5, 0.5},
        {"ldg-tau", T::real, "0.1", "LDG tau penalty (navier-stokes)", {}, 0.0},
        {"viscosity-correction", T::choice, "none", "viscosity law", {"none", "sutherland"}},
        {"anti-alias", T::choice, "none",
         "flux = over-integrate the volume flux: evaluate it at a quadrature rule's points "
         "([solver.quad-deg]) and project its divergence back, as PyFR's anti-alias = flux",
         {"none", "flux"}}}},
      {"solver.quad-deg", "Anti-aliasing: the volume quadrature rule's strength per element type "
                          "(-1 = PyFR's default: 2p+3 quad and hex, 2p+1 tet, 2p+2 tri and pyr, 2p+4 pri).",
       {{"quad", T::integer, "-1", "quadrilaterals: the rule's degree (-1: 2p+3, (p+2)^2 Gauss-Legendre points)", {}, -1, 40},
        {"hex", T::integer, "-1", "hexahedra: the rule's degree (-1: 2p+3, (p+2)^3 Gauss-Legendre points)", {}, -1, 40},
        {"tri", T::integer, "-1", "triangles: the rule's degree (-1: 2p+2)", {}, -1, 40},
        {"tet", T::integer, "-1", "tetrahedra: the rule's degree (-1: 2p+1)", {}, -1, 40},
        {"pri", T::integer, "-1", "prisms: the rule's degree (-1: 2p+4)", {}, -1, 40},
        {"pyr", T::integer, "-1", "pyramids: the rule's degree (-1: 2p+2)", {}, -1, 40}}},
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
      {"bcs.*", "A boundary condition; the table name is a boundary name of the mesh.",
       {{"type", T::choice, "", "boundary condition", bc_types, -1e308, 1e308, true},
        {"rho", T::expression, "", "density (char-riem-inv, sup-in-fa, sub-in-frv)"},
        {"u", T::expression, "", "x velocity (char-riem-inv, sup-in-fa, sub-in-frv; wall speed "
                                 "for no-slp-isot-wall)"},
        {"v", T::expression, "", "y velocity (as u)"},
        {"w", T::expression, "", "z velocity (as u)"},
        {"p", T::expression, "", "pressure (char-riem-inv, sup-in-fa, sub-out-fp)"},
        {"cpTw", T::expression, "", "wall c_p T (no-slp-isot-wall)"}}},
      {"plugins.writer", "Writes the solution to HDF5 every dt-out (temporary name + rename).",
       {{"dt-out", T::real, "", "output interval", {}, 0.0, 1e300, true},
        {"basedir", T::string, ".", "output folder, relative to the working directory"},
        {"basename", T::string, "soln-{t}", "file name; {t} = time, {n} = output number"}}},
      {"plugins.nancheck", "The blow-up check, on in every run: at the first NaN or infinity "
                           "the run stops with exit status 3, keeping the last good file.",
       {{"nsteps", T::integer, "20", "check every nsteps steps (one reduction on the device)", {}, 1, 1e9}}},
      {"plugins.progress", "A progress bar with ETA and step rate on a terminal; when stderr is "
                           "not a terminal (a batch job's log), a status line on stdout every "
                           "log-interval seconds instead (both off with --quiet).",
       {{"enabled", T::boolean, "true", "show the bar or the status lines"},
        {"log-interval", T::real, "60", "seconds between status lines (step, t, dt, steps/s, "
                                        "wall time, ETA, latest Cd/Cl) when stderr is not a "
                                        "terminal; 0 = none", {}, 0.0}}},
      {"plugins.timing", "Per-step wall times to CSV (written as the run goes, continued by a "
                         "restart) and the end-of-run report.",
       {{"file", T::string, "timings.csv", "CSV file, relative to the working directory"},
        {"flushsteps", T::integer, "500", "write the rows held in memory to the file at least "
                                          "every flushsteps steps (also at every solution file, "
                                          "on SIGINT/SIGTERM and at the end)", {}, 1, 1e9},
      }},
      {"plugins.integrals", "Conserved totals, residual norms and the integrals of "
                            "[plugins.integrals.expressions] to CSV (written as the run goes, "
                            "continued by a restart).",
       {{"nsteps", T::integer, "10", "every nsteps steps", {}, 1, 1e9},
        {"file", T::string, "integrals.csv", "CSV file, relative to the working directory"},
        {"gradients", T::choice, "uncorrected",
         "the grad_<var>_<axis> of the expressions: uncorrected = of each element's own polynomial; "
         "corrected = the LDG-corrected gradient of the viscous flux, as PyFR's integrate plugin "
         "(navier-stokes)", {"uncorrected", "corrected"}},
        {"region", T::string, "", "integrate the expressions over this box only: "
                                  "\"(x0, y0[, z0]), (x1, y1[, z1])\" (default: the domain)"},
        {"flushsteps", T::integer, "500", "write the rows held in memory to the file at least "
                                          "every flushsteps steps (also at every solution file, "
                                          "on SIGINT/SIGTERM and at the end)", {}, 1, 1e9},
      }},
      {"plugins.integrals.expressions",
       "name = expression, integrated over the domain into column int_<name>: expressions of x, "
       "y, z, t, rho, u, v, w, p and grad_<var>_<x|y|z>, e.g. ke = \"0.5*rho*(u*u + v*v + w*w)\"",
       {}, true, T::expression},
      {"plugins.sampler", "The solution at fixed points every nsteps, one CSV row per point, "
                          "written as the run goes and continued by a restart (PyFR's "
                          "sampler); each point located once at start, a point outside the "
                          "mesh an error.",
       {{"nsteps", T::integer, "10", "every nsteps steps (and at the start)", {}, 1, 1e9},
        {"points", T::string, "", "points as tuples, e.g. \"(1.0, 0.5), (2.0, 0.5)\" "
                                  "((x, y, z) in 3D)"},
        {"line-from", T::string, "", "instead of points: a line of line-npts equispaced points "
                                     "from this point, e.g. \"(0.5, 0)\""},
        {"line-to", T::string, "", "... to this one"},
        {"line-npts", T::integer, "20", "points on the line, ends included", {}, 2, 1000000},
        {"format", T::choice, "primitive", "variables written: rho, u, v[, w], p or the "
                                           "conserved rho, rhou, rhov[, rhow], E",
         {"primitive", "conservative"}},
        {"gradients", T::boolean, "false", "also the physical gradient of each variable "
                                            "(grad_<var>_<x|y|z>)"},
        {"file", T::string, "sampler.csv", "CSV file, relative to the working directory"},
        {"flushsteps", T::integer, "500", "write the rows held in memory to the file at least "
                                          "every flushsteps steps (also at every solution file, "
                                          "on SIGINT/SIGTERM and at the end)", {}, 1, 1e9}}},
      {"plugins.tavg", "Running time-weighted means of rho, u, v[, w], p from tstart, written "
                       "every dt-out as solution files (variables = primitive-mean).",
       {{"nsteps", T::integer, "1", "sample every nsteps steps (and at every output)", {}, 1, 1e9},
        {"tstart", T::real, "0", "start of the averaging window (start after the transient)"},
        {"dt-out", T::real, "", "output interval", {}, 0.0, 1e300, true},
        {"basedir", T::string, ".", "output folder, relative to the working directory"},
        {"basename", T::string, "tavg-{t}", "file name; {t} = time, {n} = output number"},
        {"moments", T::boolean, "false", "also the means of uu, vv, ww, uv, uw, vw and pp (2D: uu, "
         "vv, uv, pp), for Reynolds stresses <u'v'> = <uv> - <u><v> and rms pressure; doubles the "
         "plugin's memory"}}},
      {"plugins.forces.*", "Pressure and viscous force on a boundary (table name = boundary), "
                           "Cd, Cl (Cz) = F / (q S) along x, y (z), and at the end mean Cd, rms Cl "
                           "and the Strouhal number in the report and <file>-summary.csv.",
       {{"nsteps", T::integer, "10", "every nsteps steps", {}, 1, 1e9},
        {"file", T::string, "", "CSV file (default forces-<name>.csv), written as the run goes "
                                "and continued by a restart"},
        {"flushsteps", T::integer, "500", "write the rows held in memory to the file at least "
                                          "every flushsteps steps (also at every solution file, "
                                          "on SIGINT/SIGTERM and at the end)", {}, 1, 1e9},
        {"ref-density", T::real, "", "rho for q (default: [constants] rhoinf, else a constant "
                                     "[ics] rho, else 1)", {}, 0.0},
        {"ref-velocity", T::real, "", "U for q and St (default: [constants] Uinf, else |[ics] "
                                      "velocity| if constant, else 1)", {}, 0.0},
        {"ref-pressure", T::real, "", "dynamic pressure q (default rho U^2 / 2)", {}, 0.0},
        {"ref-area", T::real, "", "reference area S (default the boundary's frontal area across "
                                  "x: D x span in 3D, D in 2D)", {}, 0.0},
        {"ref-length", T::real, "", "D for St = f D / U (default frontal area / span)", {}, 0.0},
        {"stats-tstart", T::real, "", "statistics from this time (default: after stats-discard)"},
        {"stats-discard", T::real, "0.5", "fraction of the history discarded as transient", {},
         0.0, 0.99}}},
      {"plugins.export", "VTK files and pictures every dt-out, as frmini export makes them "
                         "(docs/export.md), with .pvd collections kept up to date.",
       {{"dt-out", T::real, "", "output interval", {}, 0.0, 1e300, true},
        {"basedir", T::string, ".", "output folder, relative to the working directory"},
        {"basename", T::string, "export-{n}", "file names; {t} = time, {n} = output number"},
        {"volume", T::boolean, "true", "write the volume (<basename>.vtu)"},
        {"order", T::integer, "0", "Lagrange cell order (0: the solution's)", {}, 0, 12},
        {"divisor", T::integer, "0", "linear sub-cells per edge instead (0: Lagrange cells)", {}, 0, 64},
        {"fields", T::string, "", "point arrays of the volume, comma-separated (default all)"},
        {"boundary", T::string, "", "also this boundary with cp, cf (<basename>-<name>.vtp)"},
        {"isosurfaces", T::string, "", "isosurfaces, comma-separated FIELD=VALUE "
                                       "(<basename>-iso.vtp), e.g. \"qcrit=0.5, rho=0.99\""},
        {"color-by", T::string, "", "field coloured onto isosurfaces and pictures"},
        {"png", T::boolean, "false", "a picture (<basename>.png): 3D isosurfaces with the "
                                     "walls; 2D a colour map (vorticity by default)"}}},
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
}  // namespace

const std::vector<SectionSpec>& case_schema() {
  static const std::vector<SectionSpec> s = build();
  return s;
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
      if (!k.choices.empty()) {
        o << (k.help.empty() ? "" : "; ") << "one of:";
        for (const auto& c : k.choices) o << " " << c;
      }
      if (k.required) o << " [required]";
      else if (!k.def.empty()) o << " [default: " << k.def << "]";
      o << "\n";
    }
    if (s.open) o << "  <any key> (" << type_name(s.open_type) << ")\n";
  }
  o << "\nExpressions may use x, y, z, t, pi, any [constants] key, + - * / ^ (or **), and\n"
       "sin cos tan asin acos atan atan2 sinh cosh tanh exp log log10 sqrt abs floor ceil\n"
       "pow min max.\n";
}

}  // namespace frmini::config
