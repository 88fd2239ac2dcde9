// Orthonormal polynomial bases on PyFR's reference elements (pyfr/polys.py), with analytic
// gradients: line (Legendre), quad/hex (tensor Legendre), tri (Dubiner), tet, pri (Dubiner ×
// Legendre) and pyr (the rational collapsed-coordinate basis). Same definitions, ordering and
// normalisation as PyFR, so every operator built from them equals PyFR's.
//
// `p` is the polynomial order (PyFR's basis `order` is p + 1). Points are one per row of a
// Matrix (npts × ndims).
#pragma once

#include <string>

#include "operators/linalg.hpp"

namespace frmini::operators {

// Number of basis functions (= nupts) of `shape` at order p; shape is one of
// line, quad, tri, hex, tet, pri, pyr.
int basis_size(const std::string& shape, int p);
int shape_ndims(const std::string& shape);

// Φ[j, x] = φ_j(pts[x]): nbasis × npts. `clean` applies PyFR's clean (it does, by default).
Matrix ortho_basis_at(const std::string& shape, int p, const Matrix& pts, bool clean = true);

// ∂φ_j/∂ξ_k at pts[x], stored at row k·nbasis + j, column x: (ndims·nbasis) × npts, the memory
// layout of PyFR's (ndims, nbasis, npts) array.
Matrix jac_ortho_basis_at(const std::string& shape, int p, const Matrix& pts, bool clean = true);

}  // namespace frmini::operators
