// A pointwise kernel compiled for one backend (Backend::pointwise), bound to its arguments
// and launched over ranges. Binding once and launching many times is how the solver uses
// kernels: the RHS binds every kernel at setup; per step only scalars (time, RK weights)
// change, through set_scalar.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kernels/pointwise/spec.hpp"

namespace frmini::kernels {
class Buffer;
}

namespace frmini::kernels::pointwise {

// The value of one spec argument (same order as Spec::args). Offsets are in elements of the
// kernel's precision (fields, arrays, the arena) or of int64 (index tables).
struct ArgValue {
  Buffer* buf = nullptr;     // field, array: its panel; view: the arena
  std::size_t offset = 0;
  int64_t ld = 0;            // field, array
  Buffer* ix = nullptr;      // view: index table (int64), and its offset
  std::size_t ix_offset = 0;
  Buffer* rs = nullptr;      // view with two-level shape: row-stride table (int64)
  std::size_t rs_offset = 0;
  double scalar = 0;         // scalar
  int64_t index = 0;         // index
  // field: a per-thread scratch panel of a cache-blocked chain (cpu; matmul::Panel::window):
  // `window` elements of `width` columns each per thread, threads `slot` values apart; a
  // launch on [b, e), e - b <= window, finds element b at the calling thread's panel's start.
  // window 0: a whole panel.
  int64_t window = 0, width = 0, slot = 0;

  static ArgValue panel(Buffer* b, std::size_t off, int64_t ld) {
    ArgValue a;
    a.buf = b, a.offset = off, a.ld = ld;
    return a;
  }
  static ArgValue scratch(Buffer* b, std::size_t off, int64_t ld, int64_t window, int64_t width,
                          int64_t slot) {
    ArgValue a = panel(b, off, ld);
    a.window = window, a.width = width, a.slot = slot;
    return a;
  }
  static ArgValue view(Buffer* arena, Buffer* ix, std::size_t ix_off, Buffer* rs = nullptr,
                       std::size_t rs_off = 0) {
    ArgValue a;
    a.buf = arena, a.ix = ix, a.ix_offset = ix_off, a.rs = rs, a.rs_offset = rs_off;
    return a;
  }
  static ArgValue value(double x) {
    ArgValue a;
    a.scalar = x;
    return a;
  }
  static ArgValue integer(int64_t i) {
    ArgValue a;
    a.index = i;
    return a;
  }
};

// Arguments by name, the way the solver binds every kernel: `offered` maps names to values,
// and the result lists them in `spec`'s order. A caller offers what it has (an interface offers
// both sides' views; the physics' spec decides which it reads), so names the spec does not
// take are left; a name the spec takes and `offered` lacks throws std::logic_error naming it.
std::vector<ArgValue> in_spec_order(const Spec& spec, const std::map<std::string, ArgValue>& offered);

class PointwiseKernel {
 public:
  virtual ~PointwiseKernel() = default;
  virtual const Spec& spec() const = 0;
  // Binds every argument; must precede run().
  virtual void bind(const std::vector<ArgValue>& args) = 0;
  // Changes the value of scalar argument `arg` (an index into Spec::args).
  virtual void set_scalar(std::size_t arg, double value) = 0;
  // Enqueues the kernel over [begin, end): elements (element_points; begin a multiple of the
  // backend's soa width) or points.
  virtual void run(int64_t begin, int64_t end) = 0;
};

}  // namespace frmini::kernels::pointwise
