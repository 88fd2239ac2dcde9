// The offline sampler (frmini sample): a solution or time-average file evaluated at physical
// points after a run, optionally averaged over a periodic direction. Each point is located in
// the mesh (curved elements included: solver/system/locate.hpp) and evaluated with its
// element's own polynomial and that polynomial's physical gradient, so a field the elements
// represent exactly is sampled exactly. No VTK needed.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "solver/export/export.hpp"
#include "solver/system/locate.hpp"

namespace frmini::solver::exporter {

struct ProbeOptions {
  std::vector<std::array<double, 3>> points;  // the first mesh.ndims components used
  // Average along axis 0, 1 or 2 (-1: none): each point becomes `average_n` copies at the
  // midpoints of equal slices of the mesh's extent along that axis (the composite midpoint
  // rule over a periodic span), and its row is their mean.
  int average_axis = -1;
  int average_n = 0;
  bool gradients = false;  // also d(var)/d(x_c) for every primitive variable
};

// One row per point: the coordinates (the averaged axis left out), the primitive variables
// rho, u, v[, w], p (converted from a conserved solution; a time-average file already holds
// them) and, with gradients, grad_<var>_<axis>.
struct ProbeTable {
  double t = 0;  // the file's time
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

// The points of `o` (with their copies along the averaged axis) located in the mesh: the
// costly part of sampling, done once for every file of one mesh. Throws UserError naming
// `where` and the point when a point lies in no element.
struct ProbePoints {
  std::vector<Location> loc;  // point p's copy k at p * copies + k
  int copies = 1;
};
ProbePoints locate_probe(const SolutionContext& ctx, const ProbeOptions& o, const std::string& where);

// Throws UserError naming the solution file when it does not fit the mesh.
ProbeTable probe(const SolutionContext& ctx, const SolutionFile& soln, const ProbeOptions& o,
                 const ProbePoints& at);
ProbeTable probe(const SolutionContext& ctx, const SolutionFile& soln, const ProbeOptions& o,
                 const std::string& where);

}  // namespace frmini::solver::exporter
