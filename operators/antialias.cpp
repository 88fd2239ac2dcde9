#include "operators/antialias.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "operators/bases.hpp"
#include "operators/clean.hpp"
#include "operators/nodal.hpp"
#include "operators/shapes.hpp"

namespace frmini::operators {

namespace {

bool tensor(const std::string& e) { return e == "quad" || e == "hex"; }

int ipow(int b, int n) {
  int r = 1;
  while (n-- > 0) r *= b;
  return r;
}

// The strongest rule with weights the tables hold for `shape` (for the error message).
int max_table_degree(const std::string& shape) {
  int d = -1;
  for (const auto& q : list_quadrules(shape)) d = std::max(d, q.degree);
  return d;
}

[[noreturn]] void missing(const std::string& etype, int order, int qdeg, const std::string& what) {
  throw UserError("operators: no " + what + " for flux anti-aliasing of " + etype + " at order " +
                  std::to_string(order) + " (degree " + std::to_string(qdeg) +
                  "; the tables reach degree " + std::to_string(max_table_degree(etype)) + ")");
}

}  // namespace

int default_volume_qdeg(const std::string& etype, int order) {
  const std::string& e = shape(etype).name;  // UserError if unknown
  if (tensor(e)) return 2 * order + 3;
  if (e == "tet") return 2 * order + 1;
  if (e == "pri") return 2 * (order + 2);
  return 2 * (order + 1);  // tri, pyr
}

QuadRule volume_quadrule(const std::string& etype, int order, int qdeg) {
  const Shape& sh = shape(etype);
  if (order < 0)
    throw UserError("operators: order must be >= 0 (got " + std::to_string(order) + ")");
  if (qdeg < 0 && tensor(etype)) {
    // PyFR names the rule and its point count here rather than a degree.
    const int n = ipow(order + 2, sh.ndims);
    for (const auto& q : list_quadrules(etype, "gauss-legendre"))
      if (q.npts == n) return get_quadrule(etype, "gauss-legendre", n);
    missing(etype, order, 2 * order + 3, "gauss-legendre rule with " + std::to_string(n) + " points");
  }
  const int deg = qdeg < 0 ? default_volume_qdeg(etype, order) : qdeg;
  const QuadRuleInfo* best = nullptr;
  const auto rules = list_quadrules(etype);  // sorted by name, then points: ties go to the name
  for (const auto& q : rules)
    if (q.degree >= deg && (!best || q.npts < best->npts)) best = &q;
  if (!best) missing(etype, order, deg, "quadrature rule");
  QuadRule r = get_quadrule(etype, best->name, best->npts);
  if (r.wts.empty()) missing(etype, order, deg, "quadrature rule with weights");
  return r;
}

void add_flux_antialias(ElementOperators& ops, int qdeg) {
  const QuadRule rule = volume_quadrule(ops.etype, ops.order, qdeg);
  const std::size_t nu = ops.nupts, nq = rule.pts.rows, nd = std::size_t(ops.ndims);
  const int p = ops.order;

  // M7[q,u] = l_u(x_q).
  Matrix m7 = NodalBasis(ops.etype, p, ops.upts).at(rule.pts);

  // M8[u,q] = w_q Σ_j φ_j(x_u) φ_j(x_q) (PyFR's proj_l2: vdm.T @ (w·φ(qpts))). The projection
  // of f onto the nodal basis has coefficients ∫ f φ_j, evaluated by the rule.
  const Matrix vdm = ortho_basis_at(ops.etype, p, ops.upts);  // nb × nu
  Matrix phiq = ortho_basis_at(ops.etype, p, rule.pts);       // nb × nq
  for (std::size_t j = 0; j < phiq.rows; ++j)
    for (std::size_t q = 0; q < nq; ++q) phiq(j, q) *= rule.wts[q];
  const Matrix m8 = matmul(transpose(vdm), phiq);

  // (M1 − M3·M2)·M9 block by block: column block k is M132's block k times M8 (the zero blocks
  // of M9 add nothing, so this equals the full product term for term).
  const Matrix m132 = subtract(ops.m1, matmul(ops.m3, ops.m2));
  Matrix m9(nd * nu, nd * nq), m1329(nu, nd * nq);
  for (std::size_t k = 0; k < nd; ++k) {
    Matrix blk(nu, nu);
    for (std::size_t e = 0; e < nu; ++e)
      for (std::size_t u = 0; u < nu; ++u) blk(e, u) = m132(e, k * nu + u);
    const Matrix prod = matmul(blk, m8);
    for (std::size_t e = 0; e < nu; ++e)
      for (std::size_t q = 0; q < nq; ++q) {
        m1329(e, k * nq + q) = prod(e, q);
        m9(k * nu + e, k * nq + q) = m8(e, q);
      }
  }

  // As everything PyFR's opmat hands out, each operator is cleaned.
  auto out = [](Matrix m) {
    clean(m.data);
    return m;
  };
  ops.qpts_name = rule.info.file;
  ops.qdeg = rule.info.degree;
  ops.nqpts = int(nq);
  ops.qpts = rule.pts;
  ops.qwts = rule.wts;
  ops.m7 = out(std::move(m7));
  ops.m8 = out(m8);
  ops.m9 = out(std::move(m9));
  ops.m1329 = out(std::move(m1329));
}

}  // namespace frmini::operators
