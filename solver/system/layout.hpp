// Where every array of a run lives. All panels share one device allocation (the arena) so an
// interface view can point into any element type's arrays with a plain offset (PyFR's views);
// index tables live in a second, int64 allocation.
//
// Per element group: S = the backend's SoA width, neles_pad = neles rounded up to S, and a
// panel of B values per (point, element) has ld = B*neles_pad columns ordered
// [neles_pad/S][B][S] (AoSoA). Solution registers are laid out register
// by register, each holding every group's panel back to back, so one vector operation covers
// a whole register whatever the element types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace frmini::solver {

struct GroupLayout {
  std::string etype;
  int nupts = 0, nfpts = 0;
  int64_t neles = 0, neles_pad = 0;
  int64_t ld = 0;                 // nvars*neles_pad: columns of every nvars-valued panel
  std::vector<std::size_t> reg;   // offset of the solution panel in each register
  std::size_t scal_fpts = 0;      // nfpts rows: u at the flux points, then the common flux
  // ndims*nupts rows: the transformed flux; Navier-Stokes: the gradient, and after it
  // ndims*nupts rows of the flux made from it (physics::gradcoru_tflux).
  std::size_t vect_upts = 0;
  int64_t vect_ld = 0;            // its leading dimension (ld, or the scratch panel's)
  // > 0: vect_upts is the per-thread scratch panel of the cache-blocked chains, this many
  // elements wide, vect_slot values between threads (kernels/matmul/provider.hpp, Panel)
  int64_t vect_window = 0, vect_slot = 0;
  // Flux anti-aliasing (nqpts > 0): inside the vect_upts panel, from row qpts_u_row, u at the
  // nqpts quadrature points, and from qpts_f_row the ndims*nqpts rows of the flux there
  // (navier-stokes: the gradient there on entry to tflux).
  int nqpts = 0, qpts_u_row = 0, qpts_f_row = 0;
  std::size_t vect_fpts = 0;      // ndims*nfpts rows (navier-stokes): gradients at fpts
  std::size_t comm_fpts = 0;      // nfpts rows (navier-stokes): LDG common solution
  std::size_t smats = 0;          // ndims*nupts rows x ndims*neles_pad
  std::size_t rcpdjac = 0;        // nupts rows x neles_pad
  // ndims*nqpts rows x ndims*neles_pad: the metric terms at the quadrature points (affine
  // groups: smats, read as one point row)
  std::size_t smats_qpts = 0;
  // Rows of the vect_upts panel: what the chains keep there per element.
  int vect_rows(int ndims, bool viscous) const {
    return nqpts ? (viscous ? ndims * nupts : 0) + (ndims + 1) * nqpts : (viscous ? 2 : 1) * ndims * nupts;
  }

  // Offset, within a panel of B values per point, of value b of element e at row i.
  std::size_t at(int64_t row, int b, int64_t e, int B, std::size_t soa) const {
    return std::size_t(row) * std::size_t(B * neles_pad) + std::size_t(e / int64_t(soa)) * B * soa +
           std::size_t(b) * soa + std::size_t(e % int64_t(soa));
  }
};

// A group's panel of B values per point (AoSoA, `at`) as PyFR's per-element layout
// [neles][B][nupts], real elements only; and back, padding elements taking element 0's values
// (a valid state for the kernels that run over them, whose results are discarded).
inline std::vector<double> panel_to_elements(const GroupLayout& l, const std::vector<double>& panel,
                                             int B, std::size_t soa) {
  std::vector<double> s(std::size_t(l.neles) * std::size_t(B) * std::size_t(l.nupts));
  for (int64_t e = 0; e < l.neles; ++e)
    for (int b = 0; b < B; ++b)
      for (int i = 0; i < l.nupts; ++i)
        s[(std::size_t(e) * std::size_t(B) + std::size_t(b)) * std::size_t(l.nupts) + std::size_t(i)] =
            panel[l.at(i, b, e, B, soa)];
  return s;
}
inline std::vector<double> elements_to_panel(const GroupLayout& l, const std::vector<double>& elems,
                                             int B, std::size_t soa) {
  std::vector<double> p(std::size_t(l.nupts) * std::size_t(B) * std::size_t(l.neles_pad));
  for (int64_t e = 0; e < l.neles_pad; ++e) {
    const int64_t src = e < l.neles ? e : 0;
    for (int b = 0; b < B; ++b)
      for (int i = 0; i < l.nupts; ++i)
        p[l.at(i, b, e, B, soa)] =
            elems[(std::size_t(src) * std::size_t(B) + std::size_t(b)) * std::size_t(l.nupts) + std::size_t(i)];
  }
  return p;
}

// Hands out aligned offsets in an arena of `item`-byte values.
class ArenaPlan {
 public:
  ArenaPlan(std::size_t align_bytes, std::size_t item) : align_(align_bytes / item) {
    if (align_ == 0) align_ = 1;
  }
  std::size_t take(std::size_t n) {
    std::size_t off = (size_ + align_ - 1) / align_ * align_;
    size_ = off + n;
    return off;
  }
  std::size_t size() const { return (size_ + align_ - 1) / align_ * align_; }

 private:
  std::size_t align_, size_ = 0;
};

}  // namespace frmini::solver
