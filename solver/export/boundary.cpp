// The boundary surface: every face of one named boundary sampled on its own lattice, with the
// wall quantities cp and cf.
#include <algorithm>
#include <cmath>

#include <vtkCellArray.h>
#include <vtkPoints.h>

#include "base/error.hpp"
#include "operators/shapes.hpp"
#include "solver/export/cells.hpp"
#include "solver/export/export_vtk.hpp"
#include "solver/export/sampling.hpp"
#include "solver/system/geometry.hpp"

namespace frmini::solver::exporter {

namespace {

// Unit outward normal at reference point x of element e: cof(J) n^, cof(J) = |J| J^-T, with J
// from the mesh's shape functions (curved faces included).
std::array<double, 3> unit_normal(const meshes::ElementGroup& grp, int nd,
                                  const operators::Matrix& jac, std::size_t x, int64_t e,
                                  const std::vector<double>& nref) {
  const std::size_t nn = std::size_t(grp.nnodes), np = jac.cols;
  (void)np;
  double J[3][3] = {};
  const double* nodes = grp.nodes.data() + std::size_t(e) * nn * std::size_t(nd);
  for (int k = 0; k < nd; ++k)
    for (std::size_t u = 0; u < nn; ++u) {
      const double d = jac(std::size_t(k) * nn + u, x);
      for (int c = 0; c < nd; ++c) J[c][k] += d * nodes[u * std::size_t(nd) + std::size_t(c)];
    }
  std::array<double, 3> n{};
  if (nd == 2) {
    const double cof[2][2] = {{J[1][1], -J[1][0]}, {-J[0][1], J[0][0]}};
    for (int i = 0; i < 2; ++i) n[i] = cof[i][0] * nref[0] + cof[i][1] * nref[1];
  } else {
    double cof[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        cof[i][j] = J[i1][j1] * J[i2][j2] - J[i1][j2] * J[i2][j1];
      }
    for (int i = 0; i < 3; ++i) n[i] = cof[i][0] * nref[0] + cof[i][1] * nref[1] + cof[i][2] * nref[2];
  }
  const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (double& v : n) v /= len;
  return n;
}

}  // namespace

vtkSmartPointer<vtkPolyData> boundary_surface(const SolutionContext& ctx,
                                              const SolutionFile& soln,
                                              const ExportOptions& opts,
                                              const BoundaryOptions& bopts) {
  check_fields(opts.fields);
  const ReferenceState ref = check_boundary(ctx, bopts);
  const auto& bnames = ctx.mesh.boundaries;
  const int bidx = int(std::find(bnames.begin(), bnames.end(), bopts.name) - bnames.begin());
  const double pinf = ref.pinf, qinf = ref.qinf();

  const int k = opts.divisor > 0 ? opts.divisor : (opts.order > 0 ? opts.order : std::max(soln.order, 1));
  const bool primitive = soln.variables == "primitive-mean";
  const int nd = ctx.mesh.ndims;
  const auto& ph = ctx.phys;
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  PointArrays arrays(opts.fields, ph.gamma, gas_constant(ctx, opts));
  auto mk = [](const char* name, int nc) {
    auto a = vtkSmartPointer<vtkDoubleArray>::New();
    a->SetName(name);
    a->SetNumberOfComponents(nc);
    return a;
  };
  auto cp = mk("cp", 1), cf = mk("cf", 3), cfmag = mk("cf-mag", 1), normal = mk("normal", 3);
  std::vector<double> q, grad;
  std::vector<vtkIdType> ids;
  for (std::size_t g = 0; g < ctx.mesh.groups.size(); ++g) {
    const auto& grp = ctx.mesh.groups[g];
    bool any = false;
    for (const auto& l : grp.faces) any = any || (l.kind == meshes::FaceLink::boundary && l.index == bidx);
    if (!any) continue;
    const GroupSolution gs = group_solution(ctx, soln, g);
    const auto& shp = operators::shape(grp.etype);
    const operators::NodalBasis geob = operators::geometry_basis(grp.etype, grp.order);
    for (int f = 0; f < grp.nfaces; ++f) {
      const CellSet fc = face_cells(shp.faces[std::size_t(f)].kind, k);
      const operators::Matrix X = operators::project_face(grp.etype, f, fc.pts);
      const operators::Matrix B = gs.basis->at(X), jac = geob.jac_at(X);
      std::vector<double> ploc;  // computed once per face number, when first needed
      const std::size_t ne = std::size_t(grp.neles);
      for (int64_t e = 0; e < grp.neles; ++e) {
        const auto& l = grp.link(e, f);
        if (l.kind != meshes::FaceLink::boundary || l.index != bidx) continue;
        if (ploc.empty()) ploc = ploc_at(grp, nd, X);
        sample(gs, B, e, q, grad);
        const vtkIdType base = points->GetNumberOfPoints();
        for (std::size_t n = 0; n < X.rows; ++n) {
          double x[3] = {0, 0, 0};
          for (int c = 0; c < nd; ++c) x[c] = ploc[(n * std::size_t(nd) + std::size_t(c)) * ne + std::size_t(e)];
          points->InsertNextPoint(x);
          const PointState s = point_state(&q[n * std::size_t(gs.nvars)],
                                           &grad[n * std::size_t(nd * gs.nvars)], nd, primitive,
                                           ph.gamma);
          arrays.append(s);
          const auto nrm = unit_normal(grp, nd, jac, n, e, shp.faces[std::size_t(f)].normal);
          const double mu = viscosity(s, ph.viscous() ? ph.mu : 0.0, ph.gamma, ph.sutherland,
                                      ph.cptref, ph.cpts);
          const auto c = skin_friction(s, nrm, mu, qinf);
          cp->InsertNextValue((s.p - pinf) / qinf);
          cf->InsertNextTuple(c.data());
          cfmag->InsertNextValue(std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]));
          normal->InsertNextTuple(nrm.data());
        }
        for (const auto& conn : fc.conn) {
          ids.clear();
          for (int i : conn) ids.push_back(base + i);
          cells->InsertNextCell(vtkIdType(ids.size()), ids.data());
        }
      }
    }
  }
  poly->SetPoints(points);
  if (nd == 2) poly->SetLines(cells);
  else poly->SetPolys(cells);
  arrays.attach(poly->GetPointData());
  for (auto* a : {cp.Get(), cf.Get(), cfmag.Get(), normal.Get()}) poly->GetPointData()->AddArray(a);
  return poly;
}

long write_boundary(const std::string& path, const SolutionContext& ctx,
                    const SolutionFile& soln, const ExportOptions& opts,
                    const BoundaryOptions& bopts) {
  auto poly = boundary_surface(ctx, soln, opts, bopts);
  write_vtp(path, poly);
  return long(poly->GetNumberOfCells());
}

}  // namespace frmini::solver::exporter
