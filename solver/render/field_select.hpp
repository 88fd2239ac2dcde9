// Internal to render/: turning a FieldChoice into a scalar array of a VTK data set's point data,
// with the one-line errors users see (unknown field, component out of range), and colour ranges.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <vtkDoubleArray.h>
#include <vtkSmartPointer.h>

#include "solver/render/iso_spec.hpp"

class vtkDataArray;
class vtkDataSet;

namespace frmini::render::detail {

// "rho, velocity (3), p": the point arrays of data, with their component counts when not 1.
std::string list_point_fields(vtkDataSet& data);

// The point array choice.array; UserError "<what>: no point field 'x' (fields: ...)" when absent
// and when a component is asked of an array that lacks it.
vtkDataArray* find_point_array(vtkDataSet& data, const FieldChoice& choice, std::string_view what);

// The chosen scalar at every tuple of `array`: the component, or the magnitude for vectors.
vtkSmartPointer<vtkDoubleArray> extract_scalar(vtkDataArray& array, int component,
                                               const std::string& name);

// A colour range for `values` that ignores outliers: [-a, a] with a the `percentile` of |v|
// when symmetric (diverging maps, signed fields such as vorticity), else the (1 - percentile)
// and percentile values. Never empty: a constant field gets a small range around its value.
// weights (one per tuple, may be empty: all 1) make it a percentile of area rather than of
// points, so a mesh clustered in the boundary layer does not let the wall set the scale; a
// weight of 0 leaves the point out (outside the picture's frame).
std::array<double, 2> percentile_range(vtkDataArray& values, double percentile, bool symmetric,
                                       const std::vector<double>& weights = {});

}  // namespace frmini::render::detail
