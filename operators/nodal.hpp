// Nodal (Lagrange) bases on arbitrary unisolvent point sets, built as PyFR does through the
// orthonormal basis: l_u(x) = Σ_j (V⁻¹)[u,j] φ_j(x), V[j,u] = φ_j(x_u). Used for the solution
// points (operators), the face flux points (correction field) and, by the mesh and solver
// layers, for geometry nodes (`geometry_basis`: the std_ele lattice of the geometric order).
#pragma once

#include <string>

#include "operators/linalg.hpp"

namespace frmini::operators {

class NodalBasis {
 public:
  // `pts` (n × ndims) must hold exactly basis_size(shape, p) unisolvent points.
  NodalBasis(std::string shape, int p, Matrix pts);

  const std::string& shape() const { return shape_; }
  int order() const { return p_; }
  std::size_t size() const { return pts_.rows; }
  int ndims() const { return static_cast<int>(pts_.cols); }
  const Matrix& pts() const { return pts_; }
  const Matrix& invvdm() const { return invvdm_; }

  // l_u(x) at each row of x: npts(x) × size(), entry [x, u] (PyFR's nodal_basis_at).
  Matrix at(const Matrix& x) const;
  // ∂l_u/∂ξ_k at each row of x: (ndims·size()) × npts(x), entry [k·size() + u, x]
  // (PyFR's jac_nodal_basis_at, an (ndims, n, npts) array).
  Matrix jac_at(const Matrix& x) const;

 private:
  std::string shape_;
  int p_;
  Matrix pts_, invvdm_;
};

// The Lagrange basis of the order-k geometry nodes of `shape` (std_ele(shape, k)).
NodalBasis geometry_basis(const std::string& shape, int k);

}  // namespace frmini::operators
