// Internal to solver/export: a solution group ready to be sampled at reference points (its
// operators, physical gradients at the solution points and nodal basis), and the VTK point
// arrays the derived fields go into.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <vtkDoubleArray.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>

#include "operators/nodal.hpp"
#include "operators/operators.hpp"
#include "solver/export/export.hpp"
#include "solver/export/fields.hpp"

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

// The requested point arrays, appended to point by point.
class PointArrays {
 public:
  PointArrays(const std::vector<std::string>& fields, double gamma, double R);
  void append(const PointState& s);
  void attach(vtkPointData* pd) const;

 private:
  vtkSmartPointer<vtkDoubleArray> make(const std::string& name, int ncomp);
  double gamma_, R_;
  std::vector<std::pair<std::string, vtkSmartPointer<vtkDoubleArray>>> arrays_;
};

}  // namespace frmini::solver::exporter
