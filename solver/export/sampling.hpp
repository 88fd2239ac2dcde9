// Internal to solver/export: the VTK point arrays the derived fields go into (the groups they
// are sampled from: group_solution.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <vtkDoubleArray.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>

#include "solver/export/group_solution.hpp"
#include "solver/export/fields.hpp"

namespace frmini::solver::exporter {

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
