// The right-hand side as a graph of named kernels: the products (operator, panels, rows and
// columns in a Product) and pointwise kernels (bound by argument name: each stage offers the
// values it has, the physics' spec takes what it reads) each RHS stage makes on first use and
// keeps, and System::rhs, which only orders the stages. Within a stage, the
// kernels of one element group run as a chain over cache blocks of elements; over several
// ranks a chain whose results the exchange sends runs in two pieces (elements on shared faces
// first, the rest while the messages travel).
#include <algorithm>
#include <functional>
#include <map>
#include <type_traits>
#include <stdexcept>

#include "kernels/matmul/analysis.hpp"
#include "solver/system/halo.hpp"
#include "solver/system/system_impl.hpp"

namespace frmini::solver {

namespace {

using Chain = std::vector<kernels::Backend::ChainStep>;
using Span = std::pair<int, int>;
using Ranges = std::vector<std::pair<int64_t, int64_t>>;
using Offered = std::map<std::string, ArgValue>;  // kernel arguments by name

// A matmul operand: an arena offset; ld 0 = its group's ld; window, slot: a scratch panel's
// (Panel::window).
struct Operand {
  Operand(std::size_t o) : off(o) {}  // NOLINT: a plain panel converts from its offset
  Operand(std::size_t o, std::size_t l, std::size_t w, std::size_t s) : off(o), ld(l), window(w), slot(s) {}
  std::size_t off, ld = 0, window = 0, slot = 0;
};

// One operator product of a group: C (rows `rows` of it) = A (columns `cols`) B + beta C.
struct Product {
  std::size_t group;
  std::string op;   // M0, M3, M4, M6, M132, M460; anti-aliasing: M7, M1329
  Operand b, c;
  std::string tag;  // what makes this product of `op` its own kernel (its input, a row span)
  double beta = 0;
  bool leaves = false;  // C is read only after the chain: a provider may stream it past the cache
  Span rows{0, 0}, cols{0, 0};  // [first, end) of A's rows and columns wanted ({0, 0}: all)
  const Ranges* only = nullptr;  // run on these element ranges of a block only (ascending)
};

// Sets a pointwise kernel's scalar argument `name`.
void set_scalar(Recorded& k, const std::string& name, double v) {
  const auto& args = k.spec().args;
  for (std::size_t i = 0; i < args.size(); ++i)
    if (args[i].name == name) return k.set_scalar(i, v);
  throw std::logic_error(k.spec().name + ": no argument '" + name + "'");
}

}  // namespace

struct System::Rhs {
  System& sys;
  Impl& I;
  const double t;
  const int uin, fout, nd, nv, one_sided;
  const bool visc;
  const std::string rin, rout;
  Buffer* A;
  std::function<void()> poll;

  Rhs(System& s, double time, int in, int out)
      : sys(s), I(*s.impl_), t(time), uin(in), fout(out), nd(s.ndims()), nv(s.nvars()),
        one_sided(physics::ldg_one_sided(s.cfg_.phys)), visc(s.cfg_.phys.viscous()),
        rin("r" + std::to_string(in)), rout("r" + std::to_string(out)), A(s.impl_->arena.get()) {
    if (s.halo_) poll = [h = s.halo_.get()] { h->progress(); };
  }
  const GroupLayout& layout(std::size_t g) const { return sys.layout_[g]; }
  std::size_t ngroups() const { return sys.layout_.size(); }

  kernels::Backend::ChainStep product(Product p);
  kernels::matmul::Kernel* make_product(const std::string& key, Product& p);

