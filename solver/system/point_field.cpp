#include "solver/system/point_field.hpp"

#include <algorithm>

namespace frmini::solver {

namespace {
std::size_t panel_size(const GroupLayout& l, int nvals) {
  return std::size_t(l.nupts) * std::size_t(nvals) * std::size_t(l.neles_pad);
}
}  // namespace

PointField::PointField(System& sys, int nvals)
    : sys_(sys),
      nvals_(nvals),
      item_(sys.config().precision == kernels::Precision::double_ ? 8 : 4) {
  for (const auto& l : sys.layout())
    bufs_.push_back(sys.backend().alloc(std::max<std::size_t>(panel_size(l, nvals), 1) * item_));
  zero();
}

PointField::~PointField() = default;

void PointField::zero() {
  const auto& lay = sys_.layout();
  for (std::size_t g = 0; g < lay.size(); ++g) {
    const std::vector<unsigned char> z(panel_size(lay[g], nvals_) * item_, 0);
    sys_.backend().upload(*bufs_[g], 0, z.data(), z.size());
  }
}

std::vector<std::vector<double>> PointField::download() const {
  const auto& lay = sys_.layout();
  const std::size_t soa = sys_.soa_width();
  std::vector<std::vector<double>> out;
  for (std::size_t g = 0; g < lay.size(); ++g) {
    const auto& l = lay[g];
    std::vector<double> p(panel_size(l, nvals_));
    if (item_ == 8) {
      sys_.backend().download(p.data(), *bufs_[g], 0, p.size() * 8);
    } else {
      std::vector<float> f(p.size());
      sys_.backend().download(f.data(), *bufs_[g], 0, f.size() * 4);
      std::copy(f.begin(), f.end(), p.begin());
    }
    out.push_back(panel_to_elements(l, p, nvals_, soa));
  }
  return out;
}

void PointField::upload(const std::vector<std::vector<double>>& v) {
  const auto& lay = sys_.layout();
  const std::size_t soa = sys_.soa_width();
  for (std::size_t g = 0; g < lay.size(); ++g) {
    const auto& l = lay[g];
    const std::vector<double> p = elements_to_panel(l, v.at(g), nvals_, soa);
    if (item_ == 8) {
      sys_.backend().upload(*bufs_[g], 0, p.data(), p.size() * 8);
    } else {
      const std::vector<float> f(p.begin(), p.end());
      sys_.backend().upload(*bufs_[g], 0, f.data(), f.size() * 4);
    }
  }
}

kernels::pointwise::ArgValue PointField::arg(std::size_t g) const {
  const auto& l = sys_.layout().at(g);
  return kernels::pointwise::ArgValue::panel(bufs_.at(g).get(), 0, int64_t(nvals_) * l.neles_pad);
}

}  // namespace frmini::solver
