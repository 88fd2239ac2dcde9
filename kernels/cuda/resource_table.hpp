// Compiles every generated strategy of a set of operators for one architecture (no GPU
// needed) and reports each kernel's registers and spills: the evidence that the generator has
// a spill-free candidate for every operator. Used by the compile tests and by
// `frmini cuda-resources`.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "kernels/cuda/resources.hpp"
#include "kernels/matmul/provider.hpp"

namespace frmini::kernels::cuda {

struct NamedOperator {
  std::string name;  // e.g. "hex-p6-M460"
  matmul::HostMatrix a;
};

struct ResourceRow {
  std::string op;
  std::size_t m = 0, k = 0, nnz = 0;
  Precision precision = Precision::double_;
  double beta = 0;
  std::string strategy;
  int est_regs = 0;
  Resources res;
  double seconds = 0;  // compile time (0 when cached)
  bool spill_free() const { return !res.spills() && res.stack_frame == 0; }
};

struct TableOptions {
  int arch = 90;
  std::size_t ld = 50048;  // baked ldb = ldc (the paper's n = 50,000 rounded to 32)
  unsigned threads = 0;    // 0 = hardware concurrency
  // Only the plan's first strategy, the next of another shape (width 1 preferred) and the
  // first k-split, for quick subsets that still check the spill-free guarantee.
  bool first_only = false;
  bool use_cache = true;
};

// One row per (operator, precision, beta, strategy), in that order.
std::vector<ResourceRow> resource_table(const std::vector<NamedOperator>& ops,
                                        const std::vector<Precision>& precisions,
                                        const std::vector<double>& betas,
                                        const TableOptions& o = {});

std::string to_csv(const std::vector<ResourceRow>& rows);

}  // namespace frmini::kernels::cuda
