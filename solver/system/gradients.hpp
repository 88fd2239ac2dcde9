// The physical gradient of a solution at the solution points of one element group, on the
// host in double precision, exactly as the solver's gradcoru step forms it from the reference
// gradient: grad_x u = (1/|J|) S^T (M4 u), S = |J| J^-1 the metric terms of GroupGeometry.
// (Without the correction term M6: what post-processing — export, the forces plugin — wants is
// the gradient of the element's own polynomial.)
#pragma once

#include <vector>

#include "operators/operators.hpp"
#include "solver/system/geometry.hpp"

namespace frmini::solver {

// One element e: `soln_e` its [nvars][nupts] values, `out` ndims*nvars*nupts values,
// d u_v / d x_j at upt i at (j*nvars + v)*nupts + i.
void upts_gradient(const operators::ElementOperators& ops, const GroupGeometry& geo,
                   const double* soln_e, std::size_t e, int nvars, double* out);

// `soln` is the group's [neles][nvars][nupts] array (a solution file's layout). Returns
// [neles][ndims][nvars][nupts]: d u_v / d x_j of element e at upt i at
// ((e*ndims + j)*nvars + v)*nupts + i.
std::vector<double> upts_gradients(const operators::ElementOperators& ops,
                                   const GroupGeometry& geo, const std::vector<double>& soln,
                                   int nvars);

// An operator's non-zero entries: on tensor-product elements a row of M4 or M6 has
// nupts^(1/ndims) non-zeros, so looping over these alone is many times cheaper than the dense
// loop (the plugins evaluate gradients of every element every few steps).
struct NonZeros {
  std::vector<int> row, col;
  std::vector<double> val;
  explicit NonZeros(const operators::Matrix& m);
  // y[row] += A x[col] for one variable.
  void apply(const double* x, double* y) const {
    for (std::size_t k = 0; k < val.size(); ++k) y[row[k]] += val[k] * x[col[k]];
  }
};

// Element e's reference gradient `ref` ([ndims][nvars][nupts]) to physical space, into `out`
// (upts_gradient's layout): d/dx_j = (1/|J|) sum_d S_dj d/dxi_d.
void reference_to_physical(const GroupGeometry& geo, int nupts, std::size_t e, int nvars,
                           const double* ref, double* out);

}  // namespace frmini::solver
