#include "operators/operators.hpp"

#include <algorithm>
#include <set>

#include "base/error.hpp"
#include "operators/bases.hpp"
#include "operators/clean.hpp"
#include "operators/nodal.hpp"
#include "operators/operators_internal.hpp"
#include "operators/quadrules.hpp"
#include "operators/shapes.hpp"

namespace frmini::operators {

namespace {

// The face point set that follows a solution point set: the 1-D/2-D factor that the element's
// set is made of (gauss-legendre-lobatto tensor sets give lobatto faces; simplex sets give
// williams-shunn triangles and gauss-legendre lines).
std::string face_set_for(const std::string& kind, const std::string& upts) {
  const bool lobatto = upts.size() >= 7 && upts.compare(upts.size() - 7, 7, "lobatto") == 0;
  if (kind == "tri") return "williams-shunn";
  return lobatto ? "gauss-legendre-lobatto" : "gauss-legendre";
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += v[i];
  }
  return s;
}

// "orders 0..6 available" from the tables of `name` for `shape`.
std::string available_orders(const std::string& shape, const std::string& name) {
  std::vector<int> orders;
  for (const auto& q : list_quadrules(shape, name)) {
    const int p = order_from_npts(shape, q.npts);
    if (p >= 0) orders.push_back(p);
  }
  std::sort(orders.begin(), orders.end());
  orders.erase(std::unique(orders.begin(), orders.end()), orders.end());
  if (orders.empty()) return "no tables";
  bool contiguous = orders.back() - orders.front() + 1 == static_cast<int>(orders.size());
  if (contiguous)
    return "orders " + std::to_string(orders.front()) + ".." + std::to_string(orders.back()) +
           " available";
  std::string s = "orders ";
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(orders[i]);
  }
  return s + " available";
}

// The point set `name` of `shape` at order p, with a message naming what exists.
Matrix point_set(const std::string& shape, const std::string& name, int p, const std::string& what) {
  const int n = nupts_for(shape, p);
  if (list_quadrules(shape, name).empty())
    throw UserError("operators: unknown point set '" + name + "' for " + what);
  for (const auto& q : list_quadrules(shape, name))
    if (q.npts == n) return get_quadrule(shape, name, n).pts;
  throw UserError("operators: no " + name + " table with " + std::to_string(n) + " points for " +
                  what + " order " + std::to_string(p) + " (" + available_orders(shape, name) +
                  ")");
}

Matrix vstack(const std::vector<Matrix>& ms) {
  Matrix out(0, ms.empty() ? 0 : ms[0].cols);
  for (const auto& m : ms) {
    out.data.insert(out.data.end(), m.data.begin(), m.data.end());
    out.rows += m.rows;
  }
  return out;
}

}  // namespace

namespace detail {

void assemble(ElementOperators& ops, const Matrix& m0, const Matrix& m1, const Matrix& m3,
              const Matrix& m4) {
  const std::size_t nu = m0.cols, nf = m0.rows, nd = std::size_t(ops.ndims);
  // M2[f, k·nu+u] = n_k(f)·M0[f,u];  M6[k·nu+u, f] = n_k(f)·M3[u,f].
  Matrix m2(nf, nd * nu), m6(nd * nu, nf);
  for (std::size_t f = 0; f < nf; ++f)
    for (std::size_t k = 0; k < nd; ++k)
      for (std::size_t u = 0; u < nu; ++u) {
        m2(f, k * nu + u) = ops.norm_fpts(f, k) * m0(f, u);
        m6(k * nu + u, f) = ops.norm_fpts(f, k) * m3(u, f);
      }

  // Everything PyFR hands to the solver passes through opmat, which cleans once more.
  auto out = [](Matrix m) {
    clean(m.data);
    return m;
  };
  ops.m132 = out(subtract(m1, matmul(m3, m2)));
  ops.m460 = out(subtract(m4, matmul(m6, m0)));
  ops.m0 = out(m0);
  ops.m1 = out(m1);
  ops.m2 = out(std::move(m2));
  ops.m3 = out(m3);
  ops.m4 = out(m4);
  ops.m6 = out(std::move(m6));
}

}  // namespace detail

