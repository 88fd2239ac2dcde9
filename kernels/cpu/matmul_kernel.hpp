// A cpu matmul kernel: a callable over a column range, bound to its operands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "kernels/cpu/backend.hpp"
#include "kernels/matmul/provider.hpp"

namespace frmini::kernels::cpu {

// Where a call on columns [c0, ...) finds its columns of a panel, in items to subtract from
// the panel's base address: 0 for a whole panel; for a per-thread scratch panel
// (matmul::Panel::window) the distance from column c0 to the calling thread's slot.
std::ptrdiff_t window_shift(const matmul::Panel& p, std::size_t c0);

// A panel base moved by a window shift. Through integers: the moved address may lie outside
// the panel (only the columns the call touches are inside it).
template <class T>
T* shifted(T* p, std::ptrdiff_t items) {
  return reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(p) - std::uintptr_t(items * std::ptrdiff_t(sizeof(T))));
}

class CpuKernel : public matmul::Kernel {
 public:
  // Columns [c0, c1) with B's and C's base addresses moved by bshift and cshift items.
  using Body = std::function<void(std::size_t c0, std::size_t c1, std::ptrdiff_t bshift,
                                  std::ptrdiff_t cshift)>;
  CpuKernel(std::string provider, std::string strategy, const matmul::Problem& p, Body body)
      : provider_(std::move(provider)), strategy_(std::move(strategy)), n_(p.n),
        b_(p.b), c_(p.c), body_(std::move(body)) {}
  void run() override;
  void run_columns(std::size_t b, std::size_t e) override { run_columns_from(b, b, e); }
  void run_columns_from(std::size_t origin, std::size_t b, std::size_t e) override {
    if (e <= b) return;
    // Computed here, before a provider's body may open a (nested, one-thread) region.
    body_(b, e, window_shift(b_, origin), window_shift(c_, origin));
  }
  std::string provider() const override { return provider_; }
  std::string strategy() const override { return strategy_; }

 private:
  std::string provider_, strategy_;
  std::size_t n_;
  matmul::Panel b_, c_;
  Body body_;
};

// Typed host addresses of a problem's panels (element offsets included).
template <class T>
T* panel_ptr(const matmul::Panel& p) {
  return static_cast<T*>(host_ptr(*p.buf, p.offset * sizeof(T)));
}

}  // namespace frmini::kernels::cpu