  // A pointwise kernel, compiled and bound on first use: `make_args` offers its arguments by
  // name (kernels::pointwise::in_spec_order), or, for a register kernel, lists them in the
  // order of its registers.
  template <class MakeSpec, class MakeArgs>
  Recorded& pointwise(const std::string& key, MakeSpec make_spec, MakeArgs make_args) {
    auto it = I.pw.find(key);
    if (it == I.pw.end()) {
      auto k = std::make_unique<Recorded>(sys.be_.pointwise(make_spec(), sys.cfg_.precision));
      if constexpr (std::is_same_v<decltype(make_args()), Offered>)
        k->bind(kernels::pointwise::in_spec_order(k->spec(), make_args()));
      else
        k->bind(make_args());
      it = I.pw.emplace(key, std::move(k)).first;
    }
    return *it->second;
  }
  // What an interface kernel may read at the internal (and periodic) faces: both sides'
  // solution, LDG common solution and gradient views, and the normals. Which of them it takes
  // (one-sided LDG, Euler or Navier-Stokes) its spec says (physics::intconu, intcflux).
  Offered internal_offer() const {
    const IfaceData& d = I.internal;
    return {{"ul", view(d.ixl)},           {"ur", view(d.ixr)},           {"ucl", view(d.cxl)},
            {"ucr", view(d.cxr)},          {"gradl", view(d.gxl, d.rsl)}, {"gradr", view(d.gxr, d.rsr)},
            {"nrm", panel(d.nrm, d.n)}, {"magn", panel(d.magn, d.n)}};
  }
  // The same at boundary bd's faces (one side), with the points' positions and the time.
  Offered boundary_offer(const IfaceData& bd) const {
    return {{"ul", view(bd.ixl)},           {"ucl", view(bd.cxl)},         {"gradl", view(bd.gxl, bd.rsl)},
            {"nrm", panel(bd.nrm, bd.n)}, {"magn", panel(bd.magn, bd.n)}, {"ploc", panel(bd.ploc, bd.n)},
            {"t", ArgValue::value(t)}};
  }
  // Kernel `name` over the internal faces' points.
  template <class MakeSpec>
  void internal_faces(const std::string& name, MakeSpec make_spec) {
    if (!I.internal.n) return;
    pointwise(name, make_spec, [&] { return internal_offer(); }).launch(0, int64_t(I.internal.n));
  }
  // Kernel `name` of every boundary (its BC's), made on first use, run at this RHS's time.
  template <class MakeSpec>
  void boundaries(const std::string& name, MakeSpec make_spec) {
    for (std::size_t b = 0; b < I.bnds.size(); ++b) {
      const IfaceData& bd = I.bnds[b];
      auto& k = pointwise(name + std::to_string(b), [&] { return make_spec(bd); }, [&] { return boundary_offer(bd); });
      set_scalar(k, "t", t);
      k.launch(0, int64_t(bd.n));
    }
  }
  // A chain step running an element kernel of group g.
  kernels::Backend::ChainStep step(Recorded& k, std::size_t g) const {
    k.note(0, layout(g).neles_pad);
    return [&k](int64_t b, int64_t e) { k.run(b, e); };
  }
  // The chain over the elements on shared faces (`halo`) or over the others.
  void run_piece(std::size_t g, const Chain& c, bool halo) const {
    const int64_t h = I.nhalo[g];
    if (halo) sys.be_.run_chain(0, h, I.block[g], c, {});
    else sys.be_.run_chain(h, layout(g).neles_pad, I.block[g], c, poll);
  }
  ArgValue panel(std::size_t off, int64_t ld) const { return ArgValue::panel(A, off, ld); }
  ArgValue view(std::size_t ix, std::size_t rs = SIZE_MAX) const {
    return rs == SIZE_MAX ? ArgValue::view(A, I.idx.get(), ix)
                          : ArgValue::view(A, I.idx.get(), ix, I.idx.get(), rs);
  }
  // Group g's flux (or gradient) at the solution points from row `row`: a matmul operand, and
  // an element kernel's argument.
  Operand upts(const GroupLayout& l, int row = 0) const {
    return Operand{l.vect_upts + std::size_t(row) * std::size_t(l.vect_ld), std::size_t(l.vect_ld),
                   std::size_t(l.vect_window * nv), std::size_t(l.vect_slot)};
  }
  ArgValue upts_arg(const GroupLayout& l, std::size_t row = 0) const {
    return ArgValue::scratch(A, l.vect_upts + row * std::size_t(l.vect_ld), l.vect_ld, l.vect_window,
                             nv, l.vect_slot);
  }

