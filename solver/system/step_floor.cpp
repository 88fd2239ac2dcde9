#include "solver/system/step_floor.hpp"

#include <algorithm>
#include <set>

#include "solver/system/system_impl.hpp"

namespace frmini::solver {

StepFloor rhs_floor(const System& sys, std::size_t itemsize) {
  const double item = double(itemsize);
  const int nd = sys.ndims(), nv = sys.nvars();
  const bool visc = sys.config().phys.viscous();
  StepFloor f;
  for (std::size_t g = 0; g < sys.layout().size(); ++g) {
    const auto& l = sys.layout()[g];
    const double rows = sys.uniform_metrics(g) ? 1.0 : double(l.nupts);
    f.geometry += double(l.neles) * rows * double(nd * nd + 1) * item;
    // Anti-aliasing: the metric terms at the quadrature points too (affine: the same row).
    if (l.nqpts && !sys.uniform_metrics(g)) f.geometry += double(l.neles) * double(l.nqpts * nd * nd) * item;
  }
  // Per side of a flux point: its solution read and its common flux written; Navier-Stokes
  // adds a second pass (the LDG common solution) reading the solution again. One-sided LDG
  // (beta = +-1/2) writes that common solution, and reads the gradient, on one side of an
  // internal face only; a boundary or a face shared with another part has one side here.
  const double side = double(2 * nv + (visc ? nv : 0));
  const double ldg = visc ? double(nv + nd * nv) : 0.0;  // common solution written, gradient read
  const double normal = double(nd + 1);                    // unit normal and |pnorm|, read once
  const double internal_ldg_sides = physics::ldg_one_sided(sys.config().phys) ? 1.0 : 2.0;
  const auto& ifs = sys.interfaces();
  f.interfaces += double(ifs.internal.size()) * (2 * side + internal_ldg_sides * ldg + normal) * item;
  for (const auto& b : ifs.boundaries) f.interfaces += double(b.size()) * (side + ldg + normal) * item;
  for (const auto& m : ifs.mpi) f.interfaces += double(m.size()) * (side + ldg + normal) * item;
  return f;
}

int register_passes(int uin, int fout, const std::vector<System::RegisterKernel>& then) {
  using kernels::pointwise::ArgKind;
  using kernels::pointwise::Intent;
  std::set<int> read, written;
  if (uin >= 0) read.insert(uin);
  if (fout >= 0) written.insert(fout);
  for (const auto& k : then) {
    std::size_t r = 0;
    for (const auto& a : k.spec.args) {
      if (a.kind != ArgKind::array) continue;
      const int reg = k.regs.at(r++);
      // A register the RHS has just written is read back from cache, not from memory.
      if (a.intent != Intent::out && !written.count(reg)) read.insert(reg);
      if (a.intent != Intent::in) written.insert(reg);
    }
  }
  return int(read.size() + written.size());
}

// What one RHS moves beyond the floor as System::rhs lays it out (step_floor.hpp: `between`);
// `prepared`: the last RHS made this one's solution at the flux points.
double System::between_passes(bool prepared) const {
  const Impl& I = *impl_;
  const double nv = nvars(), nd = ndims();
  const bool visc = cfg_.phys.viscous();
  double bytes = 0;
  for (std::size_t g = 0; g < layout_.size(); ++g) {
    const auto& l = layout_[g];
    const double neles = double(l.neles), nupts = l.nupts, nfpts = l.nfpts;
    // The flux-point solution written, the common fluxes read back, the result written twice
    // and read once.
    double values = neles * nv * (2 * nfpts + 2 * nupts);
    if (visc) {
      // Gradient rows: `most` for every element, the rest for the blocks that need them.
      const GradRows& gr = I.grad_rows[g];
      int64_t extra = 0;
      for (const auto& [b, e] : gr.extra)
        extra += std::min<int64_t>(e, l.neles) - std::min<int64_t>(b, l.neles);
      const double rows = double(gr.most) * neles + double(gr.all - gr.most) * double(extra);
      // The jumps read back and the gradient rows written; 1/|J| read again (negdivconf).
      values += rows * nv * (1 + nd) + neles * (uniform_metrics(g) ? 1 : nupts);
      if (!prepared) values += neles * nupts * nv;  // u read by the first chain and the gradient's
    }
    if (I.block[g] <= 0) values += 2 * neles * nv * l.vect_rows(int(nd), visc);
    bytes += values * double(I.item);
  }
  return bytes;
}

void System::count_floor(int uin, int fout, const std::vector<RegisterKernel>& then, int passes,
                         bool prepared) {
  Impl& I = *impl_;
  if (!I.floor_ready) {
    I.floor_rhs = rhs_floor(*this, I.item);
    I.floor_reg_bytes = double(ndofs() * nvars()) * double(I.item);
    I.floor_between[0] = between_passes(false), I.floor_between[1] = between_passes(true);
    I.floor_ready = true;
  }
  if (uin >= 0) {
    I.floor += I.floor_rhs;
    I.floor.between += I.floor_between[prepared];
  }
  I.floor.registers += double(passes + register_passes(uin, fout, then)) * I.floor_reg_bytes;
}

StepFloor System::floor_so_far() const { return impl_->floor; }

}  // namespace frmini::solver
