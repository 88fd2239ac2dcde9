// Reading the solution of a few elements without downloading the rest. Plugins that look at a
// boundary (forces) or at a handful of points (sampler) need the solution of a small subset of
// the elements; downloading every register value for that moves the whole solution over PCIe
// at each sample (100 MB for the Re 3900 cylinder at p = 3 in double). Here one pointwise
// kernel gathers the listed elements' values through a view into a compact array on the
// device, and only that array comes over.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/pointwise/kernel.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

class ElementGather {
 public:
  // `elements`: (group, element) pairs of real elements; repeats are listed once.
  ElementGather(System& sys, const std::vector<std::pair<int, int64_t>>& elements);
  ~ElementGather();
  ElementGather(const ElementGather&) = delete;
  ElementGather& operator=(const ElementGather&) = delete;

  // Gathers register `reg` on the device and downloads the listed elements' values. Afterwards
  // values(g, e) points at element e of group g's [nvars][nupts] values, download_solution's
  // per-element layout; nullptr for an element not listed.
  void download(int reg);
  const double* values(int group, int64_t elem) const;

  std::size_t nelements() const { return where_.size(); }
  // Bytes one download moves from the device (values in the run's precision).
  std::size_t bytes() const { return bytes_; }

 private:
  System& sys_;
  // Gathered points run element by element, nupts each: element (g, e) takes points
  // [first, first + nupts), and its values start at nvars*first in host_.
  struct Listed {
    int64_t first;
    int nupts;
  };
  std::map<std::pair<int, int64_t>, Listed> where_;
  int64_t npts_ = 0, ld_ = 0;
  std::size_t bytes_ = 0;
  std::unique_ptr<kernels::Buffer> ix_, out_;
  std::unique_ptr<kernels::pointwise::PointwiseKernel> kernel_;
  std::vector<double> host_;
};

}  // namespace frmini::solver
