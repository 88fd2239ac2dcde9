#include "operators/antialias.hpp"

#include <algorithm>
#include <stdexcept>

#include "base/error.hpp"
#include "operators/bases.hpp"
#include "operators/clean.hpp"
#include "operators/nodal.hpp"
#include "operators/operators_internal.hpp"
#include "operators/shapes.hpp"

namespace frmini::operators {

namespace {

bool tensor(const std::string& e) { return e == "quad" || e == "hex"; }

int ipow(int b, int n) {
  int r = 1;
  while (n-- > 0) r *= b;
  return r;
}

// The strongest rule with weights (and `flags`) the tables hold for `shape` (for the error
// message).
int max_table_degree(const std::string& shape, const std::string& flags = "") {
  int d = -1;
  for (const auto& q : list_quadrules(shape))
    if (std::all_of(flags.begin(), flags.end(), [&](char c) { return q.flags.find(c) != std::string::npos; }))
      d = std::max(d, q.degree);
  return d;
}

// `of`: "flux anti-aliasing of hex" or "surface-flux anti-aliasing of tri faces".
[[noreturn]] void missing(const std::string& shape, const std::string& of, int order, int qdeg,
                          const std::string& what, const std::string& flags = "") {
  throw UserError("operators: no " + what + " for " + of + " at order " + std::to_string(order) +
                  " (degree " + std::to_string(qdeg) + "; the tables reach degree " +
                  std::to_string(max_table_degree(shape, flags)) + ")");
}

// PyFR's proj_l2: P[k,q] = w_q Σ_j φ_j(x_k) φ_j(x_q), the coefficients on the nodal basis at
// `nodes` of the L2 projection of values at the rule's points (∫ f φ_j evaluated by the rule).
Matrix proj_l2(const std::string& shape, int p, const Matrix& nodes, const QuadRule& rule) {
  const Matrix vdm = ortho_basis_at(shape, p, nodes);  // nb × nnodes
  Matrix phiq = ortho_basis_at(shape, p, rule.pts);     // nb × nq
  for (std::size_t j = 0; j < phiq.rows; ++j)
    for (std::size_t q = 0; q < phiq.cols; ++q) phiq(j, q) *= rule.wts[q];
  Matrix m = matmul(transpose(vdm), phiq);
  clean(m.data);
  return m;
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
    missing(etype, "flux anti-aliasing of " + etype, order, 2 * order + 3,
            "gauss-legendre rule with " + std::to_string(n) + " points");
  }
  const int deg = qdeg < 0 ? default_volume_qdeg(etype, order) : qdeg;
  const QuadRuleInfo* best = nullptr;
  const auto rules = list_quadrules(etype);  // sorted by name, then points: ties go to the name
  for (const auto& q : rules)
    if (q.degree >= deg && (!best || q.npts < best->npts)) best = &q;
  if (!best) missing(etype, "flux anti-aliasing of " + etype, order, deg, "quadrature rule");
  QuadRule r = get_quadrule(etype, best->name, best->npts);
  if (r.wts.empty())
    missing(etype, "flux anti-aliasing of " + etype, order, deg, "quadrature rule with weights");
  return r;
}

void add_flux_antialias(ElementOperators& ops, int qdeg) {
  const QuadRule rule = volume_quadrule(ops.etype, ops.order, qdeg);
  const std::size_t nu = ops.nupts, nq = rule.pts.rows, nd = std::size_t(ops.ndims);
  const int p = ops.order;

  // M7[q,u] = l_u(x_q).
  Matrix m7 = NodalBasis(ops.etype, p, ops.upts).at(rule.pts);

  // M8 = proj_l2 onto the solution points' nodal basis.
  const Matrix m8 = proj_l2(ops.etype, p, ops.upts, rule);

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

int default_face_qdeg(const std::string& kind, int order) {
  if (kind != "line" && kind != "tri" && kind != "quad")
    throw UserError("operators: unknown face kind '" + kind + "' (expected line, tri or quad)");
  return kind == "quad" ? 2 * order + 3 : 2 * (order + 1);
}

QuadRule face_quadrule(const std::string& kind, int order, int qdeg) {
  const int deg = qdeg < 0 ? default_face_qdeg(kind, order) : qdeg;
  if (order < 0)
    throw UserError("operators: order must be >= 0 (got " + std::to_string(order) + ")");
  const std::string of = "surface-flux anti-aliasing of " + kind + " faces";
  if (qdeg < 0 && kind == "quad") {
    // As for the volume, PyFR names the quad faces' rule and its point count.
    const int n = (order + 2) * (order + 2);
    for (const auto& q : list_quadrules(kind, "gauss-legendre"))
      if (q.npts == n) return get_quadrule(kind, "gauss-legendre", n);
    missing(kind, of, order, deg, "gauss-legendre rule with " + std::to_string(n) + " points", "s");
  }
  // Only symmetric rules ('s'): the two sides of an interface map the face's parameter domain
  // differently, and their points must coincide.
  const QuadRuleInfo* best = nullptr;
  const auto rules = list_quadrules(kind);  // sorted by name, then points: ties go to the name
  for (const auto& q : rules)
    if (q.degree >= deg && q.flags.find('s') != std::string::npos && (!best || q.npts < best->npts))
      best = &q;
  if (!best) missing(kind, of, order, deg, "symmetric quadrature rule", "s");
  return get_quadrule(kind, best->name, best->npts);
}

void add_surface_antialias(ElementOperators& ops, const std::map<std::string, int>& qdeg) {
  if (ops.nqpts != 0)
    throw std::logic_error("add_surface_antialias: call it before add_flux_antialias");
  if (!ops.surf_qrule_names.empty()) throw std::logic_error("add_surface_antialias: called twice");
  const Shape& sh = shape(ops.etype);
  const int p = ops.order;
  const std::size_t nu = ops.nupts, nd = std::size_t(ops.ndims);

  std::map<std::string, QuadRule> rules;
  std::map<std::string, Matrix> projs;  // face kind → P (nff × nq)
  for (const auto& [kind, name] : ops.fpts_names) {
    auto q = qdeg.find(kind);
    rules.emplace(kind, face_quadrule(kind, p, q == qdeg.end() ? -1 : q->second));
    const Matrix nodes = get_quadrule(kind, name, npts_for_face(kind, p)).pts;
    projs.emplace(kind, proj_l2(kind, p, nodes, rules.at(kind)));
  }

  // New flux points face by face; M3's columns of each face (its nodal flux points) times P.
  std::vector<Matrix> fparts;
  std::vector<int> fface;
  std::vector<double> norms, wts;
  std::size_t nf = 0;
  for (std::size_t f = 0; f < sh.faces.size(); ++f) nf += rules.at(sh.faces[f].kind).pts.rows;
  Matrix m3(nu, nf);
  std::size_t col_old = 0, col_new = 0;
  for (std::size_t f = 0; f < sh.faces.size(); ++f) {
    const Face& face = sh.faces[f];
    const QuadRule& r = rules.at(face.kind);
    const Matrix& P = projs.at(face.kind);
    fparts.push_back(project_face(ops.etype, int(f), r.pts));
    for (std::size_t q = 0; q < r.pts.rows; ++q) {
      fface.push_back(int(f));
      norms.insert(norms.end(), face.normal.begin(), face.normal.end());
      wts.push_back(r.wts[q]);
      for (std::size_t u = 0; u < nu; ++u) {
        double s = 0.0;
        for (std::size_t k = 0; k < P.rows; ++k) s += ops.m3(u, col_old + k) * P(k, q);
        m3(u, col_new + q) = s;
      }
    }
    col_old += P.rows;
    col_new += r.pts.rows;
  }
  Matrix fpts(0, nd);
  for (const auto& m : fparts) {
    fpts.data.insert(fpts.data.end(), m.data.begin(), m.data.end());
    fpts.rows += m.rows;
  }
  ops.fpts = std::move(fpts);
  ops.nfpts = int(nf);
  ops.fpts_face = std::move(fface);
  ops.norm_fpts = Matrix(nf, nd);
  ops.norm_fpts.data = std::move(norms);
  ops.fpts_wts = std::move(wts);
  for (const auto& [kind, r] : rules) {
    ops.surf_qrule_names[kind] = r.info.file;
    ops.surf_qdeg[kind] = r.info.degree;
  }
  clean(m3.data);
  const Matrix m0 = NodalBasis(ops.etype, p, ops.upts).at(ops.fpts);
  detail::assemble(ops, m0, ops.m1, m3, ops.m4);
}

}  // namespace frmini::operators
