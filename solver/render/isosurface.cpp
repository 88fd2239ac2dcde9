#include "solver/render/isosurface.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include <vtkAppendPolyData.h>
#include <vtkCleanPolyData.h>
#include <vtkContourFilter.h>
#include <vtkDataSet.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataNormals.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPolyDataWriter.h>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "solver/render/field_select.hpp"
#include "solver/render/shared_points.hpp"
#include "solver/render/subdivide.hpp"
#include "solver/render/vtk_errors.hpp"

namespace frmini::render {
namespace {

constexpr const char* kIsoScalar = "frmini-iso-scalar";

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// One spec contoured: the pieces its value passes through, contoured with VTK.
vtkSmartPointer<vtkPolyData> contour_one(vtkDataSet& data, const IsoSpec& spec, int index,
                                         vtkDataArray* color, int subdivisions) {
  const std::string what = "--isosurface '" + spec.text + "'";
  auto* array = detail::find_point_array(data, spec.field, what);
  auto scalar = detail::extract_scalar(*array, spec.field.component, kIsoScalar);
  double range[2];
  scalar->GetRange(range);
  if (!(spec.value >= range[0] && spec.value <= range[1]))
    throw UserError(what + ": value outside the range of " + spec.field.label() + ", [" +
                    fmt(range[0]) + ", " + fmt(range[1]) + "]");

  std::vector<vtkDataArray*> carried{scalar};
  if (color) carried.push_back(color);
  const detail::StraddleFilter filter{scalar, spec.value};
  auto pieces = detail::linear_pieces(data, subdivisions, carried, &filter);

  auto contour = vtkSmartPointer<vtkContourFilter>::New();
  contour->SetInputData(pieces);
  contour->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, kIsoScalar);
  contour->SetValue(0, spec.value);
  contour->ComputeScalarsOff();
  contour->ComputeNormalsOff();
  contour->Update();

  auto surf = vtkSmartPointer<vtkPolyData>::New();
  surf->ShallowCopy(contour->GetOutput());
  surf->GetPointData()->RemoveArray(kIsoScalar);
  auto tag = vtkSmartPointer<vtkIntArray>::New();
  tag->SetName("isosurface");
  tag->SetNumberOfTuples(surf->GetNumberOfPoints());
  tag->FillValue(index);
  surf->GetPointData()->AddArray(tag);
  return surf;
}

}  // namespace

long make_isosurfaces(vtkDataSet& data, const IsoOptions& opts, vtkPolyData& out) {
  // The arrays the contours need, checked (one-line errors) before anything is built.
  std::vector<vtkDataArray*> used;
  for (const auto& spec : opts.specs)
    used.push_back(detail::find_point_array(data, spec.field, "--isosurface '" + spec.text + "'"));
  vtkDataArray* color = nullptr;
  if (!opts.color_by.empty()) {
    const auto choice = parse_field_choice(opts.color_by, "--color-by '" + opts.color_by + "'");
    color = detail::find_point_array(data, choice, "--color-by '" + opts.color_by + "'");
    used.push_back(color);
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  // Continuous fields where cells meet, so the surfaces close across element faces
  // (shared_points.hpp); `source` is what is contoured.
  vtkSmartPointer<vtkUnstructuredGrid> merged;
  if (opts.continuous && !opts.specs.empty()) {
    merged = detail::merge_shared_points(data, used);
    if (color) color = merged->GetPointData()->GetArray(color->GetName());
  }
  vtkDataSet& source = merged ? static_cast<vtkDataSet&>(*merged) : data;
  auto append = vtkSmartPointer<vtkAppendPolyData>::New();
  auto specs = vtkSmartPointer<vtkStringArray>::New();
  specs->SetName("isosurface-specs");
  for (std::size_t i = 0; i < opts.specs.size(); ++i) {
    append->AddInputData(contour_one(source, opts.specs[i], int(i), color, opts.subdivisions));
    specs->InsertNextValue(opts.specs[i].text);
  }
  if (opts.specs.empty()) {
    out.Initialize();
    return 0;
  }
  // The pieces duplicate the points on shared faces: merge them (exactly coincident up to
  // round-off) so the surface is connected and its normals are smooth.
  auto clean = vtkSmartPointer<vtkCleanPolyData>::New();
  clean->SetInputConnection(append->GetOutputPort());
  clean->ToleranceIsAbsoluteOff();
  clean->SetTolerance(1e-10);
  // Triangles that collapse (the contour through a node) are dropped, not kept as lines.
  clean->ConvertPolysToLinesOff();
  clean->ConvertLinesToPointsOff();
  clean->ConvertStripsToPolysOff();
  auto normals = vtkSmartPointer<vtkPolyDataNormals>::New();
  normals->SetInputConnection(clean->GetOutputPort());
  normals->SplittingOff();
  normals->ConsistencyOn();
  normals->Update();
  out.ShallowCopy(normals->GetOutput());
  out.GetFieldData()->AddArray(specs);
  // 2D data contours into line segments: they are its "polygons".
  return static_cast<long>(out.GetNumberOfPolys() + out.GetNumberOfLines());
}

void write_vtp(vtkPolyData& poly, const std::filesystem::path& path) {
  write_atomically(path, [&](const std::filesystem::path& tmp) {
    auto writer = vtkSmartPointer<vtkXMLPolyDataWriter>::New();
    detail::ErrorWatch errors;
    errors.watch(writer);
    writer->SetInputData(&poly);
    writer->SetFileName(tmp.c_str());
    writer->SetDataModeToAppended();
    writer->SetCompressorTypeToZLib();
    if (writer->Write() != 1 || writer->GetErrorCode() != 0 || errors.failed())
      throw UserError(path.string() + ": cannot write the isosurface file (" +
                      std::strerror(errno) + ")");
  });
}

}  // namespace frmini::render
