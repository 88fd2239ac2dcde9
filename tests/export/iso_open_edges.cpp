// usage: iso_open_edges ISO.vtp VOLUME.vtu WALL_RADIUS MAX_PERCENT
// The open edges of an isosurface (edges of exactly one triangle, vtkFeatureEdges' boundary
// edges) away from the domain's boundaries: a closed surface has them only where it meets the
// domain's boundary, so the others are slits. The domain is the cylinder demo's: the volume's
// bounding box (far field, span ends) and a cylinder of WALL_RADIUS about the z axis (the
// wall). Prints the counts; exit status 1 when the open edges away from the boundaries are more
// than MAX_PERCENT of the triangles, 2 on a usage or file error.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <vtkCellArray.h>
#include <vtkFeatureEdges.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLUnstructuredGridReader.h>

namespace {

// Whether x lies on the domain's boundary: a face of the box (to 1e-6 of its size) or the
// wall, to 2e-3 of its radius: the demo's quadratic wall faces stray up to 3e-4 R from the
// circle between their nodes, and the isosurface's first points off the wall (the contoured
// pieces' first layer) are 3e-2 R out.
struct Domain {
  double box[6];
  double wall_radius;
  bool on_boundary(const double x[3]) const {
    const double size = std::max({box[1] - box[0], box[3] - box[2], box[5] - box[4]});
    for (int d = 0; d < 3; ++d)
      if (std::abs(x[d] - box[2 * d]) < 1e-6 * size ||
          std::abs(x[d] - box[2 * d + 1]) < 1e-6 * size)
        return true;
    return std::abs(std::hypot(x[0], x[1]) - wall_radius) < 2e-3 * wall_radius;
  }
};

template <class Reader>
vtkSmartPointer<Reader> read(const char* path) {
  auto r = vtkSmartPointer<Reader>::New();
  r->SetFileName(path);
  r->Update();
  if (r->GetErrorCode() != 0 || !r->GetOutputAsDataSet() ||
      r->GetOutputAsDataSet()->GetNumberOfPoints() == 0) {
    std::fprintf(stderr, "iso_open_edges: %s: cannot read it, or it is empty\n", path);
    std::exit(2);
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: iso_open_edges ISO.vtp VOLUME.vtu WALL_RADIUS MAX_PERCENT\n");
    return 2;
  }
  auto iso = read<vtkXMLPolyDataReader>(argv[1]);
  auto volume = read<vtkXMLUnstructuredGridReader>(argv[2]);
  Domain dom{};
  volume->GetOutput()->GetBounds(dom.box);
  dom.wall_radius = std::atof(argv[3]);
  const double max_percent = std::atof(argv[4]);

  // Boundary edges only: an edge of one polygon. (Feature, manifold and non-manifold edges off.)
  auto edges = vtkSmartPointer<vtkFeatureEdges>::New();
  edges->SetInputData(iso->GetOutput());
  edges->BoundaryEdgesOn();
  edges->FeatureEdgesOff();
  edges->ManifoldEdgesOff();
  edges->NonManifoldEdgesOff();
  edges->ColoringOff();
  edges->Update();
  vtkPolyData* open = edges->GetOutput();

  long inside = 0, on_boundary = 0;
  auto lines = open->GetLines();
  lines->InitTraversal();
  vtkIdType npts = 0;
  const vtkIdType* pts = nullptr;
  while (lines->GetNextCell(npts, pts)) {
    double a[3], b[3];
    open->GetPoint(pts[0], a);
    open->GetPoint(pts[npts - 1], b);
    if (dom.on_boundary(a) && dom.on_boundary(b)) ++on_boundary;
    else ++inside;
  }
  const long triangles = long(iso->GetOutput()->GetNumberOfPolys());
  const double percent = triangles > 0 ? 100.0 * double(inside) / double(triangles) : 0.0;
  std::printf("%s: %ld triangles, %ld open edges away from the boundaries (%.2f %%), %ld on them\n",
              argv[1], triangles, inside, percent, on_boundary);
  if (triangles == 0 || percent > max_percent) {
    std::printf("FAIL: more than %g %% open edges away from the boundaries (or no triangles)\n",
                max_percent);
    return 1;
  }
  return 0;
}