std::string default_upts(const std::string& etype) {
  const std::string& e = shape(etype).name;
  if (e == "tri") return "williams-shunn";
  if (e == "tet") return "shunn-ham";
  if (e == "pri") return "williams-shunn~gauss-legendre";
  return "gauss-legendre";
}

std::vector<std::string> upts_choices(const std::string& etype) {
  const std::string& e = shape(etype).name;
  if (e == "tri") return {"williams-shunn"};
  if (e == "tet") return {"shunn-ham"};
  if (e == "pri") return {"williams-shunn~gauss-legendre", "williams-shunn~gauss-legendre-lobatto"};
  return {"gauss-legendre", "gauss-legendre-lobatto"};
}

std::map<std::string, std::string> default_fpts(const std::string& etype,
                                                const std::string& upts) {
  std::map<std::string, std::string> m;
  for (const auto& f : shape(etype).faces) m[f.kind] = face_set_for(f.kind, upts);
  return m;
}

ElementOperators build_operators(const std::string& etype, int order, const std::string& upts,
                                 const std::map<std::string, std::string>& fpts) {
  const Shape& sh = shape(etype);  // UserError if unknown
  if (order < 0)
    throw UserError("operators: order must be >= 0 (got " + std::to_string(order) + ")");
  const std::string uname = upts.empty() ? default_upts(etype) : upts;
  const auto choices = upts_choices(etype);
  if (std::find(choices.begin(), choices.end(), uname) == choices.end())
    throw UserError("operators: unknown solution point set '" + uname + "' for " + etype +
                    " (expected " + join(choices) + ")");

  ElementOperators ops;
  ops.etype = etype;
  ops.upts_name = uname;
  ops.order = order;
  ops.ndims = sh.ndims;
  ops.fpts_names = default_fpts(etype, uname);
  for (const auto& [kind, name] : fpts) {
    if (!ops.fpts_names.count(kind))
      throw UserError("operators: " + etype + " has no " + kind + " faces");
    ops.fpts_names[kind] = name;
  }

  const int p = order, nd = sh.ndims;
  ops.upts = point_set(etype, uname, p, etype);
  const NodalBasis ubasis(etype, p, ops.upts);
  ops.nupts = static_cast<int>(ops.upts.rows);

  // Face flux point sets and their nodal bases (PyFR's `facebases`).
  std::map<std::string, NodalBasis> facebases;
  for (const auto& [kind, name] : ops.fpts_names)
    facebases.emplace(kind, NodalBasis(kind, p, point_set(kind, name, p, kind + " faces of " + etype)));

  // Flux points: each face's set mapped through its proj, face by face.
  std::vector<Matrix> fparts;
  for (std::size_t f = 0; f < sh.faces.size(); ++f) {
    const Face& face = sh.faces[f];
    fparts.push_back(project_face(etype, static_cast<int>(f), facebases.at(face.kind).pts()));
    for (std::size_t i = 0; i < fparts.back().rows; ++i) {
      ops.fpts_face.push_back(static_cast<int>(f));
      ops.norm_fpts.data.insert(ops.norm_fpts.data.end(), face.normal.begin(), face.normal.end());
    }
  }
  ops.fpts = vstack(fparts);
  ops.nfpts = static_cast<int>(ops.fpts.rows);
  ops.norm_fpts.rows = ops.fpts.rows;
  ops.norm_fpts.cols = nd;
  const std::size_t nu = ops.nupts;

  // M0[f,u] = l_u(x_f).
  const Matrix m0 = ubasis.at(ops.fpts);

  // M1[e, k·nu+u] = M4[k·nu+e, u] = ∂l_u/∂ξ_k(x_e).
  const Matrix jac = ubasis.jac_at(ops.upts);  // [k·nu+u, e]
  Matrix m1(nu, nd * nu), m4(nd * nu, nu);
  for (std::size_t k = 0; k < static_cast<std::size_t>(nd); ++k)
    for (std::size_t u = 0; u < nu; ++u)
      for (std::size_t e = 0; e < nu; ++e) {
        m1(e, k * nu + u) = jac(k * nu + u, e);
        m4(k * nu + e, u) = jac(k * nu + u, e);
      }

  // Correction field by lifting (PyFR's gbasis_coeffs): S[f,j] = ∫_face ℓ_f φ_j ds with a
  // fixed face quadrature (line: GL p+1, quad: GL (p+1)^2, tri: Williams–Shunn 36 points).
  const std::size_t nb = basis_size(etype, p);
  Matrix coeffs(0, nb);
  for (std::size_t f = 0; f < sh.faces.size(); ++f) {
    const std::string& kind = sh.faces[f].kind;
    const QuadRule qr = kind == "line"   ? get_quadrule("line", "gauss-legendre", p + 1)
                        : kind == "quad" ? get_quadrule("quad", "gauss-legendre", (p + 1) * (p + 1))
                                         : get_quadrule("tri", "williams-shunn", 36);
    const Matrix L = facebases.at(kind).at(qr.pts);                                  // nq × nff
    const Matrix M = ortho_basis_at(etype, p, project_face(etype, static_cast<int>(f), qr.pts));  // nb × nq
    Matrix S(L.cols, nb);
    for (std::size_t k = 0; k < L.cols; ++k) {
      double w = 0.0;
      for (std::size_t i = 0; i < qr.wts.size(); ++i) w += qr.wts[i] * L(i, k);
      ops.fpts_wts.push_back(w);
    }
    for (std::size_t k = 0; k < L.cols; ++k)
      for (std::size_t j = 0; j < nb; ++j) {
        double s = 0.0;
        for (std::size_t i = 0; i < qr.wts.size(); ++i) s += qr.wts[i] * L(i, k) * M(j, i);
        S(k, j) = s;
      }
    coeffs = vstack({coeffs, S});
  }
  Matrix m3 = transpose(matmul(coeffs, ortho_basis_at(etype, p, ops.upts)));  // nu × nf
  clean(m3.data);

  detail::assemble(ops, m0, m1, m3, m4);
  return ops;
}

