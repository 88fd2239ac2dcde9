#include "solver/render/field_select.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <vtkDataArray.h>
#include <vtkDataSet.h>
#include <vtkPointData.h>

#include "base/error.hpp"

namespace frmini::render::detail {

std::string list_point_fields(vtkDataSet& data) {
  std::string out;
  auto* pd = data.GetPointData();
  for (int i = 0; i < pd->GetNumberOfArrays(); ++i) {
    auto* a = pd->GetArray(i);
    if (!a || !a->GetName()) continue;
    if (!out.empty()) out += ", ";
    out += a->GetName();
    if (a->GetNumberOfComponents() != 1)
      out += " (" + std::to_string(a->GetNumberOfComponents()) + ")";
  }
  return out.empty() ? "none" : out;
}

vtkDataArray* find_point_array(vtkDataSet& data, const FieldChoice& choice, std::string_view what) {
  auto* a = data.GetPointData()->GetArray(choice.array.c_str());
  if (!a)
    throw UserError(std::string(what) + ": no point field '" + choice.array +
                    "' (fields: " + list_point_fields(data) + ")");
  if (choice.component >= a->GetNumberOfComponents())
    throw UserError(std::string(what) + ": field '" + choice.array + "' has " +
                    std::to_string(a->GetNumberOfComponents()) + " component(s), no " +
                    choice.label());
  return a;
}

vtkSmartPointer<vtkDoubleArray> extract_scalar(vtkDataArray& array, int component,
                                               const std::string& name) {
  auto out = vtkSmartPointer<vtkDoubleArray>::New();
  out->SetName(name.c_str());
  const vtkIdType n = array.GetNumberOfTuples();
  const int nc = array.GetNumberOfComponents();
  out->SetNumberOfTuples(n);
  for (vtkIdType i = 0; i < n; ++i) {
    double v;
    if (component >= 0) {
      v = array.GetComponent(i, component);
    } else if (nc == 1) {
      v = array.GetComponent(i, 0);
    } else {
      double s = 0;
      for (int c = 0; c < nc; ++c) s += array.GetComponent(i, c) * array.GetComponent(i, c);
      v = std::sqrt(s);
    }
    out->SetValue(i, v);
  }
  return out;
}

std::array<double, 2> percentile_range(vtkDataArray& values, double percentile, bool symmetric,
                                       const std::vector<double>& weights) {
  std::vector<std::pair<double, double>> v;  // (value, weight)
  v.reserve(values.GetNumberOfTuples());
  double total = 0;
  for (vtkIdType i = 0; i < values.GetNumberOfTuples(); ++i) {
    const double x = values.GetComponent(i, 0);
    const double w = weights.empty() ? 1.0 : weights[i];
    if (!std::isfinite(x) || !(w > 0)) continue;
    v.emplace_back(symmetric ? std::abs(x) : x, w);
    total += w;
  }
  if (v.empty()) return {-1, 1};
  std::sort(v.begin(), v.end());
  percentile = std::clamp(percentile, 0.5, 1.0);
  // The smallest value with at least q of the total weight at or below it.
  auto at = [&](double q) {
    double sum = 0;
    for (const auto& [x, w] : v) {
      sum += w;
      if (sum >= q * total * (1 - 1e-12)) return x;
    }
    return v.back().first;
  };
  std::array<double, 2> r;
  if (symmetric) {
    const double a = at(percentile);
    r = {-a, a};
  } else {
    r = {at(1 - percentile), at(percentile)};
  }
  if (!(r[1] > r[0])) {
    const double pad = std::max(1e-12, 1e-6 * std::abs(r[0]));
    r = {r[0] - pad, r[1] + pad};
  }
  return r;
}

}  // namespace frmini::render::detail
