#include "solver/system/halo.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>
#include <string>

#include "solver/system/system.hpp"

namespace frmini::solver {

using kernels::pointwise::ArgKind;
using kernels::pointwise::ArgValue;
using kernels::pointwise::Intent;
using kernels::pointwise::Spec;

struct Halo::Neighbour {
  const MpiInterfaces* mi;
  int64_t n = 0;
  // Index tables (int64): u at the flux points, the gradients' view and row strides, the
  // LDG common solution; each n long, in that order.
  std::unique_ptr<kernels::Buffer> idx;
  std::size_t ix = 0, gx = 0, rs = 0, cx = 0;
  // Arrays of n points: received/sent u and gradients, the far side's discarded outputs,
  // this side's normals.
  std::unique_ptr<kernels::Buffer> send_u, recv_u, send_g, recv_g, scratch, nrm, magn;
  std::vector<char> host_send_u, host_recv_u, host_send_g, host_recv_g;
  std::map<std::string, std::unique_ptr<kernels::pointwise::PointwiseKernel>> kernels;
};

namespace {

// An interface kernel with its far side (ur, gradr, ucr) read from and written to arrays.
Spec far_side_arrays(Spec s) {
  for (auto& a : s.args)
    if (a.far) a.kind = ArgKind::array, a.far = false;
  s.name += "_mpi";
  return s;
}

Spec pack_spec(int nd, int nv, bool grads) {
  Spec s;
  s.name = grads ? "pack_grad" : "pack_u";
  s.space = kernels::pointwise::Space::points;
  const std::vector<int> shape = grads ? std::vector<int>{nd, nv} : std::vector<int>{nv};
  s.args = {{"x", ArgKind::view, Intent::in, shape}, {"o", ArgKind::array, Intent::out, shape}};
  s.defines["NVARS"] = std::to_string(nv);
  s.defines["NDIMS"] = std::to_string(nd);
  s.body = grads ? "for (int d = 0; d < NDIMS; d++) for (int k = 0; k < NVARS; k++) o[d][k] = x[d][k];"
                 : "for (int k = 0; k < NVARS; k++) o[k] = x[k];";
  return s;
}

}  // namespace

std::vector<MpiInterfaces> exchange_mpi_interfaces(const meshes::MeshPart& part, comm::Comm& comm,
                                                   const std::vector<GroupGeometry>& geos,
                                                   const std::vector<std::vector<int>>& fpts_face) {
  // Every neighbour is a part this one shares a face with, and the other way round.
  std::map<int, std::vector<double>> send = mpi_face_positions(part, geos, fpts_face);
  for (const auto& r : part.remote) send[r.part];  // a neighbour may be sent nothing
  std::vector<comm::Comm::Message> s, r;
  std::map<int, uint64_t> nsend, nrecv;
  for (auto& [p, x] : send) {
    nsend[p] = x.size(), nrecv[p] = 0;
    s.push_back({p, &nsend[p], sizeof(uint64_t)});
    r.push_back({p, &nrecv[p], sizeof(uint64_t)});
  }
  comm.post(s, r);
  comm.wait();
  std::map<int, std::vector<double>> received;
  s.clear(), r.clear();
  for (auto& [p, x] : send) {
    auto& y = received[p];
    y.resize(nrecv[p]);
    s.push_back({p, x.data(), x.size() * sizeof(double)});
    r.push_back({p, y.data(), y.size() * sizeof(double)});
  }
  comm.post(s, r);
  comm.wait();
  return build_mpi_interfaces(part, geos, fpts_face, received);
}

Halo::Halo(System& sys, const std::vector<MpiInterfaces>& ifs, comm::Comm& comm) : sys_(sys), comm_(comm) {
  auto& be = sys.backend();
  const auto& lay = sys.layout();
  const int nd = sys.ndims(), nv = sys.nvars();
  const std::size_t soa = sys.soa_width();
  const bool double_ = sys.config().precision == kernels::Precision::double_;
  const std::size_t item = double_ ? 8 : 4;
  const bool visc = sys.config().phys.viscous();
  for (const auto& mi : ifs) {
    auto nb = std::make_unique<Neighbour>();
    nb->mi = &mi;
    nb->n = int64_t(mi.size());
    const std::size_t n = mi.size();
    std::vector<int64_t> idx;
    auto table = [&](auto base) {
      const std::size_t off = idx.size();
      for (const auto& p : mi.left) {
        const auto& l = lay[std::size_t(p.group)];
        idx.push_back(int64_t(base(l) + l.at(p.fpt, 0, p.elem, nv, soa)));
      }
      return off;
    };
    nb->ix = table([](const GroupLayout& l) { return l.scal_fpts; });
    if (visc) {
      nb->gx = table([](const GroupLayout& l) { return l.vect_fpts; });
      nb->rs = idx.size();
      for (const auto& p : mi.left) idx.push_back(int64_t(lay[std::size_t(p.group)].nfpts) * lay[std::size_t(p.group)].ld);
      nb->cx = table([](const GroupLayout& l) { return l.comm_fpts; });
    }
    nb->idx = be.alloc(std::max<std::size_t>(idx.size(), 1) * 8);
    if (!idx.empty()) be.upload(*nb->idx, 0, idx.data(), idx.size() * 8);
    auto array = [&](std::size_t values) { return be.alloc(std::max<std::size_t>(values, 1) * item); };
    nb->send_u = array(std::size_t(nv) * n), nb->recv_u = array(std::size_t(nv) * n);
    nb->scratch = array(std::size_t(nv) * n);
    nb->host_send_u.resize(std::size_t(nv) * n * item), nb->host_recv_u.resize(std::size_t(nv) * n * item);
    if (visc) {
      nb->send_g = array(std::size_t(nd * nv) * n), nb->recv_g = array(std::size_t(nd * nv) * n);
      nb->host_send_g.resize(std::size_t(nd * nv) * n * item), nb->host_recv_g.resize(std::size_t(nd * nv) * n * item);
    }
    // Normals and |pnorm| as arrays of points (component-major, as the system's interfaces).
    std::vector<double> nrm(std::size_t(nd) * n);
    for (std::size_t j = 0; j < n; ++j)
      for (int c = 0; c < nd; ++c) nrm[std::size_t(c) * n + j] = mi.nrm[j * std::size_t(nd) + std::size_t(c)];
    nb->nrm = array(nrm.size()), nb->magn = array(n);
    auto put = [&](kernels::Buffer& b, const std::vector<double>& v) {
      if (v.empty()) return;
      if (double_) {
        be.upload(b, 0, v.data(), v.size() * 8);
      } else {
        std::vector<float> f(v.begin(), v.end());
        be.upload(b, 0, f.data(), f.size() * 4);
      }
    };
    put(*nb->nrm, nrm);
    put(*nb->magn, mi.magn);
    if (nb->n > 0) traffic_.neighbours += 1;
    nbs_.push_back(std::move(nb));
  }
}

Halo::~Halo() = default;

std::size_t Halo::bytes_per_rhs() const {
  std::size_t b = 0;
  for (const auto& nb : nbs_) b += nb->host_send_u.size() + nb->host_send_g.size();
  return b;
}

kernels::pointwise::PointwiseKernel& Halo::kernel(Neighbour& nb, const std::string& which, bool as_right) {
  const std::string key = which + (as_right ? ":r" : ":l");
  auto it = nb.kernels.find(key);
  if (it != nb.kernels.end()) return *it->second;
  auto& be = sys_.backend();
  const auto prec = sys_.config().precision;
  const int nd = sys_.ndims(), nv = sys_.nvars();
  kernels::Buffer* A = &sys_.arena();
  const int64_t n = nb.n;
  Spec s;
  if (which == "pack_u" || which == "pack_grad") {
    s = pack_spec(nd, nv, which == "pack_grad");
  } else {
    physics::Options o = sys_.config().phys;
    if (as_right) o.ldg_beta = -o.ldg_beta;  // this side is the one-part run's right side
    s = far_side_arrays(which == "intconu" ? physics::intconu(o) : physics::intcflux(o));
  }
  // By name, as the RHS binds them (kernels::pointwise::in_spec_order): this part's side is
  // views into the arena, the other part's side the received arrays.
  const bool pack_u = which == "pack_u";
  const std::map<std::string, ArgValue> offered = {
      {"ul", ArgValue::view(A, nb.idx.get(), nb.ix)},
      {"ur", ArgValue::panel(nb.recv_u.get(), 0, n)},
      {"ucl", ArgValue::view(A, nb.idx.get(), nb.cx)},
      {"ucr", ArgValue::panel(nb.scratch.get(), 0, n)},
      {"gradl", ArgValue::view(A, nb.idx.get(), nb.gx, nb.idx.get(), nb.rs)},
      {"gradr", ArgValue::panel(nb.recv_g.get(), 0, n)},
      {"nrm", ArgValue::panel(nb.nrm.get(), 0, n)},
      {"magn", ArgValue::panel(nb.magn.get(), 0, n)},
      // The packing kernels copy x (this side's solution or gradient) into o (the send array).
      {"x", pack_u ? ArgValue::view(A, nb.idx.get(), nb.ix) : ArgValue::view(A, nb.idx.get(), nb.gx, nb.idx.get(), nb.rs)},
      {"o", ArgValue::panel(pack_u ? nb.send_u.get() : nb.send_g.get(), 0, n)}};
  const std::vector<ArgValue> args = kernels::pointwise::in_spec_order(s, offered);
  auto k = be.pointwise(s, prec);
  k->bind(args);
  return *nb.kernels.emplace(key, std::move(k)).first->second;
}

void Halo::post(bool grads) {
  if (posted_) throw std::logic_error("halo: posted twice");
  auto& be = sys_.backend();
  std::vector<comm::Comm::Message> sends, recvs;
  for (auto& nb : nbs_) {
    if (nb->n == 0) continue;
    kernel(*nb, grads ? "pack_grad" : "pack_u", false).run(0, nb->n);
    auto& hs = grads ? nb->host_send_g : nb->host_send_u;
    auto& hr = grads ? nb->host_recv_g : nb->host_recv_u;
    be.download(hs.data(), grads ? *nb->send_g : *nb->send_u, 0, hs.size());
    sends.push_back({nb->mi->part, hs.data(), hs.size()});
    traffic_.bytes += double(hs.size()), traffic_.messages += 1;
    recvs.push_back({nb->mi->part, hr.data(), hr.size()});
  }
  comm_.post(sends, recvs);
  posted_ = true, posted_grads_ = grads;
}

void Halo::finish() {
  if (!posted_) return;
  const auto t0 = std::chrono::steady_clock::now();
  comm_.wait();
  traffic_.wait_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto& be = sys_.backend();
  for (auto& nb : nbs_) {
    if (nb->n == 0) continue;
    auto& hr = posted_grads_ ? nb->host_recv_g : nb->host_recv_u;
    be.upload(posted_grads_ ? *nb->recv_g : *nb->recv_u, 0, hr.data(), hr.size());
  }
  posted_ = false;
}

void Halo::progress() {
  if (posted_) comm_.progress();
}

void Halo::post_solution() { post(false); }
void Halo::post_gradients() { post(true); }

void Halo::finish_with(const std::string& which) {
  finish();
  for (auto& nb : nbs_) {
    const auto [lb, le] = nb->mi->as_left();
    const auto [rb, re] = nb->mi->as_right();
    if (le > lb) kernel(*nb, which, false).run(int64_t(lb), int64_t(le));
    if (re > rb) kernel(*nb, which, true).run(int64_t(rb), int64_t(re));
  }
}

void Halo::finish_conu() { finish_with("intconu"); }
void Halo::finish_cflux() { finish_with("intcflux"); }

}  // namespace frmini::solver
