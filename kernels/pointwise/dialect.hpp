// One backend's kernel language, as the pointwise renderer needs it: its spellings, what the
// source needs first, and the kernel itself — signature, arguments and the loop over the
// range's points around the physics' point block (render_parts.hpp holds the pieces every
// dialect shares). Each backend defines its own in its folder (kernels/<backend>/dialect.cpp),
// built in every build: rendering needs no SDK, and the compile-only tests render them all.
// The renderer names no backend.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/pointwise/spec.hpp"
#include "kernels/precision.hpp"

namespace frmini::kernels::pointwise {

struct Slot;  // render.hpp

class Dialect {
 public:
  virtual ~Dialect() = default;
  virtual const char* name() const = 0;

  struct Words {
    const char* func;       // qualifier of helper functions (FRMINI_FUNC)
    const char* restrict_;  // restrict keyword
    const char* global;     // address-space qualifier of buffers
    const char* i64;        // 64-bit integer type
  };
  virtual Words words() const = 0;
  // The lines before the types and macros every dialect gets (headers, extensions, macros).
  virtual std::string prelude(Precision p) const = 0;
  // Whether a spec that allows block vectors (Spec::block_vectors) runs on vectors of `soa`
  // lanes when the device asks for them (OpenCL on CPU devices).
  virtual bool block_vectors(std::size_t soa) const {
    (void)soa;
    return false;
  }
  // The kernel: its signature over `slots`, and the loop over the range around `body` (the
  // spec's, its literals already in the precision's type).
  virtual std::string kernel(const Spec& s, const std::vector<Slot>& slots, const std::string& body,
                             bool blocks) const = 0;
  // The macros of the device reductions' kernel (kernels/reduce.hpp): RKERNEL, GMEM, SMEM,
  // BARRIER, LID, GID, NGROUPS. Throws std::logic_error for a dialect that reduces on the host.
  virtual std::string reduce_macros(Precision p) const;
};

// The dialects of the backends, each defined in its backend's folder.
const Dialect& c_dialect();       // kernels/cpu/dialect.cpp
const Dialect& opencl_dialect();  // kernels/opencl/dialect.cpp
const Dialect& cuda_dialect();    // kernels/cuda/dialect.cpp

}  // namespace frmini::kernels::pointwise
