// The nodal Lagrange basis on a std_ele lattice (meshes/element_types.hpp), with gradients: it
// maps reference points to physical ones for any element type and geometric order, without
// Gmsh, so reading and checking a frmini mesh file never needs Gmsh.
//
// NOTE: operators/ is growing its own bases (orthonormal, analytic derivatives); this small
// monomial-Vandermonde version exists so meshes/ does not wait for it. Merge later: geometric
// orders are <= 4, where monomials on [-1,1] are well enough conditioned.
#pragma once

#include <string>
#include <vector>

#include "meshes/element_types.hpp"

namespace frmini::meshes {

class LagrangeBasis {
 public:
  LagrangeBasis(const std::string& etype, int order);

  int nnodes() const { return nnodes_; }
  int ndims() const { return ndims_; }
  const std::vector<Point3>& nodes() const { return nodes_; }

  // Values at points: out[p * nnodes + n] = L_n(pts[p]).
  std::vector<double> values(const std::vector<Point3>& pts) const;
  // Gradients: out[(p * ndims + d) * nnodes + n] = dL_n/dx_d (pts[p]). Not defined at the
  // pyramid apex (the pyramid space is rational there).
  std::vector<double> gradients(const std::vector<Point3>& pts) const;

 private:
  // One monomial x^i y^j z^l; for the pyramid a^i b^j w^m z^l with a = x/w, b = y/w,
  // w = (1-z)/2, m = max(i, j) (the standard rational pyramid space).
  struct Term {
    int i, j, l, m;
  };
  void eval_terms(const Point3& p, double* val, double* grad) const;

  std::string etype_;
  int ndims_, nnodes_;
  bool pyr_;
  std::vector<Point3> nodes_;
  std::vector<Term> terms_;
  std::vector<double> coeff_;  // inverse Vandermonde, terms x nodes
};

}  // namespace frmini::meshes
