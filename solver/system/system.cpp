#include "solver/system/system.hpp"

#include "solver/system/halo.hpp"
#include "solver/system/system_impl.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "base/error.hpp"
#include "operators/antialias.hpp"

namespace frmini::solver {


namespace {

// Whether smats and 1/det J agree at every solution point of every element of a group to
// 1e-12 of their size (PyFR's "linear" elements, found by their values): then the first
// point's stand for all. Straight elements round at 1e-15 to 1e-14 of it (p = 1-4, the
// metrics computed from element-relative coordinates: compute_geometry); 1e-12 leaves room
// for higher orders, and a real curvature that small changes nothing in double.
bool affine_metrics(const GroupGeometry& geo, int nupts, int nd) {
  constexpr double rel = 1e-12;
  const std::size_t ne = std::size_t(geo.neles), nm = std::size_t(nd) * nd;
  if (ne == 0 || nupts < 2) return false;
  for (std::size_t e = 0; e < ne; ++e) {
    double scale = 0;
    for (std::size_t m = 0; m < nm; ++m) scale = std::max(scale, std::abs(geo.smats_upts[m * ne + e]));
    const double tol = rel * scale;
    for (int i = 1; i < nupts; ++i) {
      for (std::size_t m = 0; m < nm; ++m)
        if (std::abs(geo.smats_upts[(std::size_t(i) * nm + m) * ne + e] - geo.smats_upts[m * ne + e]) > tol)
          return false;
      const double r0 = geo.rcpdjac_upts[e];
      if (std::abs(geo.rcpdjac_upts[std::size_t(i) * ne + e] - r0) > rel * std::abs(r0)) return false;
    }
  }
  return true;
}

std::vector<double> transpose_points(const std::vector<double>& v, std::size_t n, int nd) {
  std::vector<double> t(v.size());
  for (std::size_t j = 0; j < n; ++j)
    for (int c = 0; c < nd; ++c) t[c * n + j] = v[j * nd + c];
  return t;
}

}  // namespace

System::System(kernels::Backend& be, const meshes::Mesh& mesh, SystemConfig cfg)
    : System(be, mesh, std::move(cfg), nullptr, nullptr) {}

System::System(kernels::Backend& be, const meshes::MeshPart& part, comm::Comm& comm, SystemConfig cfg)
    : System(be, part.mesh, std::move(cfg), &part, &comm) {}

System::System(kernels::Backend& be, const meshes::Mesh& mesh, SystemConfig cfg,
               const meshes::MeshPart* part, comm::Comm* comm_arg)
    : be_(be), mesh_(mesh), cfg_(std::move(cfg)), impl_(std::make_unique<Impl>()), comm_(comm_arg) {
  Impl& I = *impl_;
  if (cfg_.phys.ndims != mesh.ndims) throw std::logic_error("system: physics ndims differs from mesh");
  I.item = kernels::itemsize(cfg_.precision);
  I.soa = be.soa_width(cfg_.precision);
  build_operators_and_interfaces(part);
  check_bcs();
  // Arena plan: registers first (each one contiguous over all groups), then per-group arrays,
  // then interface arrays.
  ArenaPlan plan(be.alignment(), I.item);
  plan_groups(plan);
  plan_arrays(plan);
  I.arena = be.alloc(plan.size() * I.item);
  upload_geometry();
  std::vector<int64_t> idx = upload_interfaces();
  plan_gradient_rows();
  I.idx = be.alloc(std::max<std::size_t>(idx.size(), 1) * sizeof(int64_t));
  if (!idx.empty()) be.upload(*I.idx, 0, idx.data(), idx.size() * sizeof(int64_t));
  if (!ifs_.mpi.empty()) halo_ = std::make_unique<Halo>(*this, ifs_.mpi, *comm_);
  I.nhalo.assign(layout_.size(), 0);
  if (halo_ && part)
    for (std::size_t g = 0; g < layout_.size(); ++g) {
      const int64_t s = int64_t(I.soa);
      I.nhalo[g] = std::min(layout_[g].neles_pad, (part->nhalo.at(g) + s - 1) / s * s);
    }
  double n = double(ndofs());
  if (comm_) comm_->sum(&n, 1);
  global_ndofs_ = int64_t(n);
}

void set_antialias(SystemConfig& cfg, const std::string& value) {
  cfg.antialias_flux = value == "flux" || value == "flux,surf-flux";
  cfg.antialias_surf = value == "surf-flux" || value == "flux,surf-flux";
}

// Operators and geometry per group, and the faces between elements, boundaries and parts.
void System::build_operators_and_interfaces(const meshes::MeshPart* part) {
  const int nd = mesh_.ndims;
  std::vector<std::vector<int>> fpts_face;
  for (const auto& g : mesh_.groups) {
    auto it = cfg_.upts.find(g.etype);
    ops_.push_back(operators::build_operators(g.etype, cfg_.order,
                                              it == cfg_.upts.end() ? "" : it->second));
    // The surface part first: the volume part's M1329 holds M3·M2, which it changes.
    if (cfg_.antialias_surf) operators::add_surface_antialias(ops_.back(), cfg_.face_quad_deg);
    if (cfg_.antialias_flux) {
      auto q = cfg_.quad_deg.find(g.etype);
      operators::add_flux_antialias(ops_.back(), q == cfg_.quad_deg.end() ? -1 : q->second);
    }
    geos_.push_back(compute_geometry(g, nd, ops_.back()));
    impl_->affine.push_back(cfg_.uniform_metrics && affine_metrics(geos_.back(), ops_.back().nupts, nd));
    fpts_face.push_back(ops_.back().fpts_face);
  }
  ifs_ = build_interfaces(mesh_, geos_, fpts_face, part ? &part->gelem : nullptr);
  if (part && comm_) ifs_.mpi = exchange_mpi_interfaces(*part, *comm_, geos_, fpts_face);

}

// Boundary conditions: one for every boundary that has faces, none for a missing boundary.
void System::check_bcs() const {
  for (const auto& b : ifs_.boundaries)
    if (b.size() && !cfg_.bcs.count(b.name))
      throw UserError("boundary '" + b.name + "' of the mesh has no boundary condition [bcs." +
                      b.name + "]");
  for (const auto& [name, bc] : cfg_.bcs) {
    double found = 0;
    for (const auto& b : ifs_.boundaries) found += (b.name == name && b.size()) ? 1 : 0;
    if (comm_) comm_->sum(&found, 1);  // a part may hold none of a boundary's faces
    if (!found) throw UserError("[bcs." + name + "] names no boundary of the mesh");
  }

}

// Group layouts (SoA padding), the registers, and each group's cache block.
void System::plan_groups(ArenaPlan& plan) {
  Impl& I = *impl_;
  const int nd = mesh_.ndims, nv = cfg_.phys.nvars();
  const bool visc = cfg_.phys.viscous();
  for (std::size_t g = 0; g < mesh_.groups.size(); ++g) {
    GroupLayout l;
    l.etype = mesh_.groups[g].etype;
    l.nupts = ops_[g].nupts;
    l.nfpts = ops_[g].nfpts;
    l.neles = mesh_.groups[g].neles;
    l.neles_pad = (l.neles + int64_t(I.soa) - 1) / int64_t(I.soa) * int64_t(I.soa);
    // An odd number of SoA blocks: rows of a panel then lie an odd number of cache lines
    // apart (for 5 variables and S*item = 64 bytes), not a multiple of a large power of two
    // (32768 elements: 5 * 2^18 bytes), which would map one column block's rows to a single
    // set of every cache level and defeat the cache blocking with conflict misses.
    if ((l.neles_pad / int64_t(I.soa)) % 2 == 0) l.neles_pad += int64_t(I.soa);
    l.ld = nv * l.neles_pad;
    if ((l.nqpts = ops_[g].nqpts)) {
      l.qpts_u_row = visc ? nd * l.nupts : 0;
      l.qpts_f_row = l.qpts_u_row + l.nqpts;
    }
    layout_.push_back(l);
  }
  for (int r = 0; r < cfg_.nregs; ++r) {
    std::size_t start = plan.take(0);
    for (auto& l : layout_) l.reg.push_back(plan.take(std::size_t(l.nupts) * l.ld));
    I.reg_off.push_back(start);
    I.reg_len = plan.take(0) - start;
  }
  // Cache blocks (Backend::run_chain): sized from what one element's longest chain
  // touches. A provider with threads of its own (a BLAS) runs on whole panels only.
  const bool whole_panels = kernels::matmul::threads_its_own(be_, cfg_.matmul);
  for (const auto& l : layout_) {
    std::size_t rows = std::size_t(2 * l.nupts + l.nfpts + nd * l.nupts);
    // The gradient at both point sets, and the flux beside the gradient it is made from.
    if (visc) rows += std::size_t(nd * l.nfpts + l.nfpts + nd * l.nupts);
    std::size_t metric = std::size_t(nd * nd * l.nupts + l.nupts);
    // Anti-aliasing: u and the flux at the quadrature points, and their metric terms.
    if (l.nqpts) rows += std::size_t((nd + 1) * l.nqpts), metric += std::size_t(nd * nd * l.nqpts);
    const std::size_t bytes = (rows * nv + metric) * I.item;
    I.block.push_back(whole_panels ? 0 : be_.chain_block(bytes, int64_t(I.soa)));
  }
}

// The per-group arrays after the registers, then the interfaces' normals and positions.
void System::plan_arrays(ArenaPlan& plan) {
  Impl& I = *impl_;
  const int nd = mesh_.ndims, nv = cfg_.phys.nvars();
  const bool visc = cfg_.phys.viscous();
  // The flux at the solution points (and the gradient it replaces) lives inside one chain.
  // When every chain is blocked it gets a scratch panel of one block per thread, shared by
  // the groups, instead of a panel of every element: each block reuses lines already in its
  // core's cache, and none is read for ownership or written back to memory (about 15 kB an
  // element a right-hand side at hex p3 Navier-Stokes, double).
  const bool scratch = !layout_.empty() &&
                       std::all_of(I.block.begin(), I.block.end(), [](int64_t b) { return b > 0; });
  if (scratch) {
    const int64_t win = *std::max_element(I.block.begin(), I.block.end());
    int rows = 0;
    for (const auto& l : layout_) rows = std::max(rows, l.vect_rows(nd, visc));
    // A panel per thread, not a slice of every row: a prefetcher running past the end of
    // one thread's row would otherwise pull in lines the other thread is writing (measured:
    // the element kernels on it ran at half speed). Two cache lines between them likewise.
    const int64_t ld = win * nv;
    const int64_t slot = rows * ld + int64_t(128 / I.item);
    const std::size_t off = plan.take(std::size_t(slot) * std::size_t(be_.chain_slots()));
    for (auto& l : layout_) l.vect_upts = off, l.vect_ld = ld, l.vect_window = win, l.vect_slot = slot;
  }
  for (auto& l : layout_) {
    l.scal_fpts = plan.take(std::size_t(l.nfpts) * l.ld);
    if (!scratch) l.vect_upts = plan.take(std::size_t(l.vect_rows(nd, visc)) * l.ld), l.vect_ld = l.ld;
    if (visc) {
      l.vect_fpts = plan.take(std::size_t(nd) * l.nfpts * l.ld);
      l.comm_fpts = plan.take(std::size_t(l.nfpts) * l.ld);
    }
    l.smats = plan.take(std::size_t(nd) * l.nupts * nd * l.neles_pad);
    l.rcpdjac = plan.take(std::size_t(l.nupts) * l.neles_pad);
    // Affine groups read one point row of metric terms, the same at every point.
    if (l.nqpts) l.smats_qpts = I.affine[std::size_t(&l - layout_.data())] ? l.smats
                                                                          : plan.take(std::size_t(nd) * l.nqpts * nd * l.neles_pad);
  }
  auto plan_iface = [&](IfaceData& d, std::size_t n, bool ploc) {
    d.n = n;
    d.nrm = plan.take(n * nd);
    d.magn = plan.take(n);
    if (ploc) d.ploc = plan.take(n * nd);
  };
  plan_iface(I.internal, ifs_.internal.size(), false);
  for (const auto& b : ifs_.boundaries) {
    if (!b.size()) continue;
    IfaceData d;
    d.name = b.name;
    d.bc = cfg_.bcs.at(b.name);
    plan_iface(d, b.size(), true);
    I.bnds.push_back(d);
  }
}

void System::put(std::size_t off, const std::vector<double>& v) {
  Impl& I = *impl_;
    if (v.empty()) return;
    if (cfg_.precision == kernels::Precision::double_) {
      be_.upload(*I.arena, off * 8, v.data(), v.size() * 8);
    } else {
      std::vector<float> f(v.begin(), v.end());
      be_.upload(*I.arena, off * 4, f.data(), f.size() * 4);
    }
  }

// The metric terms into AoSoA panels.
void System::upload_geometry() {
  Impl& I = *impl_;
  const int nd = mesh_.ndims;
  const bool visc = cfg_.phys.viscous();
  // Geometry into AoSoA panels (padding elements stay zero: their fluxes vanish).
  for (std::size_t g = 0; g < layout_.size(); ++g) {
    const auto& l = layout_[g];
    const auto& geo = geos_[g];
    const std::size_t ne = std::size_t(l.neles);
    std::vector<double> sm(std::size_t(nd) * l.nupts * nd * l.neles_pad, 0.0);
    std::vector<double> rj(std::size_t(l.nupts) * l.neles_pad, 0.0);
    for (int i = 0; i < l.nupts; ++i)
      for (std::size_t e = 0; e < ne; ++e) {
        for (int a = 0; a < nd; ++a)
          for (int b = 0; b < nd; ++b)
            sm[l.at(a * l.nupts + i, b, int64_t(e), nd, I.soa)] =
                geo.smats_upts[((std::size_t(i) * nd + a) * nd + b) * ne + e];
        rj[l.at(i, 0, int64_t(e), 1, I.soa)] = geo.rcpdjac_upts[std::size_t(i) * ne + e];
      }
    put(l.smats, sm);
    put(l.rcpdjac, rj);
    if (l.nqpts && l.smats_qpts != l.smats) {
      std::vector<double> sq(std::size_t(nd) * l.nqpts * nd * l.neles_pad, 0.0);
      for (int i = 0; i < l.nqpts; ++i)
        for (std::size_t e = 0; e < ne; ++e)
          for (int a = 0; a < nd; ++a)
            for (int b = 0; b < nd; ++b)
              sq[l.at(a * l.nqpts + i, b, int64_t(e), nd, I.soa)] =
                  geo.smats_qpts[((std::size_t(i) * nd + a) * nd + b) * ne + e];
      put(l.smats_qpts, sq);
    }
  }

  // One-sided LDG keeps jumps in comm_fpts, zero on every side no kernel writes.
  if (visc && physics::ldg_one_sided(cfg_.phys))
    for (const auto& l : layout_) put(l.comm_fpts, std::vector<double>(std::size_t(l.nfpts) * l.ld, 0.0));

}

// The interfaces' normals, magnitudes and positions, and the index tables of their views;
// returns the tables (uploaded by the constructor, once the gradient rows are planned).
std::vector<int64_t> System::upload_interfaces() {
  Impl& I = *impl_;
  const int nd = mesh_.ndims, nv = cfg_.phys.nvars();
  const bool visc = cfg_.phys.viscous();
  // Interface arrays and index tables.
  std::vector<int64_t> idx;
  auto view_ix = [&](const FacePoint& s, std::size_t base_of_group) {
    const auto& l = layout_[s.group];
    return int64_t(base_of_group + l.at(s.fpt, 0, s.elem, nv, I.soa));
  };
  auto table = [&](const std::vector<FacePoint>& pts, auto base) {
    std::size_t off = idx.size();
    for (const auto& s : pts) idx.push_back(view_ix(s, base(layout_[s.group])));
    return off;
  };
  auto rstride = [&](const std::vector<FacePoint>& pts) {
    std::size_t off = idx.size();
    for (const auto& s : pts) {
      const auto& l = layout_[s.group];
      idx.push_back(int64_t(l.nfpts) * l.ld);
    }
    return off;
  };
  auto scal = [](const GroupLayout& l) { return l.scal_fpts; };
  auto vect = [](const GroupLayout& l) { return l.vect_fpts; };
  auto comm = [](const GroupLayout& l) { return l.comm_fpts; };
  {
    auto& d = I.internal;
    const auto& in = ifs_.internal;
    put(d.nrm, transpose_points(in.nrm, in.size(), nd));
    put(d.magn, in.magn);
    d.ixl = table(in.left, scal);
    d.ixr = table(in.right, scal);
    if (visc) {
      d.gxl = table(in.left, vect);
      d.gxr = table(in.right, vect);
      d.rsl = rstride(in.left);
      d.rsr = rstride(in.right);
      d.cxl = table(in.left, comm);
      d.cxr = table(in.right, comm);
    }
  }
  for (auto& d : I.bnds) {
    const auto& b = *std::find_if(ifs_.boundaries.begin(), ifs_.boundaries.end(),
                                  [&](const BoundaryInterfaces& x) { return x.name == d.name; });
    put(d.nrm, transpose_points(b.nrm, b.size(), nd));
    put(d.magn, b.magn);
    put(d.ploc, transpose_points(b.ploc, b.size(), nd));
    d.ixl = table(b.left, scal);
    if (visc) {
      d.gxl = table(b.left, vect);
      d.rsl = rstride(b.left);
      d.cxl = table(b.left, comm);
    }
  }
  return idx;
}

void System::plan_gradient_rows() {
  Impl& I = *impl_;
  // Gradient rows read: one side's with one-sided LDG (both otherwise), and every boundary's.
  I.grad_rows.assign(layout_.size(), GradRows{});
  if (cfg_.phys.viscous()) {
    const int side = physics::ldg_one_sided(cfg_.phys);
    std::vector<std::vector<int>> rows(layout_.size());
    for (std::size_t g = 0; g < layout_.size(); ++g) rows[g].assign(std::size_t(layout_[g].neles_pad), 0);
    auto need = [&](const std::vector<FacePoint>& pts) {
      for (const auto& p : pts) {
        int& r = rows[std::size_t(p.group)][std::size_t(p.elem)];
        r = std::max(r, p.fpt + 1);
      }
    };
    if (side >= 0) need(ifs_.internal.left);
    if (side <= 0) need(ifs_.internal.right);
    for (const auto& b : ifs_.boundaries) need(b.left);
    // Every shared point's gradients are sent to the other part.
    for (const auto& m : ifs_.mpi) need(m.left);
    for (std::size_t g = 0; g < layout_.size(); ++g)
      I.grad_rows[g] = plan_grad_rows(rows[g], int64_t(I.soa), I.block[g] > 0);
  }

}

bool System::uniform_metrics(std::size_t g) const { return impl_->affine.at(g); }
kernels::Buffer& System::arena() { return *impl_->arena; }
std::size_t System::register_offset(int reg) const { return impl_->reg_off.at(std::size_t(reg)); }
std::size_t System::soa_width() const { return impl_->soa; }

System::~System() = default;

int64_t System::ndofs() const {
  int64_t n = 0;
  for (const auto& l : layout_) n += l.neles * l.nupts;
  return n;
}


std::map<std::string, std::string> System::matmul_choices() const { return impl_->choices; }

HaloTraffic System::halo_traffic() const { return halo_ ? halo_->traffic() : HaloTraffic{}; }

}  // namespace frmini::solver
