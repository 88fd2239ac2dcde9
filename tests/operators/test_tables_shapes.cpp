// Point-set tables (embedded, PyFR's selection rules), shapes (counts, faces, normals,
// std_ele) and the user errors of build_operators.
#include <cmath>
#include <map>
#include <string>

#include "base/error.hpp"
#include "operators/bases.hpp"
#include "operators/matrix_market.hpp"
#include "operators/operators.hpp"
#include "operators/quadrules.hpp"
#include "operators/shapes.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini::operators;
using frmini::UserError;

TEST_CASE("embedded tables: weights sum to the reference measure", "[operators][tables]") {
  const std::map<std::string, double> measure{{"line", 2},   {"quad", 4},       {"hex", 8},
                                              {"tri", 2},    {"tet", 4.0 / 3},  {"pri", 4},
                                              {"pyr", 8.0 / 3}};
  int n = 0;
  for (const auto& [s, vol] : measure)
    for (const auto& info : list_quadrules(s)) {
      const QuadRule r = get_quadrule(s, info.name, info.npts);
      REQUIRE(static_cast<int>(r.pts.rows) == info.npts);
      REQUIRE(static_cast<int>(r.pts.cols) == shape_ndims(s));
      if (r.wts.empty()) continue;
      double sum = 0.0;
      for (double w : r.wts) sum += w;
      INFO(info.file);
      CHECK(sum == Approx(vol).epsilon(1e-12));
      ++n;
    }
  CHECK(n > 80);
}

TEST_CASE("table look-up by point count and by degree", "[operators][tables]") {
  const QuadRule ws = get_quadrule("tri", "williams-shunn", 36);
  CHECK(ws.info.degree == 12);
  CHECK(ws.info.file == "williams-shunn-n36-d12-spu.txt");
  const QuadRule gl = get_quadrule_deg("line", "gauss-legendre", 7);
  CHECK(gl.info.npts == 4);
  // Tensor tables are stored x fastest: the p=1 quad GL points are (−a,−a),(a,−a),(−a,a),(a,a).
  const QuadRule q = get_quadrule("quad", "gauss-legendre", 4);
  CHECK(q.pts(0, 0) < 0);
  CHECK(q.pts(1, 0) > 0);
  CHECK(q.pts(1, 1) < 0);
  CHECK(q.pts(2, 1) > 0);
  CHECK_THROWS_AS(get_quadrule("tet", "shunn-ham", 120), UserError);
  CHECK_THROWS_AS(get_quadrule_deg("line", "gauss-legendre", 100), UserError);
}

TEST_CASE("point counts follow PyFR's formulas", "[operators][shapes]") {
  // nupts/nfpts at p = 1..4.
  const std::map<std::string, std::vector<std::pair<int, int>>> want{
      {"quad", {{4, 8}, {9, 12}, {16, 16}, {25, 20}}},
      {"tri", {{3, 6}, {6, 9}, {10, 12}, {15, 15}}},
      {"hex", {{8, 24}, {27, 54}, {64, 96}, {125, 150}}},
      {"tet", {{4, 12}, {10, 24}, {20, 40}, {35, 60}}},
      {"pri", {{6, 18}, {18, 39}, {40, 68}, {75, 105}}},
      {"pyr", {{5, 16}, {14, 33}, {30, 56}, {55, 85}}}};
  for (const auto& [e, v] : want)
    for (int p = 1; p <= 4; ++p) {
      INFO(e << " p" << p);
      CHECK(nupts_for(e, p) == v[p - 1].first);
      CHECK(nfpts_for(e, p) == v[p - 1].second);
      CHECK(order_from_npts(e, v[p - 1].first) == p);
      CHECK(static_cast<int>(std_ele(e, p).rows) == nupts_for(e, p));
      const auto ops = build_operators(e, p);
      CHECK(ops.nupts == v[p - 1].first);
      CHECK(ops.nfpts == v[p - 1].second);
      CHECK(static_cast<int>(ops.fpts_face.size()) == ops.nfpts);
    }
}

TEST_CASE("faces: mapped points lie on the face plane n·x = const", "[operators][shapes]") {
  for (const std::string e : {"quad", "hex", "tri", "tet", "pri", "pyr"}) {
    const auto ops = build_operators(e, 3);
    const Shape& sh = shape(e);
    for (std::size_t f = 0; f < sh.faces.size(); ++f) {
      double lo = 1e30, hi = -1e30;
      for (int i = 0; i < ops.nfpts; ++i) {
        if (ops.fpts_face[i] != static_cast<int>(f)) continue;
        double d = 0.0;
        for (int k = 0; k < ops.ndims; ++k) d += sh.faces[f].normal[k] * ops.fpts(i, k);
        lo = std::min(lo, d), hi = std::max(hi, d);
        for (int k = 0; k < ops.ndims; ++k) CHECK(ops.norm_fpts(i, k) == sh.faces[f].normal[k]);
      }
      INFO(e << " face " << f);
      CHECK(hi - lo < 1e-14);
      // The plane is the outer boundary: every vertex lies on or behind it.
      for (std::size_t v = 0; v < sh.vertices.rows; ++v) {
        double d = 0.0;
        for (int k = 0; k < ops.ndims; ++k) d += sh.faces[f].normal[k] * sh.vertices(v, k);
        CHECK(d <= hi + 1e-14);
      }
    }
  }
}

