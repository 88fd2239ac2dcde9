// A cpu matmul kernel: a callable over a column range, bound to its operands.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>

#include "kernels/cpu/cpu_backend.hpp"
#include "kernels/matmul/provider.hpp"

namespace frmini::kernels::cpu {

class CpuKernel : public matmul::Kernel {
 public:
  using Body = std::function<void(std::size_t col_begin, std::size_t col_end)>;
  CpuKernel(std::string provider, std::string strategy, std::size_t n, Body body)
      : provider_(std::move(provider)), strategy_(std::move(strategy)), n_(n),
        body_(std::move(body)) {}
  void run() override { body_(0, n_); }
  void run_columns(std::size_t b, std::size_t e) override {
    if (e > b) body_(b, e);
  }
  std::string provider() const override { return provider_; }
  std::string strategy() const override { return strategy_; }

 private:
  std::string provider_, strategy_;
  std::size_t n_;
  Body body_;
};

// Typed host addresses of a problem's panels (element offsets included).
template <class T>
T* panel_ptr(const matmul::Panel& p) {
  return static_cast<T*>(host_ptr(*p.buf, p.offset * sizeof(T)));
}

}  // namespace frmini::kernels::cpu
