#include "solver/render/picture.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkColorTransferFunction.h>
#include <vtkDataSet.h>
#include <vtkDataSetMapper.h>
#include <vtkIdList.h>
#include <vtkPNGWriter.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkSmartPointer.h>
#include <vtkTextProperty.h>
#include <vtkUnstructuredGrid.h>
#include <vtkWindowToImageFilter.h>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "solver/render/display.hpp"
#include "solver/render/field_select.hpp"
#include "solver/render/subdivide.hpp"
#include "solver/render/vtk_errors.hpp"

namespace frmini::render {
namespace {

void check_size(const PictureOptions& o, const std::filesystem::path& png) {
  if (o.width < 16 || o.height < 16 || o.width > 8192 || o.height > 8192)
    throw UserError(png.string() + ": picture size " + std::to_string(o.width) + "x" +
                    std::to_string(o.height) + " is not between 16x16 and 8192x8192");
}

bool valid(const Box& b) { return b[0] <= b[1] && b[2] <= b[3] && b[4] <= b[5]; }

Box bounds_of(vtkDataSet& d) {
  Box b;
  d.GetBounds(b.data());
  return b;
}

// Diverging (blue-white-red, Moreland's cool to warm) for signed fields, a viridis-like
// sequential map otherwise.
vtkSmartPointer<vtkColorTransferFunction> colour_map(const std::array<double, 2>& r, bool diverging) {
  auto ctf = vtkSmartPointer<vtkColorTransferFunction>::New();
  if (diverging) {
    ctf->SetColorSpaceToDiverging();
    ctf->AddRGBPoint(r[0], 0.230, 0.299, 0.754);
    ctf->AddRGBPoint(0.5 * (r[0] + r[1]), 0.865, 0.865, 0.865);
    ctf->AddRGBPoint(r[1], 0.706, 0.016, 0.150);
  } else {
    ctf->SetColorSpaceToLab();
    const double pts[5][3] = {{0.267, 0.005, 0.329}, {0.230, 0.322, 0.546}, {0.128, 0.567, 0.551},
                              {0.369, 0.789, 0.383}, {0.993, 0.906, 0.144}};
    for (int i = 0; i < 5; ++i)
      ctf->AddRGBPoint(r[0] + (r[1] - r[0]) * i / 4.0, pts[i][0], pts[i][1], pts[i][2]);
  }
  ctf->ClampingOn();
  return ctf;
}

// The scalar to colour by, as the active scalars of a shallow copy of data; its label.
struct Colouring {
  vtkSmartPointer<vtkColorTransferFunction> ctf;
  std::string label;
};

Colouring colour_by(vtkDataSet& copy, const FieldChoice& choice, const PictureOptions& o,
                    const std::string& what, const std::vector<double>& weights = {}) {
  auto* a = detail::find_point_array(copy, choice, what);
  auto s = detail::extract_scalar(*a, choice.component, "frmini-colour");
  double r0[2];
  s->GetRange(r0);
  // Signed when both signs carry weight (at least 2% of the points each): a positive field
  // (the Mach number) interpolated at high order dips below zero near walls, which must not
  // make its map diverging.
  bool signed_field = r0[0] < 0 && r0[1] > 0;
  if (signed_field) {
    vtkIdType neg = 0, pos = 0;
    for (vtkIdType i = 0; i < s->GetNumberOfTuples(); ++i) {
      const double x = s->GetTuple1(i);
      neg += x < 0, pos += x > 0;
    }
    const double n = double(std::max<vtkIdType>(s->GetNumberOfTuples(), 1));
    signed_field = neg > 0.02 * n && pos > 0.02 * n;
  }
  auto range = o.range ? *o.range : detail::percentile_range(*s, o.percentile, signed_field, weights);
  if (!(range[1] > range[0])) range = {range[0] - 1, range[0] + 1};
  copy.GetPointData()->SetScalars(s);
  std::string label = choice.label();
  if (choice.component < 0 && a->GetNumberOfComponents() > 1) label = "|" + choice.array + "|";
  // Diverging when the colours straddle zero: signs matter more than magnitudes there.
  const bool diverging = o.range ? (range[0] < 0 && range[1] > 0) : signed_field;
  return {colour_map(range, diverging), label};
}

// Each point's share of the area, in the plane z = const, of the cells whose centre is inside
// the frame: the colour range is then a percentile of the picture's area, not of its points.
std::vector<double> area_weights(vtkDataSet& d, const Box& box) {
  std::vector<double> w(d.GetNumberOfPoints(), 0.0);
  auto ids = vtkSmartPointer<vtkIdList>::New();
  std::vector<std::array<double, 3>> x;
  for (vtkIdType c = 0; c < d.GetNumberOfCells(); ++c) {
    d.GetCellPoints(c, ids);
    const vtkIdType n = ids->GetNumberOfIds();
    if (n < 3) continue;
    x.resize(n);
    double cx = 0, cy = 0;
    for (vtkIdType a = 0; a < n; ++a) {
      d.GetPoint(ids->GetId(a), x[a].data());
      cx += x[a][0] / double(n);
      cy += x[a][1] / double(n);
    }
    if (cx < box[0] || cx > box[1] || cy < box[2] || cy > box[3]) continue;
    double area = 0;  // shoelace: the pieces' vertices go round the polygon (quads, triangles)
    for (vtkIdType a = 0; a < n; ++a) {
      const auto& p = x[a];
      const auto& q = x[(a + 1) % n];
      area += p[0] * q[1] - q[0] * p[1];
    }
    for (vtkIdType a = 0; a < n; ++a) w[ids->GetId(a)] += std::abs(area) / (2.0 * double(n));
  }
  return w;
}

vtkSmartPointer<vtkScalarBarActor> colour_bar(vtkColorTransferFunction* ctf, const std::string& title) {
  auto bar = vtkSmartPointer<vtkScalarBarActor>::New();
  bar->SetLookupTable(ctf);
  bar->SetTitle(title.c_str());
  bar->SetOrientationToHorizontal();
  bar->SetTextPositionToPrecedeScalarBar();  // labels under the bar, clear of the title
  bar->SetNumberOfLabels(5);
  bar->SetLabelFormat("%-#6.3g");
  bar->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  bar->GetPositionCoordinate()->SetValue(0.3, 0.01);
  bar->SetWidth(0.4);
  bar->SetHeight(0.14);
  bar->UnconstrainedFontSizeOn();
  for (auto* t : {bar->GetTitleTextProperty(), bar->GetLabelTextProperty()}) {
    t->SetColor(0.1, 0.1, 0.1);
    t->ShadowOff();
    t->ItalicOff();
    t->SetFontSize(t == bar->GetTitleTextProperty() ? 20 : 16);
  }
  return bar;
}

vtkSmartPointer<vtkActor> body_actor(vtkPolyData& body, bool two_d) {
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(&body);
  mapper->ScalarVisibilityOff();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  if (two_d) {
    actor->GetProperty()->SetColor(0.25, 0.25, 0.25);
    actor->GetProperty()->SetLineWidth(3);
    actor->GetProperty()->LightingOff();
  } else {
    actor->GetProperty()->SetColor(0.62, 0.62, 0.64);
    actor->GetProperty()->SetSpecular(0.3);
    actor->GetProperty()->SetSpecularPower(20);
  }
  return actor;
}

// Renders off screen and writes the PNG atomically.
void write_png(vtkRenderer* ren, const PictureOptions& o, const std::filesystem::path& png) {
  ensure_display();
  detail::ErrorWatch errors;
  auto win = vtkSmartPointer<vtkRenderWindow>::New();
  errors.watch(win);
  win->SetOffScreenRendering(1);
  win->SetMultiSamples(0);
  win->SetSize(o.width, o.height);
  win->AddRenderer(ren);
  win->Render();
  errors.check(png.string());
  auto grab = vtkSmartPointer<vtkWindowToImageFilter>::New();
  errors.watch(grab);
  grab->SetInput(win);
  grab->SetInputBufferTypeToRGB();
  grab->ReadFrontBufferOff();
  grab->Update();
  errors.check(png.string());
  write_atomically(png, [&](const std::filesystem::path& tmp) {
    auto writer = vtkSmartPointer<vtkPNGWriter>::New();
    errors.watch(writer);
    writer->SetInputConnection(grab->GetOutputPort());
    writer->SetFileName(tmp.c_str());
    writer->Write();
    errors.check(png.string());
    if (writer->GetErrorCode() != 0 || !std::filesystem::exists(tmp))
      throw UserError(png.string() + ": cannot write the picture");
  });
}

}  // namespace

bool is_two_d(vtkDataSet& data) {
  const Box b = bounds_of(data);
  const double size = std::max({b[1] - b[0], b[3] - b[2], 1e-300});
  return b[5] - b[4] <= 1e-12 * size;
}

Box wake_box(const Box& body, const Box& data, bool two_d) {
  if (!valid(data)) return body;
  if (!valid(body) || body[3] - body[2] <= 0) return data;
  const double d = body[3] - body[2];
  const double yc = 0.5 * (body[2] + body[3]);
  const double side = two_d ? 3 : 2;
  const double zc = 0.5 * (body[4] + body[5]);
  // z: the body's span (a cylinder's, clipped to the data), at least +-side D (a sphere's wake).
  Box b = {body[0] - d, body[1] + (two_d ? 10 : 8) * d, yc - side * d, yc + side * d,
           std::min(body[4], zc - side * d), std::max(body[5], zc + side * d)};
  if (two_d) b[4] = b[5] = zc;
  for (int i = 0; i < 3; ++i) {
    b[2 * i] = std::max(b[2 * i], data[2 * i]);
    b[2 * i + 1] = std::min(b[2 * i + 1], data[2 * i + 1]);
    if (b[2 * i] > b[2 * i + 1]) b[2 * i] = b[2 * i + 1] = 0.5 * (data[2 * i] + data[2 * i + 1]);
  }
  return b;
}

void render_isosurfaces_png(vtkPolyData& iso, vtkPolyData* body, const PictureOptions& o,
                            const std::filesystem::path& png) {
  check_size(o, png);
  auto ren = vtkSmartPointer<vtkRenderer>::New();
  ren->GradientBackgroundOn();
  ren->SetBackground(0.78, 0.80, 0.84);
  ren->SetBackground2(1.0, 1.0, 1.0);

  auto copy = vtkSmartPointer<vtkPolyData>::New();
  copy->ShallowCopy(&iso);
  std::string field = o.color_by;
  if (field.empty()) {
    auto* pd = copy->GetPointData();
    for (int i = 0; i < pd->GetNumberOfArrays() && field.empty(); ++i) {
      const char* n = pd->GetArrayName(i);
      if (n && std::string(n) != "isosurface" && std::string(n) != "Normals") field = n;
    }
    if (field.empty() && pd->GetArray("isosurface")) field = "isosurface";
  }
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(copy);
  vtkSmartPointer<vtkScalarBarActor> bar;
  if (!field.empty() && copy->GetNumberOfPoints() > 0) {
    const auto c = colour_by(*copy, parse_field_choice(field, "--color-by '" + field + "'"), o,
                             "--color-by '" + field + "'");
    mapper->SetLookupTable(c.ctf);
    mapper->UseLookupTableScalarRangeOn();
    mapper->SetScalarModeToUsePointData();
    mapper->ScalarVisibilityOn();
    bar = colour_bar(c.ctf, c.label);
  } else {
    mapper->ScalarVisibilityOff();
  }
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetSpecular(0.2);
  actor->GetProperty()->SetSpecularPower(15);
  actor->GetProperty()->SetColor(0.85, 0.55, 0.25);  // used when there is nothing to colour by
  ren->AddActor(actor);
  if (body) ren->AddActor(body_actor(*body, false));
  if (bar) ren->AddActor2D(bar);

  Box data = bounds_of(*copy);
  if (body && body->GetNumberOfPoints() > 0 && !valid(data)) data = bounds_of(*body);
  Box body_box = body && body->GetNumberOfPoints() > 0 ? bounds_of(*body) : Box{1, 0, 1, 0, 1, 0};
  // The wake box may reach beyond the isosurfaces' bounds (a short wake): clip to the union.
  if (valid(body_box))
    for (int i = 0; i < 3; ++i) {
      data[2 * i] = std::min(data[2 * i], body_box[2 * i]);
      data[2 * i + 1] = std::max(data[2 * i + 1], body_box[2 * i + 1]);
    }
  const Box box = o.box ? *o.box : wake_box(body_box, data, false);

  // An oblique view from upstream, above and beside the span, so the wake's structures and
  // the body both show; ResetCamera then fits the box.
  auto* cam = ren->GetActiveCamera();
  const double fc[3] = {0.5 * (box[0] + box[1]), 0.5 * (box[2] + box[3]), 0.5 * (box[4] + box[5])};
  cam->SetFocalPoint(fc);
  cam->SetPosition(fc[0] - 0.45, fc[1] + 0.55, fc[2] + 1.0);
  cam->SetViewUp(0, 1, 0);
  ren->ResetCamera(box[0], box[1], box[2], box[3], box[4], box[5]);
  cam->Zoom(1.5);
  ren->ResetCameraClippingRange();
  write_png(ren, o, png);
}

void render_field_png(vtkDataSet& volume, vtkPolyData* body, const PictureOptions& o,
                      const std::filesystem::path& png) {
  check_size(o, png);
  std::string field = o.color_by;
  if (field.empty()) {
    auto* v = volume.GetPointData()->GetArray("vorticity");
    if (v && v->GetNumberOfComponents() == 3) field = "vorticity:z";
    else if (v) field = "vorticity";
    else if (volume.GetPointData()->GetNumberOfArrays() > 0 &&
             volume.GetPointData()->GetArrayName(0))
      field = volume.GetPointData()->GetArrayName(0);
    else
      throw UserError(png.string() + ": the data set has no point fields to colour by");
  }
  const auto choice = parse_field_choice(field, "--color-by '" + field + "'");
  auto* array = detail::find_point_array(volume, choice, "--color-by '" + field + "'");
  // Linear pieces sampled from the high-order cells, so the map follows the solution inside
  // each element; only the colouring array is carried.
  auto pieces = detail::linear_pieces(volume, o.subdivisions, {array});
  const Box body_box = body && body->GetNumberOfPoints() > 0 ? bounds_of(*body) : Box{1, 0, 1, 0, 1, 0};
  const Box box = o.box ? *o.box : wake_box(body_box, bounds_of(volume), true);
  const auto c = colour_by(*pieces, choice, o, "--color-by '" + field + "'",
                           area_weights(*pieces, box));

  auto ren = vtkSmartPointer<vtkRenderer>::New();
  ren->SetBackground(1, 1, 1);
  auto mapper = vtkSmartPointer<vtkDataSetMapper>::New();
  mapper->SetInputData(pieces);
  mapper->SetLookupTable(c.ctf);
  mapper->UseLookupTableScalarRangeOn();
  mapper->SetScalarModeToUsePointData();
  mapper->InterpolateScalarsBeforeMappingOn();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->LightingOff();
  ren->AddActor(actor);
  if (body && body->GetNumberOfPoints() > 0) {
    auto a = body_actor(*body, true);
    // Slightly in front of the plane, so the outline is not hidden by the map.
    a->SetPosition(0, 0, 1e-3 * std::max(1.0, std::abs(bounds_of(volume)[1] - bounds_of(volume)[0])));
    ren->AddActor(a);
  }
  ren->AddActor2D(colour_bar(c.ctf, c.label));

  auto* cam = ren->GetActiveCamera();
  cam->ParallelProjectionOn();
  const double fc[3] = {0.5 * (box[0] + box[1]), 0.5 * (box[2] + box[3]), 0.0};
  cam->SetFocalPoint(fc);
  cam->SetPosition(fc[0], fc[1], 1.0);
  cam->SetViewUp(0, 1, 0);
  ren->ResetCamera(bounds_of(volume).data());
  // Fit the box: the parallel scale is half the visible height; leave room for the bar.
  const double aspect = double(o.width) / o.height;
  const double half_h = std::max(0.5 * (box[3] - box[2]), 0.5 * (box[1] - box[0]) / aspect);
  cam->SetFocalPoint(fc);
  cam->SetPosition(fc[0], fc[1], cam->GetDistance());
  cam->SetParallelScale(1.15 * std::max(half_h, 1e-12));
  ren->ResetCameraClippingRange();
  write_png(ren, o, png);
}

}  // namespace frmini::render
