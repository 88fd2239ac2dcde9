// Internal to solver/export: a solution group ready to be sampled at reference points (its
// operators, physical gradients at the solution points and nodal basis). No VTK types, so the
// offline sampler (probe.hpp) builds without VTK.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "operators/nodal.hpp"
#include "operators/operators.hpp"
#include "solver/export/export.hpp"

namespace frmini::solver::exporter {

struct GroupSolution {
  const meshes::ElementGroup* group = nullptr;
  const std::vector<double>* soln = nullptr;  // [neles][nvars][nupts]
  operators::ElementOperators ops;
  std::vector<double> grads;                  // [neles][ndims][nvars][nupts]
  std::unique_ptr<operators::NodalBasis> basis;
  int ndims = 0, nvars = 0;
};

// The solution of mesh group g. Throws UserError naming the solution file when the file does
// not hold that group with the mesh's element count.
GroupSolution group_solution(const SolutionContext& ctx, const SolutionFile& soln,
                             std::size_t g);

// Values and gradients of element e at the points whose basis values are the rows of B
// (npts × nupts): q [npts][nvars], grad [npts][ndims][nvars].
void sample(const GroupSolution& gs, const operators::Matrix& B, int64_t e,
            std::vector<double>& q, std::vector<double>& grad);

}  // namespace frmini::solver::exporter
