// The System's registers: pointwise arithmetic over them (the integrators' updates), the error
// norm, the finiteness check, and solutions to and from the host.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "solver/system/system_impl.hpp"

namespace frmini::solver {

// A register kernel (a `points` kernel of {1} arrays) as an element kernel over one group's
// registers: every array becomes a field of one value, and an element of the group nv such
// "elements", for an AoSoA row holds an SoA block's variables one after another. The body
// reads and writes the same values, so it is not touched.
kernels::pointwise::Spec detail::register_kernel_on_elements(const kernels::pointwise::Spec& spec, int nupts) {
  using namespace kernels::pointwise;
  Spec es = spec;
  es.space = Space::element_points;
  for (auto& a : es.args) {
    if (a.kind == ArgKind::array && a.shape == std::vector<int>{1})
      a.kind = ArgKind::field;
    else if (a.kind != ArgKind::scalar)
      throw std::logic_error(spec.name + ": register kernels take {1} arrays and scalars only");
  }
  es.defines["NPTS"] = std::to_string(nupts);
  return es;
}

std::vector<ArgValue> detail::register_args(const System::RegisterKernel& rk,
                                            const std::function<ArgValue(int reg)>& reg_panel) {
  using namespace kernels::pointwise;
  std::vector<ArgValue> args;
  std::size_t r = 0, s = 0;
  for (const auto& a : rk.spec.args) {
    if (a.kind == ArgKind::array)
      args.push_back(reg_panel(rk.regs.at(r++)));
    else if (a.kind == ArgKind::scalar)
      args.push_back(ArgValue::value(rk.scalars.at(s++)));
    else
      throw std::logic_error(rk.spec.name + ": register kernels take arrays and scalars only");
  }
  return args;
}

void System::run_on_registers(const RegisterKernel& rk) {
  Impl& I = *impl_;
  I.fpts_of = -1;  // a register changes: no rhs prepared by the last one stands
  using namespace kernels::pointwise;
  const Spec& spec = rk.spec;
  count_floor(-1, -1, {rk});
  const std::string key = "reg" + detail::register_key(rk, false);
  auto it = I.pw.find(key);
  if (it == I.pw.end())
    it = I.pw.emplace(key, std::make_unique<Recorded>(be_.pointwise(spec, cfg_.precision))).first;
  const int64_t len = int64_t(I.reg_len);
  it->second->bind(detail::register_args(
      rk, [&](int r) { return ArgValue::panel(I.arena.get(), I.reg_off.at(std::size_t(r)), len); }));
  it->second->launch(0, len);
}

System::RegisterKernel System::axnpby_kernel(int dst, const std::vector<std::pair<double, int>>& terms) {
  // dst's own coefficient, if any, and the other registers.
  double a0 = 0;
  bool reads_dst = false;
  std::vector<std::pair<double, int>> others;
  for (const auto& [a, r] : terms) {
    if (r == dst) {
      a0 += a;
      reads_dst = true;
    } else {
      others.push_back({a, r});
    }
  }
  using namespace kernels::pointwise;
  RegisterKernel k;
  Spec& s = k.spec;
  s.name = "axnpby";
  s.space = Space::points;
  s.args.push_back({"r0", ArgKind::array, reads_dst ? Intent::inout : Intent::out, {1}});
  for (std::size_t j = 0; j < others.size(); ++j)
    s.args.push_back({"r" + std::to_string(j + 1), ArgKind::array, Intent::in, {1}});
  for (std::size_t j = 0; j <= others.size(); ++j)
    s.args.push_back({"a" + std::to_string(j), ArgKind::scalar, Intent::in, {}});
  // A register never read is never multiplied: 0*NaN would poison the result.
  s.body = reads_dst ? "r0[0] = a0*r0[0]" : "r0[0] = 0.0";
  for (std::size_t j = 0; j < others.size(); ++j)
    s.body += " + a" + std::to_string(j + 1) + "*r" + std::to_string(j + 1) + "[0]";
  s.body += ";";
  if (!reads_dst) s.body += " (void)a0;";
  k.regs = {dst};
  k.scalars = {a0};
  for (const auto& o : others) {
    k.regs.push_back(o.second);
    k.scalars.push_back(o.first);
  }
  return k;
}

void System::axnpby(int dst, const std::vector<std::pair<double, int>>& terms) {
  run_on_registers(axnpby_kernel(dst, terms));
}

double System::error_norm(int cur, int prev, int err, double atol, double rtol, bool l2) {
  // On the device: every value of `err` becomes its weighted error (squared for the L2 norm),
  // padding elements 0 (their 1/|J| is 0), then the backend reduces the register.
  using namespace kernels::pointwise;
  Impl& I = *impl_;
  const int nv = nvars();
  count_floor(-1, -1, {}, 4);  // err read and written, cur and prev read
  for (std::size_t g = 0; g < layout_.size(); ++g) {
    const auto& l = layout_[g];
    const std::string key = std::string(l2 ? "errest_l2" : "errest_uniform") + std::to_string(g);
    auto it = I.pw.find(key);
    if (it == I.pw.end()) {
      Spec s;
      s.name = l2 ? "errest_l2" : "errest_uniform";
      s.space = Space::element_points;
      s.args = {{"e", ArgKind::field, Intent::inout, {nv}},
                {"c", ArgKind::field, Intent::in, {nv}},
                {"p", ArgKind::field, Intent::in, {nv}},
                {"rcpdjac", ArgKind::field, Intent::in, {1}},
                {"atol", ArgKind::scalar, Intent::in, {}},
                {"rtol", ArgKind::scalar, Intent::in, {}}};
      s.defines["NPTS"] = std::to_string(l.nupts);
      s.defines["NVARS"] = std::to_string(nv);
      // + 0*c: a NaN (or inf) in the solution reaches the norm even where the comparison
      // would pass it over.
      s.body = std::string("for (int k = 0; k < NVARS; k++) {\n") +
               "  const fpdtype_t ac = fabs(c[k]), ap = fabs(p[k]);\n"
               "  const fpdtype_t x = e[k]/(atol + rtol*(ac > ap ? ac : ap)) + 0*c[k];\n" +
               (l2 ? "  e[k] = rcpdjac[0] != 0 ? x*x : 0;\n" : "  e[k] = rcpdjac[0] != 0 ? x : 0;\n") +
               "}";
      it = I.pw.emplace(key, std::make_unique<Recorded>(be_.pointwise(s, cfg_.precision))).first;
    }
    Buffer* A = I.arena.get();
    it->second->bind({ArgValue::panel(A, l.reg[err], l.ld), ArgValue::panel(A, l.reg[cur], l.ld),
                      ArgValue::panel(A, l.reg[prev], l.ld),
                      ArgValue::panel(A, l.rcpdjac, l.neles_pad), ArgValue::value(atol),
                      ArgValue::value(rtol)});
    it->second->launch(0, l.neles_pad);
  }
  // Between groups (alignment gaps) the register holds zeros.
  double r = be_.reduce(*I.arena, I.reg_off[err], I.reg_len, cfg_.precision,
                        l2 ? kernels::Backend::Reduction::sum
                           : kernels::Backend::Reduction::max_abs);
  if (comm_) {
    // NaN survives neither MPI_SUM nor MPI_MAX portably: flag it apart.
    double v[2] = {std::isfinite(r) ? r : 0.0, std::isfinite(r) ? 0.0 : 1.0};
    if (l2)
      comm_->sum(v, 1);
    else
      comm_->max(v, 1);
    comm_->max(v + 1, 1);
    r = v[1] > 0 ? std::nan("") : v[0];
  }
  if (l2) r = std::sqrt(r / double(std::max<int64_t>(global_ndofs() * nv, 1)));
  return std::isfinite(r) ? r : std::numeric_limits<double>::infinity();
}

bool System::finite(int reg) {
  Impl& I = *impl_;
  const double r = be_.reduce(*I.arena, I.reg_off[reg], I.reg_len, cfg_.precision,
                              kernels::Backend::Reduction::max_abs);
  double bad = std::isfinite(r) ? 0.0 : 1.0;
  if (comm_) comm_->max(&bad, 1);
  return bad == 0.0;
}

void System::copy_register(int dst, int src) {
  if (dst == src) return;
  Impl& I = *impl_;
  I.fpts_of = -1;  // a register changes: no rhs prepared by the last one stands
  count_floor(-1, -1, {}, 2);
  be_.copy(*I.arena, I.reg_off[dst] * I.item, *I.arena, I.reg_off[src] * I.item,
           I.reg_len * I.item);
}

void System::set_from_positions(
    int reg, const std::function<kernels::pointwise::Spec(int nupts)>& spec_for) {
  Impl& I = *impl_;
  I.fpts_of = -1;  // a register changes: no rhs prepared by the last one stands
  const int nd = ndims();
  for (std::size_t g = 0; g < layout_.size(); ++g) {
    const auto& l = layout_[g];
    const auto& geo = geos_[g];
    // Coordinates as a panel of nd values per point; padding elements take element 0's
    // points, so their state is a valid one (their fluxes are discarded).
    std::vector<double> p(std::size_t(l.nupts) * nd * l.neles_pad);
    for (int64_t e = 0; e < l.neles_pad; ++e) {
      const int64_t src = e < l.neles ? e : 0;
      for (int i = 0; i < l.nupts; ++i)
        for (int c = 0; c < nd; ++c)
          p[l.at(i, c, e, nd, I.soa)] = geo.ploc_upts[(std::size_t(i) * nd + c) * l.neles + src];
    }
    auto buf = be_.alloc(p.size() * I.item);
    if (cfg_.precision == kernels::Precision::double_) {
      be_.upload(*buf, 0, p.data(), p.size() * 8);
    } else {
      std::vector<float> f(p.begin(), p.end());
      be_.upload(*buf, 0, f.data(), f.size() * 4);
    }
    auto k = be_.pointwise(spec_for(l.nupts), cfg_.precision);
    k->bind({ArgValue::panel(buf.get(), 0, nd * l.neles_pad),
             ArgValue::panel(I.arena.get(), l.reg[reg], l.ld)});
    k->run(0, l.neles_pad);
    be_.synchronize();  // before the coordinates' buffer is freed
  }
}

void System::upload_solution(int reg, const std::vector<std::vector<double>>& soln) {
  Impl& I = *impl_;
  I.fpts_of = -1;  // a register changes: no rhs prepared by the last one stands
  const int nv = nvars();
  for (std::size_t g = 0; g < layout_.size(); ++g) {
    const auto& l = layout_[g];
    // Padding elements copy element 0: a valid state keeps their (discarded) fluxes finite.
    const std::vector<double> p = elements_to_panel(l, soln[g], nv, I.soa);
    if (cfg_.precision == kernels::Precision::double_) {
      be_.upload(*I.arena, l.reg[reg] * 8, p.data(), p.size() * 8);
    } else {
      std::vector<float> f(p.begin(), p.end());
      be_.upload(*I.arena, l.reg[reg] * 4, f.data(), f.size() * 4);
    }
  }
}

std::vector<std::vector<double>> System::download_solution(int reg) {
  Impl& I = *impl_;
  const int nv = nvars();
  std::vector<std::vector<double>> out;
  for (const auto& l : layout_) {
    std::vector<double> p(std::size_t(l.nupts) * l.ld);
    if (cfg_.precision == kernels::Precision::double_) {
      be_.download(p.data(), *I.arena, l.reg[reg] * 8, p.size() * 8);
    } else {
      std::vector<float> f(p.size());
      be_.download(f.data(), *I.arena, l.reg[reg] * 4, f.size() * 4);
      std::copy(f.begin(), f.end(), p.begin());
    }
    out.push_back(panel_to_elements(l, p, nv, I.soa));
  }
  return out;
}

std::vector<std::vector<double>> System::host_field(
    const std::function<void(const double* x, double* u)>& f) const {
  const int nd = ndims(), nv = nvars();
  std::vector<std::vector<double>> out;
  for (std::size_t g = 0; g < layout().size(); ++g) {
    const auto& l = layout()[g];
    const auto& geo = geometry()[g];
    std::vector<double> field(std::size_t(l.neles) * nv * l.nupts);
    std::vector<double> u(static_cast<std::size_t>(nv));
    for (int64_t e = 0; e < l.neles; ++e)
      for (int i = 0; i < l.nupts; ++i) {
        double x[3] = {0.0, 0.0, 0.0};
        for (int c = 0; c < nd; ++c) x[c] = geo.ploc_upts[(std::size_t(i) * nd + c) * l.neles + e];
        f(x, u.data());
        for (int v = 0; v < nv; ++v) field[(std::size_t(e) * nv + v) * l.nupts + i] = u[std::size_t(v)];
      }
    out.push_back(std::move(field));
  }
  return out;
}

}  // namespace frmini::solver
