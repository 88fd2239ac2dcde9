// Surface-flux anti-aliasing operators (operators/antialias.hpp, add_surface_antialias): equal
// to PyFR's (tests/operators/data/<etype>-p<order>-surf.txt, written by tools/pyfr-ref-operators
// with PyFR 3.1 and its default face rules), PyFR's choice of face rules and the user errors
// when the tables hold none, the projection's consistency for fluxes the faces' nodal basis
// holds, and, with the volume flux anti-aliased too, the FR divergence of a polynomial flux of
// degree p + 2 equal to the L2 projection of its divergence (which without it is not).
#include <cmath>
#include <fstream>
#include <sstream>
#include <map>
#include <stdexcept>
#include <string>

#include "base/error.hpp"
#include "operators/antialias.hpp"
#include "operators/bases.hpp"
#include "operators/shapes.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/operators/test_support.hpp"

using namespace frmini::operators;
using frmini::UserError;
using frmini::operators::test::Poly;
using frmini::operators::test::Reference;
using frmini::operators::test::read_reference;
using frmini::operators::test::reldiff;

namespace {

// `surface`, `flux`: which anti-aliasing to add; qdeg: the volume rule's strength (-1 default).
ElementOperators made(const std::string& etype, int p, bool surface, bool flux, int qdeg = -1) {
  ElementOperators ops = build_operators(etype, p);
  if (surface) add_surface_antialias(ops);
  if (flux) add_flux_antialias(ops, qdeg);
  return ops;
}

// The FR divergence at the upts of a flux F whose components are random polynomials of the
// element's space at order p + 2, with the exact common normal flux F·n at the flux points:
// M1329·F(qpts) + M3·(F·n)(fpts). Returned: its largest difference from the L2 projection of
// div F onto the element's space (Σ_j φ_j(x_u) ∫ div F φ_j, by an exact collapsed rule),
// relative to that projection's largest value.
//
// Why this is the DG answer when every integral is exact: M9 projects F (ΠF), M1 differentiates
// ΠF exactly, and M3·P lifts ∮ (F·n − ΠF·n) φ_j (P projects onto the face basis, which holds
// φ_j's trace); integrating by parts, −∫ ΠF·∇φ_j + ∮ F·n φ_j = ∫ div F φ_j, since ∇φ_j lies in
// the space. Volume: ∫ F φ_j needs degree 2p + 2; faces: ∮ F·n φ_j the same, which the face
// rules' defaults give and the faces' p + 1 nodal points do not.
double divergence_error(const ElementOperators& ops, unsigned seed) {
  const int nd = ops.ndims, p = ops.order;
  const std::size_t nu = ops.nupts, nf = ops.nfpts, nq = std::size_t(ops.nqpts);
  std::vector<Poly> F;
  for (int k = 0; k < nd; ++k) F.emplace_back(ops.etype, p + 2, nd, seed + 7u * unsigned(k));
  auto divF = [&](const double* x) {
    double s = 0.0;
    for (int k = 0; k < nd; ++k) s += F[std::size_t(k)].d(x, k);
    return s;
  };
  // The projection of div F, by a rule exact to degree 2(p + 8) − 1 per collapsed direction.
  const auto rule = test::collapsed_rule(ops.etype, p + 8);
  const Matrix phi_r = ortho_basis_at(ops.etype, p, rule.pts, false);  // nb × nr
  const Matrix phi_u = ortho_basis_at(ops.etype, p, ops.upts, false);  // nb × nu
  std::vector<double> coef(phi_r.rows, 0.0);
  for (std::size_t j = 0; j < phi_r.rows; ++j)
    for (std::size_t r = 0; r < rule.wts.size(); ++r)
      coef[j] += rule.wts[r] * phi_r(j, r) * divF(&rule.pts.data[r * std::size_t(nd)]);

  double err = 0.0, scale = 1.0;
  for (std::size_t u = 0; u < nu; ++u) {
    double d = 0.0;
    for (int k = 0; k < nd; ++k)
      for (std::size_t i = 0; i < nq; ++i)
        d += ops.m1329(u, std::size_t(k) * nq + i) * F[std::size_t(k)](&ops.qpts.data[i * std::size_t(nd)]);
    for (std::size_t f = 0; f < nf; ++f)
      for (int k = 0; k < nd; ++k)
        d += ops.m3(u, f) * ops.norm_fpts(f, k) * F[std::size_t(k)](&ops.fpts.data[f * std::size_t(nd)]);
    double exact = 0.0;
    for (std::size_t j = 0; j < phi_u.rows; ++j) exact += coef[j] * phi_u(j, u);
    err = std::max(err, std::abs(d - exact));
    scale = std::max(scale, std::abs(exact));
  }
  return err / scale;
}

const char* const kTypes[] = {"quad", "hex", "tri", "tet", "pri", "pyr"};

}  // namespace

TEST_CASE("surface-flux anti-aliasing operators equal PyFR's to 1e-12", "[operators][pyfr][antialias]") {
  for (const std::string etype : kTypes)
    for (int p = 1; p <= 4; ++p) {
      if (p == 4 && etype != "quad" && etype != "tri") continue;  // the tool writes these
      INFO(etype << " p" << p);
      const Reference ref = read_reference(std::string(FRMINI_TEST_DATA_DIR) + "/data/" + etype +
                                           "-p" + std::to_string(p) + "-surf.txt");
      REQUIRE(ref.mats.size() == 4);
      const ElementOperators ops = made(etype, p, true, false);
      // The rules PyFR was pinned to ("frule KIND FILE NPTS" lines) are the ones frmini chose.
      std::ifstream in(std::string(FRMINI_TEST_DATA_DIR) + "/data/" + etype + "-p" +
                       std::to_string(p) + "-surf.txt");
      std::string line;
      int nrules = 0;
      while (std::getline(in, line))
        if (line.rfind("frule ", 0) == 0) {
          std::istringstream s(line.substr(6));
          std::string kind, file;
          s >> kind >> file;
          CHECK(ops.surf_qrule_names.at(kind) == file);
          ++nrules;
        }
      CHECK(nrules == int(ops.surf_qrule_names.size()));
      for (const auto& [name, r] : ref.mats) {
        INFO(name);
        CHECK(reldiff(get(ops, name), r) <= 1e-12);
      }
    }
}

