// The equation systems as pointwise kernel specs. The physics itself lives in the
// kernel-language files of this folder (README.md); this is the host side that picks the
// pieces a case needs (system, Riemann solver, boundary conditions), sets their compile-time
// constants and declares each kernel's arguments. Every backend renders the same specs.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kernels/pointwise/spec.hpp"

namespace frmini::physics {

struct Options {
  std::string system = "euler";  // "euler" | "navier-stokes"
  int ndims = 2;
  std::string riemann = "rusanov";  // "rusanov" | "hllc" | "roe"
  double gamma = 1.4;
  double mu = 0.0, pr = 0.72;
  bool sutherland = false;
  double cptref = 0.0, cpts = 0.0;
  double ldg_beta = 0.5, ldg_tau = 0.1;

  bool viscous() const { return system == "navier-stokes"; }
  int nvars() const { return ndims + 2; }
};

// The kernel-language text of an embedded file ("euler/flux.kern"); throws std::logic_error
// for a name that does not exist (a programming error).
const std::string& source(const std::string& name);
std::vector<std::string> source_names();
// A kernel-language file beside the embedded ones, under the same kind of name (a Riemann
// solver "euler/rsolvers/<name>.kern", a boundary condition "bcs/<type>.kern"): what a program
// built on frmini, or a test, adds at run time. Replaces a file of the same name; call
// register_schema() again so that case files may name it.
void add_source(const std::string& name, const std::string& text);

// The Riemann solvers and boundary conditions are their kernel files: every
// euler/rsolvers/<name>.kern is a Riemann solver and every bcs/<type>.kern but common.kern a
// boundary condition, described by the file's "//! " lines (README.md):
//   //! help: what it is, for --help-config
//   //! scalar: why (a Riemann solver that branches on values: one lane a work-item)
//   //! value NAME [optional]: what the case's [bcs.*] NAME sets (a boundary condition's inputs,
//                                 the macro BC_<NAME> in its kernel)
struct RiemannSolver {
  std::string name, help;
  bool block_vectors = true;
};
struct BcValue {
  std::string name, help;
  bool optional = false;  // 0 when the case leaves it out (besides w in 2D, always optional)
};
struct BcType {
  std::string name, help;
  std::vector<BcValue> values;
};
std::vector<RiemannSolver> riemann_solvers();
const RiemannSolver& riemann_solver(const std::string& name);  // std::logic_error if unknown
std::vector<BcType> bc_types();
const BcType& bc_type(const std::string& name);  // std::logic_error if unknown
std::vector<std::string> bc_values(const std::string& type);
// Adds the names, values and help of the kernel files to the case-file schema ([solver]
// riemann-solver, [bcs.*] type and its value keys). Reading a case calls it; again after
// add_source.
void register_schema();

// Element kernels (element_points over npts solution points).
// affine: the group's metric terms are the same at every point of an element (Arg::uniform).
// tflux at other points than the solution points (anti-aliasing's quadrature points) of an
// affine group reads the solution points' metric panel: `metric_rows` its rows per component.
kernels::pointwise::Spec tflux(const Options& o, int npts, bool affine = false, int metric_rows = 0);
kernels::pointwise::Spec gradcoru(const Options& o, int npts, bool affine = false);
kernels::pointwise::Spec negdivconf(const Options& o, int npts, bool affine = false);
// Navier-Stokes: gradcoru then tflux at each point, the flux into its own field `f` (the
// physical gradient stays in `grad` for the flux points), so the metric terms and u are read
// once.
kernels::pointwise::Spec gradcoru_tflux(const Options& o, int npts, bool affine = false);
// The initial condition: `values` maps rho, u, v, w, p to C expressions of x, y, z.
kernels::pointwise::Spec ics(const Options& o, int npts,
                             const std::map<std::string, std::string>& values);

// One sample of the time average (kernels/tavg.kern): the primitive variables of `u` added
// to the running sums `sum` (trapezoid) and, per pair of primitive variables in `pairs`, to
// `sum2` (the integral of the product of the linear pieces), over the scalar `dt` since the
// last sample `prev`, which it then replaces. Without pairs the spec has no `sum2`.
kernels::pointwise::Spec tavg_sample(const Options& o, int npts,
                                     const std::vector<std::pair<int, int>>& pairs);

// The force at a wall's flux points (kernels/forces.kern), a `points` kernel over the wall
// points of one element group with `nupts` solution points: per point the element's solution
// (a view of nupts x nvars values), its M0 row, for Navier-Stokes its rows of the physical
// gradient operator, and its weighted normal; out, the pressure and viscous force parts.
kernels::pointwise::Spec wall_force(const Options& o, int nupts);

// LDG at beta = +1/2 (1) or -1/2 (-1) takes the common solution from one side and the viscous
// flux from the other, so the interface kernels read one side's gradients only, and the
// common-solution arrays hold the jump u_c - u_f, zero on the other side (the gradients are
// M4 u + M6 jump instead of M460 u + M6 u_c); 0 otherwise.
int ldg_one_sided(const Options& o);

// Interface kernels (points over interface flux points). Their view arguments follow
// ldg_one_sided: intcflux takes gradl only when it is >= 0 and gradr only when <= 0; intconu
// takes ul, ur, then ucl when it is >= 0 and ucr when <= 0.
kernels::pointwise::Spec intcflux(const Options& o);
kernels::pointwise::Spec intconu(const Options& o);
// `values` maps each of bc_values(type) to a C expression in x, y, z, t (rendered from the
// case file); missing values are a programming error, checked here.
kernels::pointwise::Spec bccflux(const Options& o, const std::string& type,
                                 const std::map<std::string, std::string>& values);
kernels::pointwise::Spec bcconu(const Options& o, const std::string& type,
                                const std::map<std::string, std::string>& values);

// The compile-time constants of a system (NDIMS, NVARS, GAMMA, ...), as kernel defines.
std::map<std::string, std::string> defines(const Options& o);

}  // namespace frmini::physics
