// Values at the solution points that live on the device beside the registers and are not
// registers: a plugin's running sums (the time average's), which a kernel updates from a
// register every few steps and which come to the host only when a file is written. Per group
// one panel of `nvals` values per point, in the registers' AoSoA layout (layout.hpp), so an
// element kernel reads a register and these fields with one indexing.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/pointwise/kernel.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

class PointField {
 public:
  // Zeroed.
  PointField(System& sys, int nvals);
  ~PointField();
  PointField(const PointField&) = delete;
  PointField& operator=(const PointField&) = delete;

  int nvals() const { return nvals_; }
  void zero();
  // Per group [neles][nvals][nupts] in double (download_solution's layout, real elements only).
  std::vector<std::vector<double>> download() const;
  // The same layout back; padding elements take element 0's values.
  void upload(const std::vector<std::vector<double>>& v);
  // Group g's panel, as a field argument of an element kernel.
  kernels::pointwise::ArgValue arg(std::size_t g) const;

 private:
  System& sys_;
  int nvals_;
  std::size_t item_;
  std::vector<std::unique_ptr<kernels::Buffer>> bufs_;  // per group
};

}  // namespace frmini::solver
