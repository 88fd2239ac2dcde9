// Interfaces: every face's flux points are paired with the coincident points of the
// neighbouring face (through the periodic shift where periodic), normals are opposite and of
// equal length on conforming curved meshes, and boundary points carry their locations.
#include <cmath>

#include "operators/operators.hpp"
#include "solver/system/interfaces.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/box_mesh.hpp"

using namespace frmini;

namespace {

struct Built {
  meshes::Mesh mesh;
  std::vector<operators::ElementOperators> ops;
  std::vector<solver::GroupGeometry> geos;
  solver::Interfaces ifs;
};

Built build(meshes::Mesh mesh, int p) {
  Built b{std::move(mesh), {}, {}, {}};
  std::vector<std::vector<int>> ff;
  for (const auto& g : b.mesh.groups) {
    b.ops.push_back(operators::build_operators(g.etype, p));
    b.geos.push_back(solver::compute_geometry(g, b.mesh.ndims, b.ops.back()));
    ff.push_back(b.ops.back().fpts_face);
  }
  b.ifs = solver::build_interfaces(b.mesh, b.geos, ff);
  return b;
}

double ploc(const Built& b, const solver::FacePoint& s, int c) {
  const auto& g = b.geos[s.group];
  return g.ploc_fpts[(std::size_t(s.fpt) * g.ndims + c) * g.neles + s.elem];
}
double pnorm(const Built& b, const solver::FacePoint& s, int c) {
  const auto& g = b.geos[s.group];
  return g.pnorm_fpts[(std::size_t(s.fpt) * g.ndims + c) * g.neles + s.elem];
}

}  // namespace

TEST_CASE("periodic curved quads: every flux point is paired with its image") {
  const double L = 2.0;
  auto map = [&](std::array<double, 3> x) {  // keeps y = 0, L and shifts x = 0, L alike
    return std::array<double, 3>{x[0] + 0.05 * std::sin(M_PI * x[1]),
                                 x[1] + 0.05 * std::sin(M_PI * x[0]) * std::sin(M_PI * x[1]), 0};
  };
  for (int p : {0, 1, 3}) {
    INFO("p" << p);
    auto b = build(test::make_box("quad", 4, 0, L, {true, false, false}, 3, map), p);
    const auto& in = b.ifs.internal;
    // 16 cells: 4x4 vertical faces (periodic in x) + 3x4 horizontal ones, p+1 points each.
    CHECK(in.size() == std::size_t((16 + 12) * (p + 1)));
    for (std::size_t i = 0; i < in.size(); ++i) {
      double dx = ploc(b, in.right[i], 0) - ploc(b, in.left[i], 0);
      double dy = ploc(b, in.right[i], 1) - ploc(b, in.left[i], 1);
      CHECK(std::abs(dy) < 1e-12);
      CHECK((std::abs(dx) < 1e-12 || std::abs(std::abs(dx) - L) < 1e-12));
      // Opposite normals of equal length.
      for (int c = 0; c < 2; ++c)
        CHECK(pnorm(b, in.left[i], c) == Approx(-pnorm(b, in.right[i], c)).margin(1e-12));
      CHECK(std::abs(std::hypot(in.nrm[2 * i], in.nrm[2 * i + 1]) - 1) < 1e-14);
    }
    REQUIRE(b.mesh.boundaries.size() >= 2);
    std::size_t nb = 0;
    for (const auto& bi : b.ifs.boundaries) {
      nb += bi.size();
      for (std::size_t i = 0; i < bi.size(); ++i) {
        double y = bi.ploc[2 * i + 1];
        CHECK((std::abs(y) < 1e-12 || std::abs(y - L) < 1e-12));
        CHECK(bi.nrm[2 * i + 1] * (y - 1.0) > 0);  // outward
      }
    }
    CHECK(nb == std::size_t(2 * 4 * (p + 1)));
  }
}

TEST_CASE("fully periodic hexes pair all faces") {
  auto b = build(test::make_box("hex", 3, -1, 1, {true, true, true}, 2), 2);
  CHECK(b.ifs.internal.size() == std::size_t(3 * 27 * 9));  // 3 faces per cell, 9 points each
  for (const auto& bi : b.ifs.boundaries) CHECK(bi.size() == 0);
}

#include "solver/system/grad_rows.hpp"

TEST_CASE("gradient rows: every element gets the rows most need, the blocks needing more get the rest") {
  // SoA blocks of 4: needs 2, 4, 2, 0 (the last block of padding). Computing 2 rows for all
  // and 2 more on block 1 costs 4*2 + 2 = 10 rows of blocks, against 12 for 0 rows and
  // 16 for 4.
  const std::vector<int> need{2, 2, 2, 2, 2, 2, 2, 4, 1, 2, 2, 2, 0, 0, 0, 0};
  auto r = solver::plan_grad_rows(need, 4, true);
  CHECK(r.all == 4);
  CHECK(r.most == 2);
  REQUIRE(r.extra.size() == 1);
  CHECK(r.extra[0] == std::pair<int64_t, int64_t>{4, 8});
  // Not split (a backend without cache blocks): every element gets every row.
  auto w = solver::plan_grad_rows(need, 4, false);
  CHECK(w.all == 4);
  CHECK(w.most == 4);
  CHECK(w.extra.empty());
  // Neighbouring blocks make one range; of two splits that cost the same (1 row for all and
  // 4 more on three blocks, 3 for all and 2 more on two), the one with more rows for all.
  auto m = solver::plan_grad_rows({3, 0, 5, 0, 5, 0, 1, 1}, 2, true);
  CHECK(m.most == 3);
  REQUIRE(m.extra.size() == 1);
  CHECK(m.extra[0] == std::pair<int64_t, int64_t>{2, 6});
  // Every block needing the same rows: nothing to split.
  auto h = solver::plan_grad_rows({5, 0, 5, 0, 5, 0, 5, 1}, 2, true);
  CHECK(h.most == 5);
  CHECK(h.extra.empty());
}
