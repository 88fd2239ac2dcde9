// Resolving bound arguments into the values of a rendered kernel's parameter slots
// (render.hpp's calling convention), once for every backend: which buffer and element offset a
// buffer slot takes (a view's first table slot is its index table, the second its row
// strides), what an int64 slot holds (an index argument's value or a panel's ld), and which
// slot carries a scalar. Backends only encode these values their own way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/pointwise/kernel.hpp"
#include "kernels/pointwise/render.hpp"

namespace frmini::kernels::pointwise {

struct SlotValue {
  Buffer* buf = nullptr;    // fp_buffer, idx_buffer
  std::size_t offset = 0;   // in elements of the slot's type (fpdtype or int64)
  int64_t i = 0;            // int64
  double d = 0;             // fp_scalar
};

// Throws std::logic_error when the number of arguments differs from the spec's.
std::vector<SlotValue> resolve_slots(const Spec& spec, const std::vector<Slot>& slots,
                                     const std::vector<ArgValue>& args);

// The index of the slot holding scalar argument `arg`; throws std::logic_error if none.
std::size_t scalar_slot(const Spec& spec, const std::vector<Slot>& slots, std::size_t arg);

// Throws std::logic_error if an argument is a per-thread scratch panel (ArgValue::window):
// for backends that launch over whole ranges, with no chains to give a call its thread.
void require_whole_panels(const Spec& spec, const std::vector<ArgValue>& args);

}  // namespace frmini::kernels::pointwise