TEST_CASE("std_ele is PyFR's lattice, x fastest", "[operators][shapes]") {
  const Matrix q = std_ele("quad", 1);
  CHECK(q.data == std::vector<double>{-1, -1, 1, -1, -1, 1, 1, 1});
  const Matrix t = std_ele("tri", 2);
  CHECK(t.data == std::vector<double>{-1, -1, 0, -1, 1, -1, -1, 0, 0, 0, -1, 1});
  const Matrix p = std_ele("pyr", 1);
  CHECK(p.data == std::vector<double>{-1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1, 0, 0, 1});
  // Order-1 lattices are the vertices, in PyFR's vertex order.
  for (const std::string e : {"quad", "hex", "tri", "tet", "pri", "pyr"})
    CHECK(std_ele(e, 1).data == shape(e).vertices.data);
}

TEST_CASE("face point sets follow the element's choice and can be overridden",
          "[operators][shapes]") {
  CHECK(build_operators("hex", 2, "gauss-legendre-lobatto").fpts_names.at("quad") ==
        "gauss-legendre-lobatto");
  CHECK(build_operators("tri", 2).fpts_names.at("line") == "gauss-legendre");
  const auto pyr = build_operators("pyr", 2);
  CHECK(pyr.fpts_names.at("quad") == "gauss-legendre");
  CHECK(pyr.fpts_names.at("tri") == "williams-shunn");
  // GLL: flux points are solution points, so M0 is a selection (one 1 per row).
  const auto gll = build_operators("quad", 3, "gauss-legendre-lobatto");
  for (std::size_t f = 0; f < gll.m0.rows; ++f) {
    int ones = 0, nz = 0;
    for (std::size_t u = 0; u < gll.m0.cols; ++u) ones += gll.m0(f, u) == 1.0, nz += gll.m0(f, u) != 0.0;
    CHECK((ones == 1 && nz == 1));
  }
  const auto over = build_operators("quad", 3, "gauss-legendre", {{"line", "gauss-legendre-lobatto"}});
  CHECK(over.fpts_names.at("line") == "gauss-legendre-lobatto");
  CHECK(std::abs(over.fpts(0, 0)) == 1.0);
  CHECK_THROWS_AS(build_operators("quad", 3, "", {{"tri", "williams-shunn"}}), UserError);
}

TEST_CASE("bad requests are user errors with one clear message", "[operators][errors]") {
  auto message = [](auto&& fn) -> std::string {
    try {
      fn();
    } catch (const UserError& e) {
      return e.what();
    }
    return "(no error)";
  };
  CHECK(message([] { build_operators("prism", 2); }).find("unknown element type 'prism'") !=
        std::string::npos);
  CHECK(message([] { build_operators("hex", -1); }).find("order must be >= 0") != std::string::npos);
  CHECK(message([] { build_operators("hex", 2, "shunn-ham"); })
            .find("unknown solution point set 'shunn-ham' for hex") != std::string::npos);
  CHECK(message([] { build_operators("tet", 7); }) ==
        "operators: no shunn-ham table with 120 points for tet order 7 (orders 0..6 available)");
  CHECK(message([] { build_operators("hex", 9); }).find("orders 0..8 available") != std::string::npos);
  CHECK(message([] { build_operators("quad", 2, "", {{"line", "nope"}}); })
            .find("unknown point set 'nope'") != std::string::npos);
  const auto ops = build_operators("quad", 1);
  CHECK(&get(ops, "M132") == &ops.m132);
  CHECK(&get(ops, "m4 - m6*m0") == &ops.m460);
  CHECK_THROWS_AS(get(ops, "M5"), UserError);
}

TEST_CASE("Matrix Market export round-trips every operator exactly", "[operators][mtx]") {
  const auto ops = build_operators("tet", 2);
  for (const auto& name : all_operator_names()) {
    const Matrix& m = get(ops, name);
    const std::string text = to_matrix_market(m, "tet p2 " + name);
    CHECK(text.rfind("%%MatrixMarket matrix coordinate real general\n% tet p2 ", 0) == 0);
    const Matrix back = from_matrix_market(text);
    CHECK(back.rows == m.rows);
    CHECK(back.cols == m.cols);
    CHECK(back.data == m.data);
  }
  CHECK_THROWS_AS(from_matrix_market("hello"), UserError);
  CHECK_THROWS_AS(from_matrix_market("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n"),
                  UserError);
}
