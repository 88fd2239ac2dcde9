// Pointwise kernels: physics (fluxes, Riemann solvers, BCs, gradients, RK updates) written
// ONCE as a body of C99-subset code, and rendered for every backend by render.hpp — the way
// PyFR writes Mako kernels once for all its backends.
//
// The body never addresses memory. Each argument is declared with its kind and the shape of
// the local array the body sees at one iteration point; the generated wrapper loads in/inout
// arguments into local arrays, runs the body, and stores out/inout arguments back. Where the
// values live (AoSoA panels, gather tables, plain arrays) is the wrapper's business:
//
//   field  an AoSoA panel (SoA blocks of S elements) over points x elements. A field of
//          shape {A, B} holds B values per (point, element) in each of A panels stacked
//          row-wise: value (a, b) of point i, element e is at
//            base[(a*NPTS + i)*ld + (e/S)*B*S + b*S + e%S],   ld = B*neles_padded.
//   view   a gather through an index table, for interfaces: value (a, b) of point j is at
//            base[ix[j] + a*rstride[j] + b*S]
//          (ix = offset of the point's value 0 in the arena; rstride = the owning panel's
//          NPTS*ld, only needed when A > 1), so one kernel serves every element type.
//   array  a plain SoA array over the iteration index: value (a, b) of point j is at
//            base[(a*B + b)*ld + j].
//   scalar a run-time floating-point value (time, step size, RK coefficient).
//   index  a run-time integer.
//
// Iteration spaces: `element_points` runs over elements [ebegin, eend) (a multiple of S
// apart) and the NPTS points of each; `points` runs over points [begin, end).
// Compile-time constants (NVARS, NDIMS, NPTS, gamma, ...) come as `defines`.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace frmini::kernels::pointwise {

enum class Intent { in, out, inout };
enum class ArgKind { field, view, array, scalar, index };
enum class Space { element_points, points };

struct Arg {
  std::string name;
  ArgKind kind;
  Intent intent = Intent::in;
  std::vector<int> shape;  // {B} or {A, B}; empty for scalar/index
  // Views only: the far side of an interface (ur, gradr, ucr). Interfaces are listed in the
  // near side's element order, so the near views of a chunk of points are consecutive far
  // more often than the far ones; the C rendering then loads the near views as vectors and
  // gathers only the far ones (render.hpp).
  bool far = false;
  // Fields only: the same value at every point of an element (the metric terms of an affine
  // element), so every point reads the element's first point row: one row per component is
  // read over and over from cache, where nupts rows would stream from memory.
  bool uniform = false;
  // Uniform fields: the panel's rows per component when they differ from the kernel's NPTS
  // (an element kernel at the quadrature points reading the solution points' metric panel).
  int uniform_stride = 0;
};

struct Spec {
  std::string name;
  Space space = Space::element_points;
  std::vector<Arg> args;
  std::string body;                          // runs at each iteration point
  std::string functions;                     // static helper functions/macros used by the body
  std::map<std::string, std::string> defines;  // NAME -> value (literals already formatted)
  // Whether the body may run on a whole SoA block at once, each of its fpdtype_t values a
  // vector of SOA_S lanes (render.hpp, block vectors): true when it branches on no value
  // (`?:` on values selects lane by lane, `if` cannot). Bodies holding a case's expressions
  // (ics, the boundary kernels) say false, as does a Riemann solver that branches (HLLC).
  bool block_vectors = true;
};

}  // namespace frmini::kernels::pointwise
