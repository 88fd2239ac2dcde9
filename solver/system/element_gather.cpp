#include "solver/system/element_gather.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace frmini::solver {

using kernels::pointwise::ArgKind;
using kernels::pointwise::ArgValue;
using kernels::pointwise::Intent;

ElementGather::ElementGather(System& sys, const std::vector<std::pair<int, int64_t>>& elements)
    : sys_(sys) {
  const auto& lay = sys.layout();
  const int nv = sys.nvars();
  const std::size_t soa = sys.soa_width();
  // Index table: per point, the offset of its value 0 from the start of a register (a
  // group's panel sits at the same place in every register), so one table serves them all.
  std::vector<int64_t> ix;
  for (const auto& [g, e] : elements) {
    if (g < 0 || std::size_t(g) >= lay.size() || e < 0 || e >= lay[std::size_t(g)].neles)
      throw std::logic_error("ElementGather: no element " + std::to_string(e) + " in group " +
                             std::to_string(g));
    if (where_.count({g, e})) continue;
    const auto& l = lay[std::size_t(g)];
    where_[{g, e}] = {npts_, l.nupts};
    const std::size_t base = l.reg[0] - sys.register_offset(0);
    for (int i = 0; i < l.nupts; ++i) ix.push_back(int64_t(base + l.at(i, 0, e, nv, soa)));
    npts_ += l.nupts;
  }
  ld_ = std::max<int64_t>((npts_ + int64_t(soa) - 1) / int64_t(soa) * int64_t(soa), int64_t(soa));
  const std::size_t item = sys.config().precision == kernels::Precision::double_ ? 8 : 4;
  bytes_ = std::size_t(nv) * std::size_t(ld_) * item;
  host_.assign(std::size_t(nv) * std::size_t(npts_), 0.0);
  if (npts_ == 0) return;

  auto& be = sys.backend();
  ix_ = be.alloc(ix.size() * sizeof(int64_t));
  be.upload(*ix_, 0, ix.data(), ix.size() * sizeof(int64_t));
  out_ = be.alloc(std::size_t(nv) * std::size_t(ld_) * item);
  kernels::pointwise::Spec s;
  s.name = "gather_elements";
  s.space = kernels::pointwise::Space::points;
  s.args = {{"u", ArgKind::view, Intent::in, {nv}}, {"o", ArgKind::array, Intent::out, {nv}}};
  s.defines["NVARS"] = std::to_string(nv);
  s.body = "for (int k = 0; k < NVARS; k++) o[k] = u[k];";
  kernel_ = be.pointwise(s, sys.config().precision);
}

ElementGather::~ElementGather() = default;

void ElementGather::download(int reg) {
  if (npts_ == 0) return;
  auto& be = sys_.backend();
  ArgValue u = ArgValue::view(&sys_.arena(), ix_.get(), 0);
  u.offset = sys_.register_offset(reg);
  kernel_->bind({u, ArgValue::panel(out_.get(), 0, ld_)});
  kernel_->run(0, npts_);
  const int nv = sys_.nvars();
  // The array holds value v of point j at v*ld + j (one transfer, the few padding values too).
  std::vector<double> a(std::size_t(nv) * std::size_t(ld_));
  if (sys_.config().precision == kernels::Precision::double_) {
    be.download(a.data(), *out_, 0, a.size() * 8);
  } else {
    std::vector<float> f(a.size());
    be.download(f.data(), *out_, 0, f.size() * 4);
    std::copy(f.begin(), f.end(), a.begin());
  }
  for (const auto& [key, w] : where_)
    for (int v = 0; v < nv; ++v)
      for (int i = 0; i < w.nupts; ++i)
        host_[std::size_t(nv * w.first + v * w.nupts + i)] = a[std::size_t(v * ld_ + w.first + i)];
}

const double* ElementGather::values(int group, int64_t elem) const {
  auto it = where_.find({group, elem});
  return it == where_.end() ? nullptr : host_.data() + std::size_t(sys_.nvars()) * std::size_t(it->second.first);
}

}  // namespace frmini::solver
