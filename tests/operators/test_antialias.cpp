// Flux anti-aliasing operators (operators/antialias.hpp): equal to PyFR's (tests/operators/data/
// <etype>-p<order>-antialias.txt, written by tools/pyfr-ref-operators with PyFR 3.1 and its
// default volume rules), PyFR's choice of rules and the user errors when the tables hold none,
// and the exactness of the anti-aliased divergence up to the rule's strength.
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "base/error.hpp"
#include "operators/antialias.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/operators/test_support.hpp"

using namespace frmini::operators;
using frmini::UserError;
using frmini::operators::test::Poly;
using frmini::operators::test::Reference;
using frmini::operators::test::read_reference;
using frmini::operators::test::reldiff;

namespace {

double distance_from_identity(const Matrix& a) {
  double e = 0.0;
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) e = std::max(e, std::abs(a(i, j) - (i == j ? 1.0 : 0.0)));
  return e;
}

ElementOperators with_antialias(const std::string& etype, int p, int qdeg = -1) {
  ElementOperators ops = build_operators(etype, p);
  add_flux_antialias(ops, qdeg);
  return ops;
}

// The divergence at the upts of F = x·h (h a random polynomial of the element's space) by the
// anti-aliased FR operators, M1329·F(qpts) + M3·F̃ⁿ(fpts) (exact common normal flux), or with
// `aliased` by the plain ones, M132·F(upts) + M3·F̃ⁿ; its largest error against the analytical
// divergence d·h + x·∇h, relative to that divergence's largest value.
//
// Why F = x·h: its normal component is c·h on each (planar) face, and its divergence lies in
// the element's space, so the DG-lifted FR divergence of its L2 projection is exact; the plain
// FR divergence of its interpolant is not (F has degree p + 1).
double divergence_error(const ElementOperators& ops, unsigned seed, bool aliased = false) {
  const int nd = ops.ndims;
  const std::size_t nu = ops.nupts, nf = ops.nfpts, nq = std::size_t(ops.nqpts);
  const Poly h(ops.etype, ops.order, nd, seed);
  auto flux = [&](const Matrix& pts, std::size_t i, int k) { return pts(i, k) * h(&pts.data[i * nd]); };
  const Matrix& pts = aliased ? ops.upts : ops.qpts;
  const Matrix& div = aliased ? ops.m132 : ops.m1329;
  const std::size_t n = aliased ? nu : nq;
  double err = 0.0, scale = 1.0;
  for (std::size_t u = 0; u < nu; ++u) {
    double d = 0.0;
    for (int k = 0; k < nd; ++k)
      for (std::size_t i = 0; i < n; ++i) d += div(u, k * n + i) * flux(pts, i, k);
    for (std::size_t f = 0; f < nf; ++f)
      for (int k = 0; k < nd; ++k) d += ops.m3(u, f) * ops.norm_fpts(f, k) * flux(ops.fpts, f, k);
    const double* x = &ops.upts.data[u * nd];
    double exact = nd * h(x);
    for (int k = 0; k < nd; ++k) exact += x[k] * h.d(x, k);
    err = std::max(err, std::abs(d - exact));
    scale = std::max(scale, std::abs(exact));
  }
  return err / scale;
}

const char* const kTypes[] = {"quad", "hex", "tri", "tet", "pri", "pyr"};

}  // namespace

TEST_CASE("flux anti-aliasing operators equal PyFR's to 1e-12", "[operators][pyfr][antialias]") {
  for (const std::string etype : kTypes)
    for (int p = 1; p <= 4; ++p) {
      INFO(etype << " p" << p);
      const Reference ref = read_reference(std::string(FRMINI_TEST_DATA_DIR) + "/data/" + etype + "-p" +
                                           std::to_string(p) + "-antialias.txt");
      REQUIRE(ref.mats.size() == 3);
      const ElementOperators ops = with_antialias(etype, p);
      CHECK(ops.qpts_name == ref.qrule);
      CHECK(ops.nqpts == ref.npts);
      for (const auto& [name, r] : ref.mats) {
        INFO(name);
        CHECK(reldiff(get(ops, name), r) <= 1e-12);
      }
      // M9 = blockdiag(M8, ..., M8), which the tool does not write.
      const Matrix& m8 = ref.mats.at("M8");
      Matrix m9(ops.ndims * m8.rows, ops.ndims * m8.cols);
      for (int k = 0; k < ops.ndims; ++k)
        for (std::size_t i = 0; i < m8.rows; ++i)
          for (std::size_t j = 0; j < m8.cols; ++j) m9(k * m8.rows + i, k * m8.cols + j) = m8(i, j);
      CHECK(reldiff(get(ops, "M9"), m9) <= 1e-12);
      CHECK(get(ops, "(M1-M3*M2)*M9").data == ops.m1329.data);
    }
}