const Matrix& get(const ElementOperators& ops, const std::string& name) {
  std::string n;
  for (char c : name)
    if (c != ' ') n += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (n == "M0") return ops.m0;
  if (n == "M1") return ops.m1;
  if (n == "M2") return ops.m2;
  if (n == "M3") return ops.m3;
  if (n == "M4") return ops.m4;
  if (n == "M6") return ops.m6;
  if (n == "M132" || n == "M1-M3*M2") return ops.m132;
  if (n == "M460" || n == "M4-M6*M0") return ops.m460;
  const Matrix* aa = n == "M7"   ? &ops.m7
                     : n == "M8" ? &ops.m8
                     : n == "M9" ? &ops.m9
                     : (n == "M1329" || n == "(M1-M3*M2)*M9") ? &ops.m1329
                                                               : nullptr;
  if (aa && ops.nqpts == 0)
    throw UserError("operators: " + name + " of " + ops.etype +
                    " exists only with flux anti-aliasing (add_flux_antialias)");
  if (aa) return *aa;
  throw UserError("operators: unknown operator '" + name +
                  "' (expected M0, M1, M2, M3, M4, M6, M132, M460, M7, M8, M9 or M1329)");
}

const std::vector<std::string>& solver_operator_names() {
  static const std::vector<std::string> v{"M0", "M3", "M6", "M132", "M460"};
  return v;
}

const std::vector<std::string>& all_operator_names() {
  static const std::vector<std::string> v{"M0", "M1", "M2", "M3", "M4", "M6", "M132", "M460"};
  return v;
}

}  // namespace frmini::operators
