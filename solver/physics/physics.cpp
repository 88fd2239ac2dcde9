#include "solver/physics/physics.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "base/literal.hpp"

namespace frmini::physics {

namespace {
using kernels::pointwise::Arg;
using kernels::pointwise::ArgKind;
using kernels::pointwise::Intent;
using kernels::pointwise::Space;
using kernels::pointwise::Spec;

std::string lit(double v) { return "(" + literal(v) + ")"; }

// The helper functions of the fluxes at a point: the inviscid flux and, for navier-stokes,
// the viscous one; interface kernels add the Riemann solver (which element kernels, run on
// block vectors, must not see: HLLC branches on values).
std::string flux_functions(const Options& o, bool riemann = true) {
  std::string f = source("euler/flux.kern") + "\n";
  if (riemann) f += source("euler/rsolvers/" + o.riemann + ".kern") + "\n";
  if (o.viscous()) f += source("navier_stokes/flux.kern") + "\n";
  return f;
}

// Each value of the case's [bcs.*] table as the macro BC_<NAME> its kernel reads.
std::string bc_defines(const std::string& type, const std::map<std::string, std::string>& v) {
  std::string out;
  for (const auto& name : bc_values(type)) {
    auto it = v.find(name);
    if (it == v.end()) throw std::logic_error("bc " + type + ": value '" + name + "' missing");
    std::string macro = "BC_" + name;
    for (auto& ch : macro) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    out += "#define " + macro + " (" + it->second + ")\n";
  }
  return out;
}
}  // namespace

int ldg_one_sided(const Options& o) {
  if (!o.viscous()) return 0;
  return o.ldg_beta == 0.5 ? 1 : o.ldg_beta == -0.5 ? -1 : 0;
}

std::map<std::string, std::string> defines(const Options& o) {
  std::map<std::string, std::string> d = {
      {"NDIMS", std::to_string(o.ndims)},
      {"NVARS", std::to_string(o.nvars())},
      {"GAMMA", lit(o.gamma)},
      {"VISCOUS", o.viscous() ? "1" : "0"},
  };
  // 2/(gamma - 1) when it is a whole number (gamma = 1.4: 5; 5/3: 3): the far field then
  // raises to the power 1/(gamma - 1) by products and one square root, which vectorise, where
  // pow has no vector form without -ffast-math and left the whole kernel scalar.
  const double halves = 2.0 / (o.gamma - 1.0);
  if (halves >= 1 && halves <= 32 && std::abs(halves - std::round(halves)) < 1e-9)
    d["INV_GM1_HALVES"] = std::to_string(std::lround(halves));
  if (o.viscous()) {
    d["MU"] = lit(o.mu);
    d["PR"] = lit(o.pr);
    d["LDG_BETA"] = lit(o.ldg_beta);
    d["LDG_TAU"] = lit(o.ldg_tau);
    d["LDG_ONE_SIDED"] = std::to_string(ldg_one_sided(o));
    d["VISC_SUTHERLAND"] = o.sutherland ? "1" : "0";
    if (o.sutherland) {
      d["CPTREF"] = lit(o.cptref);
      d["CPTS"] = lit(o.cpts);
    }
  }
  return d;
}

Spec tflux(const Options& o, int npts, bool affine, int metric_rows) {
  const int nd = o.ndims, nv = o.nvars();
  Spec s;
  s.name = "tflux";
  s.space = Space::element_points;
  s.args = {{"u", ArgKind::field, Intent::in, {nv}},
            {"smats", ArgKind::field, Intent::in, {nd, nd}, false, affine, affine ? metric_rows : 0}};
  // Navier-Stokes: f holds the gradient on entry (one panel for both, as in PyFR).
  s.args.push_back({"f", ArgKind::field, o.viscous() ? Intent::inout : Intent::out, {nd, nv}});
  s.functions = flux_functions(o, false);
  s.body = source("kernels/tflux.kern");
  s.defines = defines(o);
  s.defines["NPTS"] = std::to_string(npts);
  return s;
}

Spec ics(const Options& o, int npts, const std::map<std::string, std::string>& values) {
  Spec s;
  s.name = "ics";
  s.space = Space::element_points;
  s.args = {{"ploc", ArgKind::field, Intent::in, {o.ndims}},
            {"u", ArgKind::field, Intent::out, {o.nvars()}}};
  for (const char* v : {"rho", "u", "v", "w", "p"}) {
    auto it = values.find(v);
    if (it == values.end()) throw std::logic_error(std::string("ics: value '") + v + "' missing");
    std::string m = v;
    for (auto& ch : m) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    s.functions += "#define IC_" + m + " (" + it->second + ")\n";
  }
  s.body = source("kernels/ics.kern");
  s.block_vectors = false;  // the case's expressions, as the user wrote them
  s.defines = defines(o);
  s.defines["NPTS"] = std::to_string(npts);
  return s;
}

Spec gradcoru(const Options& o, int npts, bool affine) {
  const int nd = o.ndims, nv = o.nvars();
  Spec s;
  s.name = "gradcoru";
  s.space = Space::element_points;
  s.args = {{"grad", ArgKind::field, Intent::inout, {nd, nv}},
            {"smats", ArgKind::field, Intent::in, {nd, nd}, false, affine},
            {"rcpdjac", ArgKind::field, Intent::in, {1}, false, affine}};
  s.body = source("kernels/gradcoru.kern");
  s.defines = defines(o);
  s.defines["NPTS"] = std::to_string(npts);
  return s;
}

Spec gradcoru_tflux(const Options& o, int npts, bool affine) {
  if (!o.viscous()) throw std::logic_error("gradcoru_tflux: Navier-Stokes only");
  const int nd = o.ndims, nv = o.nvars();
  Spec s;
  s.name = "gradcoru_tflux";
  s.space = Space::element_points;
  s.args = {{"u", ArgKind::field, Intent::in, {nv}},
            {"smats", ArgKind::field, Intent::in, {nd, nd}, false, affine},
            {"rcpdjac", ArgKind::field, Intent::in, {1}, false, affine},
            {"grad", ArgKind::field, Intent::inout, {nd, nv}},
            {"f", ArgKind::field, Intent::out, {nd, nv}}};
  s.functions = flux_functions(o, false);
  // The two bodies one after the other: tflux's f holds the physical gradient on entry.
  s.body = "{\n" + source("kernels/gradcoru.kern") + "\n}\nfor (int i = 0; i < NDIMS; i++)\n" +
           "    for (int k = 0; k < NVARS; k++) f[i][k] = grad[i][k];\n{\n" + source("kernels/tflux.kern") +
           "\n}\n";
  s.defines = defines(o);
  s.defines["NPTS"] = std::to_string(npts);
  return s;
}

Spec negdivconf(const Options& o, int npts, bool affine) {
  Spec s;
  s.name = "negdivconf";
  s.space = Space::element_points;
  s.args = {{"tdivf", ArgKind::field, Intent::inout, {o.nvars()}},
            {"rcpdjac", ArgKind::field, Intent::in, {1}, false, affine}};
  s.body = source("kernels/negdivconf.kern");
  s.defines = defines(o);
  s.defines["NPTS"] = std::to_string(npts);
  return s;
}

Spec tavg_sample(const Options& o, int npts, const std::vector<std::pair<int, int>>& pairs) {
  const int nv = o.nvars();
  Spec s;
  s.name = pairs.empty() ? "tavg" : "tavg_moments";
  s.space = Space::element_points;
  s.args = {{"u", ArgKind::field, Intent::in, {nv}},
            {"sum", ArgKind::field, Intent::inout, {nv}},
            {"prev", ArgKind::field, Intent::inout, {nv}}};
  if (!pairs.empty()) {
    s.args.push_back({"sum2", ArgKind::field, Intent::inout, {int(pairs.size())}});
    s.functions = "#define TAVG_PAIRS";
    for (std::size_t k = 0; k < pairs.size(); ++k)
      s.functions += " TAVG_PAIR(" + std::to_string(k) + ", " + std::to_string(pairs[k].first) +
                     ", " + std::to_string(pairs[k].second) + ")";
    s.functions += "\n";
  }
  s.args.push_back({"dt", ArgKind::scalar, Intent::in, {}});
  s.body = source("kernels/tavg.kern");
  s.defines = defines(o);
  s.defines["NPTS"] = std::to_string(npts);
  return s;
}

Spec wall_force(const Options& o, int nupts) {
  const int nd = o.ndims, nv = o.nvars();
  Spec s;
  s.name = "wall_force";
  s.space = Space::points;
  s.args = {{"ue", ArgKind::view, Intent::in, {nupts, nv}}, {"m0", ArgKind::array, Intent::in, {nupts}}};
  if (o.viscous()) {
    s.args.push_back({"gop", ArgKind::array, Intent::in, {nd, nupts}});
    s.functions = source("navier_stokes/flux.kern") + "\n";
  }
  s.args.push_back({"wn", ArgKind::array, Intent::in, {nd}});
  s.args.push_back({"fo", ArgKind::array, Intent::out, {2 * nd}});
  s.body = source("kernels/forces.kern");
  s.defines = defines(o);
  s.defines["NUPTS"] = std::to_string(nupts);
  return s;
}

Spec intcflux(const Options& o) {
  const int nd = o.ndims, nv = o.nvars();
  Spec s;
  s.name = "intcflux";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::view, Intent::inout, {nv}}, {"ur", ArgKind::view, Intent::inout, {nv}, true}};
  if (o.viscous()) {
    if (ldg_one_sided(o) >= 0) s.args.push_back({"gradl", ArgKind::view, Intent::in, {nd, nv}});
    if (ldg_one_sided(o) <= 0) s.args.push_back({"gradr", ArgKind::view, Intent::in, {nd, nv}, true});
  }
  s.args.push_back({"nrm", ArgKind::array, Intent::in, {nd}});
  s.args.push_back({"magn", ArgKind::array, Intent::in, {1}});
  s.functions = flux_functions(o);
  s.body = source("kernels/intcflux.kern");
  s.defines = defines(o);
  // A solver that branches on values (HLLC's regions) runs one lane a work-item.
  s.block_vectors = riemann_solver(o.riemann).block_vectors;
  return s;
}