TEST_CASE("face rules: PyFR's defaults, degree overrides and missing rules", "[operators][antialias]") {
  CHECK(default_face_qdeg("line", 3) == 8);
  CHECK(default_face_qdeg("tri", 3) == 8);
  CHECK(default_face_qdeg("quad", 3) == 9);
  CHECK(face_quadrule("line", 3).info.file == "gauss-legendre-n5-d9-spu.txt");
  CHECK(face_quadrule("quad", 3).info.file == "gauss-legendre-n25-d9-pstu.txt");
  CHECK(face_quadrule("tri", 3).info.file == "witherden-vincent-n16-d8-sp.txt");
  // An explicit degree takes the fewest points of any symmetric rule.
  CHECK(face_quadrule("quad", 3, 7).info.file == "witherden-vincent-n12-d7-sp.txt");
  CHECK_THROWS_WITH(face_quadrule("tri", 3, 21),
                    "operators: no symmetric quadrature rule for surface-flux anti-aliasing of tri "
                    "faces at order 3 (degree 21; the tables reach degree 20)");
  CHECK_THROWS_WITH(face_quadrule("quad", 8), Catch::Matchers::Contains("no gauss-legendre rule with 100 points"));
  CHECK_THROWS_WITH(face_quadrule("hex", 2), Catch::Matchers::Contains("unknown face kind 'hex'"));
  // The default per kind, an override where named; the order of the two anti-aliasings.
  ElementOperators pri = build_operators("pri", 2);
  add_surface_antialias(pri, {{"tri", 9}});
  CHECK(pri.surf_qdeg.at("tri") == 9);
  CHECK(pri.surf_qrule_names.at("quad") == "gauss-legendre-n16-d7-pstu.txt");
  CHECK(pri.nfpts == 2 * face_quadrule("tri", 2, 9).info.npts + 3 * 16);
  ElementOperators both = made("hex", 2, false, true);
  CHECK_THROWS_AS(add_surface_antialias(both), std::logic_error);
}

TEST_CASE("surface-flux anti-aliasing keeps what the faces' nodal basis holds", "[operators][antialias]") {
  // A flux of degree <= p has a normal component the face's nodal basis holds exactly, so its
  // projection changes nothing: M3·(g at the rule's points) equals the plain M3·(g at the
  // nodal flux points), and the fpts weights still integrate every face.
  for (const std::string etype : kTypes)
    for (int p = 1; p <= 3; ++p) {
      INFO(etype << " p" << p);
      const ElementOperators plain = build_operators(etype, p);
      const ElementOperators surf = made(etype, p, true, false);
      const Poly g(etype, p, plain.ndims, 5u + unsigned(p));
      const auto a = test::mul(surf.m3, test::at(g, surf.fpts));
      const auto b = test::mul(plain.m3, test::at(g, plain.fpts));
      CHECK(test::maxdiff(a, b) < 1e-12);
      // Σ w |n| over the element's faces: its total face measure, the same both ways.
      double sa = 0.0, sb = 0.0;
      for (int f = 0; f < surf.nfpts; ++f) {
        double n2 = 0.0;
        for (int k = 0; k < surf.ndims; ++k) n2 += surf.norm_fpts(f, k) * surf.norm_fpts(f, k);
        sa += surf.fpts_wts[std::size_t(f)] * std::sqrt(n2);
      }
      for (int f = 0; f < plain.nfpts; ++f) {
        double n2 = 0.0;
        for (int k = 0; k < plain.ndims; ++k) n2 += plain.norm_fpts(f, k) * plain.norm_fpts(f, k);
        sb += plain.fpts_wts[std::size_t(f)] * std::sqrt(n2);
      }
      CHECK(std::abs(sa - sb) < 1e-12 * sb);
    }
}

TEST_CASE("with both anti-aliasings the FR divergence of a degree p+2 flux is the DG one",
          "[operators][exact][antialias]") {
  // Volume rules strong enough for ∫ F φ_j (degree 2p + 2): quad/hex and tri by default, tet
  // 2p + 2, pri 4p + 4 (its basis reaches total degree 2p). The pyramid's rational basis has
  // gradients outside its space, so the identity does not hold there.
  for (int p = 1; p <= 3; ++p) {
    INFO("p" << p);
    const std::map<std::string, int> qdeg{{"quad", -1}, {"hex", -1}, {"tri", -1}, {"tet", 2 * p + 2},
                                          {"pri", 4 * p + 4}};
    for (const auto& [etype, q] : qdeg) {
      INFO(etype);
      CHECK(divergence_error(made(etype, p, true, true, q), 31u + unsigned(p)) < 1e-11);
      // Without the surface part the faces' p + 1 nodal points cannot integrate F·n φ_j.
      CHECK(divergence_error(made(etype, p, false, true, q), 31u + unsigned(p)) > 1e-6);
    }
  }
}
