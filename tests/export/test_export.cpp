// frmini export: the written files read back with VTK's readers and compared with exact or
// analytic answers (cell types and counts, node placement in VTK's order, polynomial fields,
// solid-body rotation, wall quantities, the .pvd collection, mesh mismatch).
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <functional>

#include <vtkCell.h>
#include <vtkCellTypes.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkSmartPointer.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLUnstructuredGridReader.h>
#include <vtkXMLUtilities.h>

#include "base/error.hpp"
#include "meshes/mesh_file.hpp"
#include "operators/operators.hpp"
#include "solver/export/export_vtk.hpp"
#include "solver/system/gradients.hpp"
#include "tests/export/export_fields.hpp"
#include "tests/export/export_meshes.hpp"
#include "tests/frmini_catch.hpp"

namespace fs = std::filesystem;
using namespace frmini;
using frmini::test::make_context;
using frmini::test::make_solution;
using frmini::test::poly;
using frmini::test::kGamma;
using frmini::test::Prim;
using frmini::test::single_type_mesh;
namespace ex = frmini::solver::exporter;

namespace {

// A per-process scratch folder, removed at exit.
const fs::path& scratch() {
  static struct Dir {
    fs::path p = fs::temp_directory_path() / ("frmini-export-test-" + std::to_string(::getpid()));
    Dir() { fs::create_directories(p); }
    ~Dir() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } d;
  return d.p;
}

vtkSmartPointer<vtkUnstructuredGrid> write_and_read(const ex::SolutionContext& c,
                                                    const solver::SolutionFile& s,
                                                    const ex::ExportOptions& o) {
  const fs::path p = scratch() / "volume.vtu";
  ex::write_volume(p.string(), c, s, o);
  vtkNew<vtkXMLUnstructuredGridReader> r;
  r->SetFileName(p.string().c_str());
  r->Update();
  vtkSmartPointer<vtkUnstructuredGrid> g = r->GetOutput();
  REQUIRE(g);
  return g;
}

int count_type(vtkUnstructuredGrid* g, int type) {
  int n = 0;
  for (vtkIdType c = 0; c < g->GetNumberOfCells(); ++c) n += g->GetCellType(c) == type;
  return n;
}

double tet_volume(const double* a, const double* b, const double* c, const double* d) {
  double u[3], v[3], w[3];
  for (int i = 0; i < 3; ++i) u[i] = b[i] - a[i], v[i] = c[i] - a[i], w[i] = d[i] - a[i];
  return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
          u[2] * (v[0] * w[1] - v[1] * w[0])) / 6.0;
}

// Signed volume of a linear tet or pyramid (planar base: two tets), from its points.
double linear_volume(vtkUnstructuredGrid* g, vtkIdType c) {
  vtkCell* cell = g->GetCell(c);
  std::vector<std::array<double, 3>> x(std::size_t(cell->GetNumberOfPoints()));
  for (std::size_t i = 0; i < x.size(); ++i) cell->GetPoints()->GetPoint(vtkIdType(i), x[i].data());
  if (cell->GetCellType() == VTK_TETRA) return tet_volume(x[0].data(), x[1].data(), x[2].data(), x[3].data());
  REQUIRE(cell->GetCellType() == VTK_PYRAMID);
  return tet_volume(x[0].data(), x[1].data(), x[2].data(), x[4].data()) +
         tet_volume(x[0].data(), x[2].data(), x[3].data(), x[4].data());
}

struct Expect {
  std::string etype;
  int lagrange_type, npts_p3;
};
const std::vector<Expect> kLagrange{{"quad", VTK_LAGRANGE_QUADRILATERAL, 16},
                                    {"tri", VTK_LAGRANGE_TRIANGLE, 10},
                                    {"hex", VTK_LAGRANGE_HEXAHEDRON, 64},
                                    {"tet", VTK_LAGRANGE_TETRAHEDRON, 20},
                                    {"pri", VTK_LAGRANGE_WEDGE, 40}};

std::array<double, 5> uniform(double, double, double) { return {1.2, 0.3, -0.1, 0.2, 2.5}; }

}  // namespace

