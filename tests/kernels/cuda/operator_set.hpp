// The operators the CUDA generator is checked on: quad/hex/tri/tet x orders 1..6 x the five
// operators the solver multiplies by, from the project's operator builder.
#pragma once

#include <string>
#include <vector>

#include "kernels/cuda/resource_table.hpp"
#include "operators/operators.hpp"

namespace frmini::tests {

inline std::vector<kernels::cuda::NamedOperator> cuda_operator_set(int pmin = 1, int pmax = 6) {
  std::vector<kernels::cuda::NamedOperator> out;
  for (const char* et : {"quad", "hex", "tri", "tet"})
    for (int p = pmin; p <= pmax; ++p) {
      auto ops = operators::build_operators(et, p);
      for (const auto& name : operators::solver_operator_names()) {
        const auto& m = operators::get(ops, name);
        out.push_back({std::string(et) + "-p" + std::to_string(p) + "-" + name,
                       kernels::matmul::HostMatrix{m.rows, m.cols, m.data}});
      }
    }
  return out;
}

}  // namespace frmini::tests