Spec intconu(const Options& o) {
  const int nv = o.nvars();
  Spec s;
  s.name = "intconu";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::view, Intent::in, {nv}}, {"ur", ArgKind::view, Intent::in, {nv}, true}};
  if (ldg_one_sided(o) >= 0) s.args.push_back({"ucl", ArgKind::view, Intent::out, {nv}});
  if (ldg_one_sided(o) <= 0) s.args.push_back({"ucr", ArgKind::view, Intent::out, {nv}, true});
  s.body = source("kernels/intconu.kern");
  s.defines = defines(o);
  return s;
}

Spec bccflux(const Options& o, const std::string& type,
             const std::map<std::string, std::string>& values) {
  const int nd = o.ndims, nv = o.nvars();
  Spec s;
  s.name = "bccflux";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::view, Intent::inout, {nv}}};
  if (o.viscous()) s.args.push_back({"gradl", ArgKind::view, Intent::in, {nd, nv}});
  s.args.push_back({"nrm", ArgKind::array, Intent::in, {nd}});
  s.args.push_back({"magn", ArgKind::array, Intent::in, {1}});
  s.args.push_back({"ploc", ArgKind::array, Intent::in, {nd}});
  s.args.push_back({"t", ArgKind::scalar, Intent::in, {}});
  s.functions = bc_defines(type, values) + source("bcs/common.kern") + "\n" +
                source("bcs/" + type + ".kern") + "\n" + flux_functions(o);
  s.body = source("kernels/bccflux.kern");
  s.defines = defines(o);
  s.block_vectors = false;  // the case's expressions, and BCs that branch on the flow
  return s;
}

Spec bcconu(const Options& o, const std::string& type,
            const std::map<std::string, std::string>& values) {
  const int nd = o.ndims, nv = o.nvars();
  Spec s;
  s.name = "bcconu";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::view, Intent::in, {nv}},
            {"ucl", ArgKind::view, Intent::out, {nv}},
            {"nrm", ArgKind::array, Intent::in, {nd}},
            {"ploc", ArgKind::array, Intent::in, {nd}},
            {"t", ArgKind::scalar, Intent::in, {}}};
  s.functions = bc_defines(type, values) + source("bcs/common.kern") + "\n" +
                source("bcs/" + type + ".kern");
  s.body = source("kernels/bcconu.kern");
  s.defines = defines(o);
  s.block_vectors = false;  // as bccflux
  return s;
}

}  // namespace frmini::physics