TEST_CASE("Lagrange cells: one per element, VTK's node order at the mapped points", "[export]") {
  for (const auto& ex_ : kLagrange) {
    SECTION(ex_.etype) {
      test::AffineMap map;
      auto ctx = single_type_mesh(ex_.etype, &map);
      auto s = make_solution(ctx.mesh, 3, uniform);
      auto g = write_and_read(ctx, s, {});
      REQUIRE(g->GetNumberOfCells() == 2);
      REQUIRE(count_type(g, ex_.lagrange_type) == 2);
      for (vtkIdType c = 0; c < 2; ++c) {
        vtkCell* cell = g->GetCell(c);
        REQUIRE(cell->GetNumberOfPoints() == ex_.npts_p3);
        // VTK's own parametric coordinates r in [0,1] of each node must be where the node is:
        // x = map(2r - 1 + shift).
        double* pc = cell->GetParametricCoords();
        REQUIRE(pc);
        const bool is3d = cell->GetCellDimension() == 3;
        for (int i = 0; i < ex_.npts_p3; ++i) {
          std::array<double, 3> xi{2 * pc[3 * i] - 1 + 2.0 * double(c), 2 * pc[3 * i + 1] - 1,
                                   is3d ? 2 * pc[3 * i + 2] - 1 : 0.0};
          // Element order in the file follows the mesh group's: find which element this is by
          // its first node.
          auto want = map(xi);
          double x[3];
          cell->GetPoints()->GetPoint(i, x);
          if (i == 0 && std::abs(x[0] - want[0]) > 1e-9) {
            xi[0] -= 4.0 * double(c) - 2.0;  // the other element
            want = map(xi);
          }
          for (int d = 0; d < 3; ++d) REQUIRE(x[d] == Catch::Detail::Approx(want[std::size_t(d)]).margin(1e-12));
        }
      }
    }
  }
}

TEST_CASE("pyramids: linear pyramids and tets filling the element", "[export]") {
  auto ctx = single_type_mesh("pyr");
  for (int p : {1, 2, 3}) {
    auto s = make_solution(ctx.mesh, p, uniform);
    auto g = write_and_read(ctx, s, {});
    int npyr = 0, ntet = 0;
    for (int l = 0; l < p; ++l) {
      npyr += (p - l) * (p - l) + (p - l - 1) * (p - l - 1);
      ntet += 2 * (p - l) * (p - l - 1);
    }
    REQUIRE(count_type(g, VTK_PYRAMID) == 2 * npyr);
    REQUIRE(count_type(g, VTK_TETRA) == 2 * ntet);
    REQUIRE(g->GetNumberOfCells() == 2 * (npyr + ntet));
    // Sub-cells all positively oriented and their volumes adding up to the elements':
    // 2 x (8/3) x det(A).
    double vol = 0;
    for (vtkIdType c = 0; c < g->GetNumberOfCells(); ++c) {
      const double v = linear_volume(g, c);
      REQUIRE(v > 0);
      vol += v;
    }
    const double detA = 1.3 * (0.9 * 1.1 + 0.2 * 0.3) - 0.2 * (-0.1 * 1.1 - 0.3 * 0.05) +
                        0.1 * (-0.1 * -0.2 - 0.9 * 0.05);
    REQUIRE(vol == Catch::Detail::Approx(2 * 8.0 / 3.0 * detA).epsilon(1e-12));
  }
}