  void flux_steps(std::size_t g, Chain& c);
  void qpts_flux_steps(std::size_t g, Chain& c);
  void solution_to_fpts(bool prepared);
  void common_solution();
  Chain gradient_chain(std::size_t g);
  kernels::Backend::ChainStep physical_gradient(std::size_t g);
  void gradients();
  void common_fluxes();
  void divergence(const std::vector<RegisterKernel>& then, int prepare);
};

kernels::matmul::Kernel* System::Rhs::make_product(const std::string& key, Product& p) {
  const auto& l = layout(p.group);
  const operators::Matrix& full = operators::get(sys.ops_[p.group], p.op);
  if (p.rows.second == 0) p.rows = {0, int(full.rows)};
  if (p.cols.second == 0) p.cols = {0, int(full.cols)};
  kernels::matmul::Problem q;
  // Only rows `rows` of C are wanted, and only rows `cols` of B can be non-zero.
  q.a = {full.rows, full.cols, {}};
  for (int r = p.rows.first; r < p.rows.second; ++r)
    for (int c = p.cols.first; c < p.cols.second; ++c) q.a.data.push_back(full.data[std::size_t(r) * full.cols + c]);
  q.a.rows = std::size_t(p.rows.second - p.rows.first);
  q.a.cols = std::size_t(p.cols.second - p.cols.first);
  q.beta = p.beta;
  q.precision = sys.cfg_.precision;
  q.n = std::size_t(l.ld);
  const std::size_t ldb = p.b.ld ? p.b.ld : std::size_t(l.ld), ldc = p.c.ld ? p.c.ld : std::size_t(l.ld);
  q.b = {A, p.b.off + std::size_t(p.cols.first) * ldb, ldb, p.b.window, p.b.slot};
  q.c = {A, p.c.off + std::size_t(p.rows.first) * ldc, ldc, p.c.window, p.c.slot};
  auto span = [](const char* what, Span s, std::size_t n) {
    if (s.first == 0 && std::size_t(s.second) == n) return std::string();
    return std::string("-") + what + (s.first ? std::to_string(s.first) + "-" : "") + std::to_string(s.second);
  };
  q.name = l.etype + "-p" + std::to_string(sys.cfg_.order) + "-" + p.op + span("rows", p.rows, full.rows) +
           span("cols", p.cols, full.cols);
  q.block = std::size_t(I.block[p.group] * nv);
  q.c_leaves_chain = p.leaves;
  auto k = kernels::matmul::make_kernel(sys.be_, sys.cfg_.matmul, q);
  I.choices[q.name] = k->provider() + ":" + k->strategy();
  I.mm_bytes[key] = kernels::matmul::analyse(q.a, 1.0).min_bytes(p.beta, I.item, q.n);
  return I.mm.emplace(key, std::move(k)).first->second.get();
}

// A chain step applying a product; its kernel is made on first use (tuned by the provider for
// the group's cache block) and kept under its group, operator and tag.
kernels::Backend::ChainStep System::Rhs::product(Product p) {
  const std::string key = std::to_string(p.group) + ":" + p.op + ":" + p.tag;
  auto it = I.mm.find(key);
  kernels::matmul::Kernel* k = it == I.mm.end() ? make_product(key, p) : it->second.get();
  const int nv_ = nv;
  // Element ranges are column ranges of nv columns per element (AoSoA, S | begin).
  if (!p.only) return [k, nv_](int64_t b, int64_t e) { k->run_columns(std::size_t(b * nv_), std::size_t(e * nv_)); };
  I.mm_ranges[key] = p.only;
  return [k, nv_, only = p.only](int64_t b, int64_t e) {
    auto r = std::lower_bound(only->begin(), only->end(), b,
                              [](const std::pair<int64_t, int64_t>& x, int64_t v) { return x.second <= v; });
    // From the block's first column: a scratch panel's window starts there.
    for (; r != only->end() && r->first < e; ++r)
      k->run_columns_from(std::size_t(b * nv_), std::size_t(std::max(b, r->first) * nv_),
                          std::size_t(std::min(e, r->second) * nv_));
  };
}

// The transformed flux and its divergence (M132 into the result, beta 0): everything of an
// element that needs no neighbour. Runs before the interfaces so it joins a chain.
void System::Rhs::flux_steps(std::size_t g, Chain& c) {
  const auto& l = layout(g);
  if (l.nqpts) return qpts_flux_steps(g, c);
  if (visc) {  // gradcoru_tflux has made the flux, after the gradient's rows
    c.push_back(product({g, "M132", upts(l, nd * l.nupts), l.reg[fout], rout, 0.0, true}));
    return;
  }
  auto& tf = pointwise("tflux" + std::to_string(g) + rin,
                       [&] { return physics::tflux(sys.cfg_.phys, l.nupts, I.affine[g]); },
                       [&] {
                         return Offered{{"u", panel(l.reg[uin], l.ld)},
                                        {"smats", panel(l.smats, nd * l.neles_pad)},
                                        {"f", upts_arg(l)}};
                       });
  c.push_back(step(tf, g));
  c.push_back(product({g, "M132", upts(l), l.reg[fout], rout, 0.0, true}));
}

// With flux anti-aliasing: u (Navier-Stokes: and the physical gradient at the solution
// points, one dimension's rows at a time) to the quadrature points (M7), the flux there, and
// its divergence projected back onto the solution points (M1329 = (M1 - M3 M2) M9).
void System::Rhs::qpts_flux_steps(std::size_t g, Chain& c) {
  const auto& l = layout(g);
  c.push_back(product({g, "M7", l.reg[uin], upts(l, l.qpts_u_row), rin}));
  for (int dim = 0; visc && dim < nd; ++dim)
    c.push_back(product({g, "M7", upts(l, dim * l.nupts), upts(l, l.qpts_f_row + dim * l.nqpts),
                         "grad" + std::to_string(dim)}));
  // An affine group's metric terms are its solution points' panel, read as one row.
  auto& tf = pointwise("qtflux" + std::to_string(g),
                       [&] { return physics::tflux(sys.cfg_.phys, l.nqpts, I.affine[g], l.nupts); },
                       [&] {
                         return Offered{{"u", upts_arg(l, std::size_t(l.qpts_u_row))},
                                        {"smats", panel(l.smats_qpts, nd * l.neles_pad)},
                                        {"f", upts_arg(l, std::size_t(l.qpts_f_row))}};
                       });
  c.push_back(step(tf, g));
  c.push_back(product({g, "M1329", upts(l, l.qpts_f_row), l.reg[fout], rout, 0.0, true}));
}

// 1. The solution to the flux points (Euler: and the flux and its divergence; the solution
//    register may be the result register, and each block reads its u before M132 writes).
//    Shared faces: the elements on them first, then this side's u goes to the other parts
//    while the other elements' chains and this part's own interfaces run.
void System::Rhs::solution_to_fpts(bool prepared) {
  std::vector<Chain> first(ngroups());
  for (std::size_t g = 0; g < ngroups(); ++g) {
    const auto& l = layout(g);
    if (!prepared) first[g].push_back(product({g, "M0", l.reg[uin], l.scal_fpts, rin, 0.0, visc}));
    if (!visc) flux_steps(g, first[g]);
    if (sys.halo_ && !first[g].empty()) run_piece(g, first[g], true);
  }
  if (sys.halo_) sys.halo_->post_solution();
  for (std::size_t g = 0; g < ngroups(); ++g)
    if (!first[g].empty()) run_piece(g, first[g], false);
}

// 2. The LDG common solution at internal faces and boundaries.
void System::Rhs::common_solution() {
  internal_faces("intconu", [&] { return physics::intconu(sys.cfg_.phys); });
  boundaries("bcconu",
             [&](const IfaceData& bd) { return physics::bcconu(sys.cfg_.phys, bd.bc.type, bd.bc.values); });
  if (sys.halo_) sys.halo_->finish_conu();
}

// 3. One group's gradient chain: uncorrected + correction (M460, M6), to physical space with
//    the flux made from it (physical_gradient), at the flux points (M0 per dimension), then
//    the flux's divergence. One-sided LDG: comm_fpts holds the jump u_c - u_f
//    (physics::ldg_one_sided). The common-solution rows past grad_rows are never written (the
//    jumps live where the gradients are read) and stay zero: M6 skips them, and the rows that
//    only some elements need are applied to those elements' blocks only.
Chain System::Rhs::gradient_chain(std::size_t g) {
  const auto& l = layout(g);
  const GradRows& gr = I.grad_rows[g];
  Chain c{product({g, one_sided ? "M4" : "M460", l.reg[uin], upts(l), rin})};
  if (gr.most) c.push_back(product({g, "M6", l.comm_fpts, upts(l), "", 1.0, false, {}, {0, gr.most}}));
  if (!gr.extra.empty())
    c.push_back(product({g, "M6", l.comm_fpts, upts(l), "extra", 1.0, false, {}, {gr.most, gr.all}, &gr.extra}));
  c.push_back(physical_gradient(g));
  for (int dim = 0; dim < nd; ++dim) {
    const std::size_t out = l.vect_fpts + std::size_t(dim) * l.nfpts * l.ld;
    const std::string tag = "grad" + std::to_string(dim);
    if (gr.most) c.push_back(product({g, "M0", upts(l, dim * l.nupts), out, tag, 0.0, true, {0, gr.most}}));
    if (!gr.extra.empty())
      c.push_back(product({g, "M0", upts(l, dim * l.nupts), out, tag + "extra", 0.0, true,
                           {gr.most, gr.all}, {}, &gr.extra}));
  }
  flux_steps(g, c);
  return c;
}

// The gradient at the solution points to physical space, and with it (gradcoru_tflux) the
// flux at them, into the rows after the gradient's; with anti-aliasing the flux is made at the
// quadrature points instead (qpts_flux_steps), and this kernel makes the gradient only.
kernels::Backend::ChainStep System::Rhs::physical_gradient(std::size_t g) {
  const auto& l = layout(g);
  const auto& phys = sys.cfg_.phys;
  if (l.nqpts)
    return step(pointwise("gradcoru" + std::to_string(g), [&] { return physics::gradcoru(phys, l.nupts, I.affine[g]); },
                          [&] {
                            return Offered{{"grad", upts_arg(l)},
                                           {"smats", panel(l.smats, nd * l.neles_pad)},
                                           {"rcpdjac", panel(l.rcpdjac, l.neles_pad)}};
                          }),
                g);
  return step(pointwise("gradcoru_tflux" + std::to_string(g) + rin,
                        [&] { return physics::gradcoru_tflux(phys, l.nupts, I.affine[g]); },
                        [&] {
                          return Offered{{"u", panel(l.reg[uin], l.ld)},
                                         {"smats", panel(l.smats, nd * l.neles_pad)},
                                         {"rcpdjac", panel(l.rcpdjac, l.neles_pad)},
                                         {"grad", upts_arg(l)},
                                         {"f", upts_arg(l, std::size_t(nd * l.nupts))}};
                        }),
              g);
}

// 3. Every group's gradient chain; as in 1, the elements on shared faces first, their
//    gradients posted, then the others.
void System::Rhs::gradients() {
  std::vector<Chain> grad(ngroups());
  for (std::size_t g = 0; g < ngroups(); ++g) {
    grad[g] = gradient_chain(g);
    if (sys.halo_) run_piece(g, grad[g], true);
  }
  if (sys.halo_) sys.halo_->post_gradients();
  for (std::size_t g = 0; g < ngroups(); ++g) run_piece(g, grad[g], false);
}

// 4. The common normal fluxes at internal faces and boundaries.
void System::Rhs::common_fluxes() {
  internal_faces("intcflux", [&] { return physics::intcflux(sys.cfg_.phys); });
  boundaries("bccflux",
             [&](const IfaceData& bd) { return physics::bccflux(sys.cfg_.phys, bd.bc.type, bd.bc.values); });
  if (sys.halo_) sys.halo_->finish_cflux();
}

// 5. The correction's divergence (M3, beta 1) and the transformation to physical space, then
//    the register kernels `then` on each block just written, and the next RHS's first product
//    (`prepare`) while the block is in cache; the common fluxes M3 read are dead by then.
void System::Rhs::divergence(const std::vector<RegisterKernel>& then, int prepare) {
  for (std::size_t g = 0; g < ngroups(); ++g) {
    const auto& l = layout(g);
    Chain c{product({g, "M3", l.scal_fpts, l.reg[fout], rout, 1.0})};
    c.push_back(step(pointwise("negdivconf" + std::to_string(g) + rout,
                               [&] { return physics::negdivconf(sys.cfg_.phys, l.nupts, I.affine[g]); },
                               [&] {
                                 return Offered{{"tdivf", panel(l.reg[fout], l.ld)},
                                                {"rcpdjac", panel(l.rcpdjac, l.neles_pad)}};
                               }),
                     g));
    for (const auto& rk : then) {
      auto& k = pointwise("reg" + std::to_string(g) + detail::register_key(rk, true),
                          [&] { return detail::register_kernel_on_elements(rk.spec, l.nupts); },
                          [&] {
                            return detail::register_args(
                                rk, [&](int r) { return panel(l.reg.at(std::size_t(r)), l.ld); });
                          });
      std::size_t s = 0;
      for (std::size_t j = 0; j < rk.spec.args.size(); ++j)
        if (rk.spec.args[j].kind == kernels::pointwise::ArgKind::scalar) k.set_scalar(j, rk.scalars.at(s++));
      // Element ranges are ranges of nv one-value "elements" per element, as for the products.
      k.note(0, l.neles_pad * nv);
      c.push_back([&k, n = nv](int64_t b, int64_t e) { k.run(b * n, e * n); });
    }
    if (prepare >= 0)
      c.push_back(product({g, "M0", l.reg[std::size_t(prepare)], l.scal_fpts, "r" + std::to_string(prepare), 0.0, visc}));
    sys.be_.run_chain(l.neles_pad, I.block[g], c);
  }
}

void System::common_solution_of(int reg, double t) {
  impl_->fpts_of = -1;  // scal_fpts is overwritten: no prepared RHS input stands
  Rhs r(*this, t, reg, reg);
  r.solution_to_fpts(false);
  r.common_solution();
}

// The RHS in the order its stages run (the class comment of system.hpp gives the pipeline).
void System::rhs(double t, int uin, int fout, const std::vector<RegisterKernel>& then, int prepare) {
  // uin's flux-point solution is there already when the last rhs prepared it.
  const bool prepared = impl_->fpts_of == uin;
  impl_->fpts_of = -1;
  count_floor(uin, fout, then, 0, prepared);
  Rhs r(*this, t, uin, fout);
  r.solution_to_fpts(prepared);
  if (r.visc) {
    r.common_solution();
    r.gradients();
  }
  r.common_fluxes();
  r.divergence(then, prepare);
  impl_->fpts_of = prepare;
}

}  // namespace frmini::solver
