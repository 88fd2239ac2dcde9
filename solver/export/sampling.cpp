#include "solver/export/sampling.hpp"

#include <algorithm>

#include "base/error.hpp"

namespace frmini::solver::exporter {

PointArrays::PointArrays(const std::vector<std::string>& fields, double gamma, double R)
    : gamma_(gamma), R_(R) {
  const auto& names = fields.empty() ? field_names() : fields;
  for (const auto& n : field_names())  // in the documented order, each once
    if (std::find(names.begin(), names.end(), n) != names.end())
      arrays_.emplace_back(n, make(n, n == "velocity" || n == "vorticity" ? 3 : 1));
}

vtkSmartPointer<vtkDoubleArray> PointArrays::make(const std::string& name, int ncomp) {
  auto a = vtkSmartPointer<vtkDoubleArray>::New();
  a->SetName(name.c_str());
  a->SetNumberOfComponents(ncomp);
  return a;
}

void PointArrays::append(const PointState& s) {
  const DerivedFields d = derived_fields(s, gamma_, R_);
  for (auto& [name, a] : arrays_) {
    if (name == "rho") a->InsertNextValue(s.rho);
    else if (name == "velocity") a->InsertNextTuple(s.vel.data());
    else if (name == "p") a->InsertNextValue(s.p);
    else if (name == "T") a->InsertNextValue(d.T);
    else if (name == "mach") a->InsertNextValue(d.mach);
    else if (name == "vorticity") a->InsertNextTuple(d.vorticity.data());
    else if (name == "vorticity-mag") a->InsertNextValue(d.vorticity_mag);
    else if (name == "qcrit") a->InsertNextValue(d.qcrit);
  }
}

void PointArrays::attach(vtkPointData* pd) const {
  for (const auto& [name, a] : arrays_) pd->AddArray(a);
}

}  // namespace frmini::solver::exporter