TEST_CASE("volume rules: PyFR's defaults, degree overrides and missing rules", "[operators][antialias]") {
  CHECK(default_volume_qdeg("hex", 3) == 9);
  CHECK(default_volume_qdeg("tet", 3) == 7);
  CHECK(default_volume_qdeg("tri", 3) == 8);
  CHECK(default_volume_qdeg("pyr", 3) == 8);
  CHECK(default_volume_qdeg("pri", 3) == 10);
  CHECK(volume_quadrule("hex", 3).info.file == "gauss-legendre-n125-d9-pstu.txt");
  // An explicit degree takes the fewest points of any rule, as PyFR's quad-deg does.
  CHECK(volume_quadrule("quad", 3, 7).info.file == "witherden-vincent-n12-d7-sp.txt");
  CHECK(volume_quadrule("tet", 3, 12).info.file == "witherden-n123-d12-sp.txt");
  // The pyramid's gauss-legendre point sets carry no weights and no degree: never chosen.
  for (int p = 0; p <= 6; ++p) CHECK_FALSE(volume_quadrule("pyr", p).wts.empty());
  CHECK_THROWS_WITH(volume_quadrule("tet", 3, 21),
                    "operators: no quadrature rule for flux anti-aliasing of tet at order 3 "
                    "(degree 21; the tables reach degree 20)");
  CHECK_THROWS_WITH(volume_quadrule("quad", 8),
                    Catch::Matchers::Contains("no gauss-legendre rule with 100 points") &&
                        Catch::Matchers::Contains("quad at order 8"));
  CHECK_THROWS_AS(volume_quadrule("hex", 8), UserError);
  const ElementOperators plain = build_operators("tri", 2);
  CHECK_THROWS_WITH(get(plain, "M7"), Catch::Matchers::Contains("only with flux anti-aliasing"));
}

TEST_CASE("anti-aliased divergence of a polynomial flux is exact up to the rule's strength",
          "[operators][exact][antialias]") {
  // Strength needed: ∫ F·φ exact for F of degree p + 1 and every basis function φ. quad/hex:
  // per direction (p+1) + p, within the default Gauss–Legendre rule's 2p + 3; tri/tet: total
  // 2p + 1 (the defaults, and the weakest rule that suffices); pri: the basis reaches total
  // degree 2p, so 4p + 1.
  for (int p = 1; p <= 4; ++p) {
    INFO("p" << p);
    CHECK(divergence_error(with_antialias("quad", p), 11u + p) < 1e-12);
    CHECK(divergence_error(with_antialias("hex", p), 11u + p) < 1e-12);
    for (const std::string etype : {"tri", "tet"}) {
      INFO(etype);
      CHECK(divergence_error(with_antialias(etype, p), 11u + p) < 1e-12);
      CHECK(divergence_error(with_antialias(etype, p, 2 * p + 1), 11u + p) < 1e-12);
    }
    CHECK(divergence_error(with_antialias("pri", p, 4 * p + 1), 11u + p) < 1e-12);
  }
  // Where aliasing bites, the plain FR divergence of the same flux is not exact (on quad/hex
  // with Gauss–Legendre points the interpolant of a degree p + 1 term equals its projection,
  // so there it is), nor is a rule weaker than the strength: PyFR's prism default from p = 3.
  for (int p = 3; p <= 4; ++p)
    for (const std::string etype : {"tri", "tet", "pri"}) {
      INFO(etype << " p" << p);
      CHECK(divergence_error(with_antialias(etype, p), 11u + p, true) > 1e-6);
    }
  CHECK(divergence_error(with_antialias("pri", 3), 14u) > 1e-6);
}

TEST_CASE("M8·M7 is the identity where the rule integrates the basis' products", "[operators][antialias]") {
  // The projection keeps the solution space when the rule integrates φ_i φ_j: PyFR's defaults
  // do for quad, hex, tri, tet at every order, pri up to p = 2 (the basis reaches total degree
  // 2p against the rule's 2p + 4) and pyr at p = 1 only (its basis is rational); degree 4p + 1
  // restores it on pri and pyr.
  for (int p = 1; p <= 4; ++p)
    for (const std::string etype : kTypes) {
      INFO(etype << " p" << p);
      const ElementOperators ops = with_antialias(etype, p);
      const double e = distance_from_identity(matmul(ops.m8, ops.m7));
      const bool keeps = (etype != "pri" || p <= 2) && (etype != "pyr" || p == 1);
      if (keeps) CHECK(e < 1e-12);
      else CHECK(e > 1e-3);
      if (etype == "pri" || etype == "pyr") {
        const ElementOperators strong = with_antialias(etype, p, 4 * p + 1);
        CHECK(distance_from_identity(matmul(strong.m8, strong.m7)) < 1e-12);
      }
    }
}
