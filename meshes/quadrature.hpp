// Quadrature rules on PyFR's reference elements: tensor Gauss-Legendre on the collapsed cube
// (Duffy maps for tri, tet, pri, pyr). Crude compared with PyFR's tuned rules, but exact to
// any requested degree and short, which is what mesh volumes and Jacobian checks need.
#pragma once

#include <string>
#include <vector>

#include "meshes/element_types.hpp"

namespace frmini::meshes {

struct Quadrature {
  std::vector<Point3> pts;
  std::vector<double> wts;
};

// Gauss-Legendre points and weights on [-1, 1].
void gauss_legendre(int n, std::vector<double>& x, std::vector<double>& w);

// A rule with n points per collapsed direction (exact for polynomials of degree 2n-1 on the
// cube; on simplices the Duffy factor costs up to d-1 degrees).
Quadrature quadrature(const std::string& etype, int n);

}  // namespace frmini::meshes
