#include "operators/nodal.hpp"

#include <algorithm>
#include <stdexcept>

#include "operators/bases.hpp"
#include "operators/clean.hpp"
#include "operators/shapes.hpp"

namespace frmini::operators {

NodalBasis::NodalBasis(std::string shape, int p, Matrix pts)
    : shape_(std::move(shape)), p_(p), pts_(std::move(pts)) {
  if (static_cast<int>(pts_.rows) != basis_size(shape_, p_))
    throw std::invalid_argument("NodalBasis: " + std::to_string(pts_.rows) +
                                " points for a " + shape_ + " basis of order " +
                                std::to_string(p_));
  // As PyFR: the Vandermonde matrix from the cleaned basis, its inverse cleaned again.
  invvdm_ = inverse(ortho_basis_at(shape_, p_, pts_));
  clean(invvdm_.data);
}

Matrix NodalBasis::at(const Matrix& x) const {
  Matrix m = transpose(matmul(invvdm_, ortho_basis_at(shape_, p_, x, false)));
  clean(m.data);
  return m;
}

Matrix NodalBasis::jac_at(const Matrix& x) const {
  const std::size_t n = size(), nd = pts_.cols;
  const Matrix d = jac_ortho_basis_at(shape_, p_, x, false);
  Matrix out(nd * n, x.rows);
  for (std::size_t k = 0; k < nd; ++k) {
    Matrix dk(n, x.rows);
    std::copy(d.data.begin() + k * n * x.rows, d.data.begin() + (k + 1) * n * x.rows,
              dk.data.begin());
    const Matrix r = matmul(invvdm_, dk);
    std::copy(r.data.begin(), r.data.end(), out.data.begin() + k * n * x.rows);
  }
  clean(out.data);
  return out;
}

NodalBasis geometry_basis(const std::string& shape, int k) {
  return NodalBasis(shape, k, std_ele(shape, k));
}

}  // namespace frmini::operators