TEST_CASE("divisor: linear sub-cells, N per edge", "[export]") {
  struct D {
    std::string etype;
    int type, per_element;  // at N = 2
  };
  for (const D& d : std::vector<D>{{"quad", VTK_QUAD, 4}, {"tri", VTK_TRIANGLE, 4},
                                   {"hex", VTK_HEXAHEDRON, 8}, {"tet", VTK_TETRA, 8},
                                   {"pri", VTK_WEDGE, 8}}) {
    SECTION(d.etype) {
      auto ctx = single_type_mesh(d.etype);
      auto s = make_solution(ctx.mesh, 2, uniform);
      ex::ExportOptions o;
      o.divisor = 2;
      auto g = write_and_read(ctx, s, o);
      REQUIRE(g->GetNumberOfCells() == 2 * d.per_element);
      REQUIRE(count_type(g, d.type) == 2 * d.per_element);
      if (d.etype == "tet") {
        double vol = 0;
        for (vtkIdType c = 0; c < g->GetNumberOfCells(); ++c) {
          REQUIRE(linear_volume(g, c) > 0);
          vol += linear_volume(g, c);
        }
        const double detA = 1.3 * (0.9 * 1.1 + 0.2 * 0.3) - 0.2 * (-0.1 * 1.1 - 0.3 * 0.05) +
                            0.1 * (-0.1 * -0.2 - 0.9 * 0.05);
        REQUIRE(vol == Catch::Detail::Approx(2 * 8.0 / 6.0 * detA).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("a polynomial density of the solution's degree is exact at the output nodes", "[export]") {
  std::vector<std::string> types{"quad", "tri", "hex", "tet", "pri", "pyr", "mixed"};
  for (const auto& et : types) {
    SECTION(et) {
      ex::SolutionContext ctx =
          et == "mixed"
              ? make_context(test::test_mesh(3, {{"hex", {0, 0, 0}}, {"pyr", {0, 0, 2}}}, {}))
              : single_type_mesh(et);
      for (int p : {1, 2, 3}) {
        auto s = make_solution(ctx.mesh, p, [p](double x, double y, double z) {
          return std::array<double, 5>{poly(x, y, z, p), 0.1, 0.2, 0.0, 1.0};
        });
        for (int div : {0, 2, -4}) {  // -4: Lagrange cells of order 4 (--order 4)
          ex::ExportOptions o;
          if (div > 0) o.divisor = div;
          else if (div < 0) o.order = -div;
          o.fields = {"rho"};
          auto g = write_and_read(ctx, s, o);
          vtkDataArray* rho = g->GetPointData()->GetArray("rho");
          REQUIRE(rho);
          REQUIRE(g->GetPointData()->GetNumberOfArrays() == 1);
          REQUIRE(g->GetNumberOfPoints() > 0);
          double err = 0;
          for (vtkIdType i = 0; i < g->GetNumberOfPoints(); ++i) {
            double x[3];
            g->GetPoint(i, x);
            err = std::max(err, std::abs(rho->GetTuple1(i) - poly(x[0], x[1], x[2], p)));
          }
          INFO("order " << p << " divisor " << div);
          REQUIRE(err < 1e-12);
        }
      }
    }
  }
}

TEST_CASE("solid-body rotation: vorticity 2 Omega, Q = Omega^2, T and Mach", "[export]") {
  const double om = 0.7, rho0 = 1.3, p0 = 5.0;
  auto rot = [&](double x, double y, double) {
    return std::array<double, 5>{rho0, -om * y, om * x, 0.0, p0};
  };
  for (const std::string et : {"quad", "tri", "hex", "tet", "pri", "pyr"}) {
    for (bool mean : {false, true}) {
      SECTION(et + (mean ? " primitive-mean" : " conserved")) {
        auto ctx = single_type_mesh(et);
        auto s = make_solution(ctx.mesh, 2, rot, mean);
        ex::ExportOptions o;
        o.R = 2.0;
        auto g = write_and_read(ctx, s, o);
        auto* pd = g->GetPointData();
        for (const auto& n : ex::field_names()) REQUIRE(pd->GetArray(n.c_str()));
        REQUIRE(pd->GetArray("velocity")->GetNumberOfComponents() == 3);
        REQUIRE(pd->GetArray("vorticity")->GetNumberOfComponents() == 3);
        for (vtkIdType i = 0; i < g->GetNumberOfPoints(); ++i) {
          double x[3], w[3], v[3];
          g->GetPoint(i, x);
          pd->GetArray("vorticity")->GetTuple(i, w);
          pd->GetArray("velocity")->GetTuple(i, v);
          REQUIRE(std::abs(w[0]) < 1e-10);
          REQUIRE(std::abs(w[1]) < 1e-10);
          REQUIRE(std::abs(w[2] - 2 * om) < 1e-10);
          REQUIRE(std::abs(pd->GetArray("vorticity-mag")->GetTuple1(i) - 2 * om) < 1e-10);
          REQUIRE(std::abs(pd->GetArray("qcrit")->GetTuple1(i) - om * om) < 1e-10);
          REQUIRE(std::abs(v[0] + om * x[1]) < 1e-12);
          REQUIRE(std::abs(v[1] - om * x[0]) < 1e-12);
          REQUIRE(v[2] == 0.0);
          REQUIRE(std::abs(pd->GetArray("p")->GetTuple1(i) - p0) < 1e-12);
          REQUIRE(std::abs(pd->GetArray("T")->GetTuple1(i) - p0 / (rho0 * 2.0)) < 1e-12);
          const double c = std::sqrt(kGamma * p0 / rho0);
          REQUIRE(std::abs(pd->GetArray("mach")->GetTuple1(i) -
                           om * std::hypot(x[0], x[1]) / c) < 1e-12);
        }
      }
    }
  }
}

TEST_CASE("boundary surface: cp of a uniform state, outward normals, face counts", "[export]") {
  for (const std::string et : {"quad", "tri", "hex", "tet", "pri", "pyr"}) {
    SECTION(et) {
      // One element (convex, so outward normals point away from its centre).
      test::AffineMap map;
      single_type_mesh(et, &map);
      const int nd = (et == "quad" || et == "tri") ? 2 : 3;
      auto ctx = make_context(test::test_mesh(nd, {{et, {0, 0, 0}}}, map));
      auto s = make_solution(ctx.mesh, 2, uniform);
      ex::BoundaryOptions b;
      b.name = "wall";
      b.pinf = 2.0;  // flag beats [constants] Pinf = 3; Uinf = 2 from [constants]
      const fs::path p = scratch() / "wall.vtp";
      const long n = ex::write_boundary(p.string(), ctx, s, {}, b);
      vtkNew<vtkXMLPolyDataReader> r;
      r->SetFileName(p.string().c_str());
      r->Update();
      vtkPolyData* g = r->GetOutput();
      REQUIRE(g->GetNumberOfCells() == n);
      // Every face is on the wall; each at order 2 gives 1 polyline (2D), 4 triangles or 4
      // quads.
      const long nfaces = ctx.mesh.groups.at(0).nfaces;
      const bool is2d = ctx.mesh.ndims == 2;
      REQUIRE(n == nfaces * (is2d ? 1 : 4));
      if (is2d) REQUIRE(g->GetNumberOfLines() == n);
      else REQUIRE(g->GetNumberOfPolys() == n);
      const double cp = (2.5 - 2.0) / (0.5 * 1.0 * 2.0 * 2.0);
      double centre[3] = {0, 0, 0};
      for (vtkIdType i = 0; i < g->GetNumberOfPoints(); ++i)
        for (int d = 0; d < 3; ++d) centre[d] += g->GetPoint(i)[d] / double(g->GetNumberOfPoints());
      for (vtkIdType i = 0; i < g->GetNumberOfPoints(); ++i) {
        REQUIRE(std::abs(g->GetPointData()->GetArray("cp")->GetTuple1(i) - cp) < 1e-12);
        REQUIRE(g->GetPointData()->GetArray("cf-mag")->GetTuple1(i) == 0.0);
        double nrm[3], x[3];
        g->GetPointData()->GetArray("normal")->GetTuple(i, nrm);
        g->GetPoint(i, x);
        REQUIRE(std::abs(std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]) - 1) < 1e-12);
        REQUIRE((x[0] - centre[0]) * nrm[0] + (x[1] - centre[1]) * nrm[1] + (x[2] - centre[2]) * nrm[2] > 0);
      }
    }
  }
}

TEST_CASE("boundary surface: skin friction of a shear flow", "[export]") {
  // u = g y on axis-aligned hexes: tau_xy = mu g; the fluid's pull on a wall with outward
  // (from the fluid) normal n is -tau.n, whose tangential part over q_inf is cf.
  const double gam = 0.8, mu = 0.05;
  auto ctx = make_context(test::test_mesh(3, {{"hex", {0, 0, 0}}}, {}));
  ctx.phys.system = "navier-stokes";
  ctx.phys.mu = mu;
  auto s = make_solution(ctx.mesh, 2, [&](double, double y, double) {
    return std::array<double, 5>{1.0, gam * y, 0.0, 0.0, 4.0};
  });
  ex::BoundaryOptions b;
  b.name = "wall";
  auto poly = ex::boundary_surface(ctx, s, {}, b);
  const double qinf = 0.5 * 2.0 * 2.0;
  auto* pd = poly->GetPointData();
  for (vtkIdType i = 0; i < poly->GetNumberOfPoints(); ++i) {
    double n[3], cf[3];
    pd->GetArray("normal")->GetTuple(i, n);
    pd->GetArray("cf")->GetTuple(i, cf);
    double t[3] = {-mu * gam * n[1], -mu * gam * n[0], 0.0};
    const double tn = t[0] * n[0] + t[1] * n[1] + t[2] * n[2];
    for (int d = 0; d < 3; ++d) REQUIRE(std::abs(cf[d] - (t[d] - tn * n[d]) / qinf) < 1e-12);
  }
  // On the bottom face (n = -y) the fluid drags the wall in +x with mu g.
  bool seen = false;
  for (vtkIdType i = 0; i < poly->GetNumberOfPoints(); ++i) {
    double n[3], cf[3];
    pd->GetArray("normal")->GetTuple(i, n);
    pd->GetArray("cf")->GetTuple(i, cf);
    if (n[1] < -0.999) {
      seen = true;
      REQUIRE(std::abs(cf[0] - mu * gam / qinf) < 1e-12);
    }
  }
  REQUIRE(seen);
}

TEST_CASE("boundary errors: unknown boundary, no reference state", "[export]") {
  auto ctx = single_type_mesh("quad");
  ex::BoundaryOptions b;
  b.name = "cylinder";
  REQUIRE_THROWS_WITH(ex::check_boundary(ctx, b), Catch::Contains("no boundary 'cylinder'"));
  b.name = "wall";
  ctx.constants.clear();
  REQUIRE_THROWS_WITH(ex::check_boundary(ctx, b), Catch::Contains("Uinf"));
  b.uinf = 1;
  b.pinf = 0;
  REQUIRE(ex::check_boundary(ctx, b).rhoinf == 1.0);
}

TEST_CASE(".pvd collection lists the files with their times", "[export]") {
  const fs::path p = scratch() / "series.pvd";
  ex::write_pvd(p.string(), {{0.0, "a.vtu"}, {0.1, "b.vtu"}, {2.5, "c.vtu"}});
  REQUIRE(!fs::exists(p.string() + ".tmp-" + std::to_string(::getpid())));
  vtkSmartPointer<vtkXMLDataElement> root;
  root.TakeReference(vtkXMLUtilities::ReadElementFromFile(p.string().c_str()));
  REQUIRE(root);
  REQUIRE(std::string(root->GetName()) == "VTKFile");
  REQUIRE(std::string(root->GetAttribute("type")) == "Collection");
  vtkXMLDataElement* coll = root->FindNestedElementWithName("Collection");
  REQUIRE(coll);
  REQUIRE(coll->GetNumberOfNestedElements() == 3);
  const char* files[] = {"a.vtu", "b.vtu", "c.vtu"};
  const double times[] = {0.0, 0.1, 2.5};
  for (int i = 0; i < 3; ++i) {
    vtkXMLDataElement* d = coll->GetNestedElement(i);
    REQUIRE(std::string(d->GetName()) == "DataSet");
    REQUIRE(std::string(d->GetAttribute("file")) == files[i]);
    REQUIRE(std::stod(d->GetAttribute("timestep")) == times[i]);  // exact
  }
}

TEST_CASE("the mesh must be the solution's", "[export]") {
  auto ctx = single_type_mesh("quad");
  const fs::path mp = scratch() / "m.h5";
  meshes::write_mesh(mp.string(), ctx.mesh);
  auto s = make_solution(ctx.mesh, 1, uniform);
  s.config_text = "[mesh]\nfile = \"m.h5\"\n[time]\ndt = 0.1\ntend = 1\n[ics]\nrho = 1\nu = 0\nv = 0\np = 1\n";
  s.config_name = (scratch() / "case.toml").string();
  // The case's mesh, relative to the case file's directory, and the same given with --mesh.
  auto c = ex::load_solution_context(s, "soln.h5", "");
  REQUIRE(c.mesh.uuid == ctx.mesh.uuid);
  REQUIRE(c.phys.gamma == 1.4);
  REQUIRE(ex::mesh_for_solution(s, mp.string()).uuid == ctx.mesh.uuid);
  s.mesh_uuid = "00000000-0000-0000-0000-000000000000";
  REQUIRE_THROWS_AS(ex::load_solution_context(s, "soln.h5", mp.string()), UserError);
  REQUIRE_THROWS_WITH(ex::load_solution_context(s, "soln.h5", mp.string()),
                      Catch::Contains("soln.h5: solution is for mesh 00000000"));
  REQUIRE_THROWS_WITH(ex::load_solution_context(s, "soln.h5", "nosuch.h5"),
                      Catch::Contains("nosuch.h5"));
}

TEST_CASE("unknown fields are refused", "[export]") {
  REQUIRE_NOTHROW(ex::check_fields({"rho", "qcrit"}));
  REQUIRE_THROWS_WITH(ex::check_fields({"rho", "density"}), Catch::Contains("unknown field 'density'"));
}

TEST_CASE("upts_gradients: the exact gradient of a cubic on affine elements", "[export]") {
  // d poly(x, y, z, 3) / d(x, y, z), by hand.
  auto dpoly = [](double x, double y, double z) {
    return std::array<double, 3>{
        0.3 + 0.05 * y + 0.06 * x + 0.01 * y * z - 0.06 * x * x + 0.015 * y * y,
        -0.2 + 0.05 * x + 0.02 * z + 0.01 * x * z + 0.03 * x * y,
        0.1 - 0.08 * z + 0.02 * y + 0.01 * x * y + 0.03 * z * z};
  };
  for (const std::string et : {"quad", "tri", "hex", "tet", "pri", "pyr"}) {
    SECTION(et) {
      auto ctx = single_type_mesh(et);
      const auto& g = ctx.mesh.groups.at(0);
      const int nd = ctx.mesh.ndims, p = 3;
      const auto ops = operators::build_operators(et, p);
      const auto geo = solver::compute_geometry(g, nd, ops);
      const auto ploc = solver::ploc_at(g, nd, ops.upts);
      const std::size_t ne = std::size_t(g.neles), nu = std::size_t(ops.nupts);
      auto xyz = [&](std::size_t e, std::size_t i) {
        std::array<double, 3> x{};
        for (int c = 0; c < nd; ++c) x[std::size_t(c)] = ploc[(i * std::size_t(nd) + std::size_t(c)) * ne + e];
        return x;
      };
      // Two variables: f = poly and 2 f, so the variable index is exercised too.
      std::vector<double> u(ne * 2 * nu);
      for (std::size_t e = 0; e < ne; ++e)
        for (std::size_t i = 0; i < nu; ++i) {
          const auto x = xyz(e, i);
          u[(e * 2 + 0) * nu + i] = poly(x[0], x[1], x[2], p);
          u[(e * 2 + 1) * nu + i] = 2 * poly(x[0], x[1], x[2], p);
        }
      const auto grad = solver::upts_gradients(ops, geo, u, 2);
      REQUIRE(grad.size() == ne * std::size_t(nd) * 2 * nu);
      for (std::size_t e = 0; e < ne; ++e)
        for (std::size_t i = 0; i < nu; ++i) {
          const auto x = xyz(e, i);
          const auto want = dpoly(x[0], x[1], x[2]);
          for (std::size_t j = 0; j < std::size_t(nd); ++j)
            for (std::size_t v = 0; v < 2; ++v)
              REQUIRE(std::abs(grad[((e * std::size_t(nd) + j) * 2 + v) * nu + i] -
                               double(v + 1) * want[j]) < 1e-12);
        }
    }
  }
}

TEST_CASE("T uses [constants] Rgas unless R is given", "[export]") {
  auto ctx = single_type_mesh("quad");
  auto s = make_solution(ctx.mesh, 1, uniform);  // rho 1.2, p 2.5
  ex::ExportOptions o;
  o.fields = {"T"};
  REQUIRE(write_and_read(ctx, s, o)->GetPointData()->GetArray("T")->GetTuple1(0) ==
          Catch::Detail::Approx(2.5 / 1.2).epsilon(1e-14));
  ctx.constants["Rgas"] = 4.0;
  REQUIRE(write_and_read(ctx, s, o)->GetPointData()->GetArray("T")->GetTuple1(0) ==
          Catch::Detail::Approx(2.5 / (1.2 * 4.0)).epsilon(1e-14));
  o.R = 0.5;
  REQUIRE(write_and_read(ctx, s, o)->GetPointData()->GetArray("T")->GetTuple1(0) ==
          Catch::Detail::Approx(2.5 / (1.2 * 0.5)).epsilon(1e-14));
}
