// The geometry of one element group as the FR scheme needs it, computed on the host in double
// precision the way PyFR does (solvers/base/elements.py):
//  - physical locations of the solution and flux points;
//  - metric terms S = |J| J^-1 (smats[a][b] = |J| dxi_a/dx_b) and 1/|J| at the solution
//    points, computed at the "pseudo-grid" points (the order-max(p,1) equispaced lattice) and
//    interpolated, so they are degree-p polynomials and the scheme preserves a free stream on
//    curved meshes; 3D uses Kopriva's conservative curl form;
//  - physical face normals at the flux points, pnorm = S^T n^ (n^ the unnormalised reference
//    normal), whose length is the face's area ratio.
// Host panels: value (point i, component c, element e) at [(i*ncomp + c)*neles + e].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meshes/mesh.hpp"
#include "operators/operators.hpp"

namespace frmini::solver {

struct GroupGeometry {
  std::string etype;
  int ndims = 0, nupts = 0, nfpts = 0;
  int64_t neles = 0;
  std::vector<double> ploc_upts;     // ncomp = ndims
  std::vector<double> smats_upts;    // ncomp = ndims*ndims, c = a*ndims + b
  std::vector<double> rcpdjac_upts;  // ncomp = 1
  std::vector<double> djac_upts;     // ncomp = 1 (quadrature weights for integrals)
  std::vector<double> ploc_fpts;     // ncomp = ndims
  std::vector<double> pnorm_fpts;    // ncomp = ndims
  // Flux anti-aliasing (ops.nqpts > 0): the metric terms at the volume quadrature points,
  // interpolated from the pseudo-grid as those at the solution points are.
  int nqpts = 0;
  std::vector<double> smats_qpts;    // ncomp = ndims*ndims
};

// Throws UserError naming the element if a Jacobian is negative (a tangled or inverted
// element: PyFR's -1e-5 threshold relative to the element's size).
GroupGeometry compute_geometry(const meshes::ElementGroup& g, int ndims,
                               const operators::ElementOperators& ops);

// Physical locations of arbitrary reference points (n × ndims) in every element:
// panel [(i*ndims + c)*neles + e].
std::vector<double> ploc_at(const meshes::ElementGroup& g, int ndims,
                            const operators::Matrix& pts);

}  // namespace frmini::solver
