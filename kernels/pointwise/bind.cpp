#include "kernels/pointwise/bind.hpp"

#include <stdexcept>
#include <string>

namespace frmini::kernels::pointwise {

std::vector<ArgValue> in_spec_order(const Spec& spec, const std::map<std::string, ArgValue>& offered) {
  std::vector<ArgValue> out;
  for (const auto& a : spec.args) {
    auto it = offered.find(a.name);
    if (it == offered.end()) throw std::logic_error(spec.name + ": no value offered for argument '" + a.name + "'");
    out.push_back(it->second);
  }
  return out;
}

std::vector<SlotValue> resolve_slots(const Spec& spec, const std::vector<Slot>& slots,
                                     const std::vector<ArgValue>& args) {
  if (args.size() != spec.args.size())
    throw std::logic_error(spec.name + ": bound " + std::to_string(args.size()) +
                           " arguments, the spec has " + std::to_string(spec.args.size()));
  std::vector<SlotValue> out(slots.size());
  std::vector<int> next(args.size(), 0);  // which slot of an argument comes next
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const Slot& s = slots[k];
    const ArgValue& v = args[s.arg];
    const int nth = next[s.arg]++;
    SlotValue& x = out[k];
    switch (s.type) {
      case SlotType::fp_buffer:
        x.buf = v.buf;
        x.offset = v.offset;
        break;
      case SlotType::idx_buffer:
        x.buf = nth == 1 ? v.ix : v.rs;
        x.offset = nth == 1 ? v.ix_offset : v.rs_offset;
        break;
      case SlotType::int64:
        x.i = spec.args[s.arg].kind == ArgKind::index ? v.index : v.ld;
        break;
      case SlotType::fp_scalar:
        x.d = v.scalar;
        break;
    }
  }
  return out;
}

std::size_t scalar_slot(const Spec& spec, const std::vector<Slot>& slots, std::size_t arg) {
  for (std::size_t k = 0; k < slots.size(); ++k)
    if (slots[k].arg == arg && slots[k].type == SlotType::fp_scalar) return k;
  throw std::logic_error(spec.name + ": argument " + std::to_string(arg) + " is no scalar");
}

void require_whole_panels(const Spec& spec, const std::vector<ArgValue>& args) {
  for (const auto& a : args)
    if (a.window) throw std::logic_error(spec.name + ": scratch panels are for the cpu backend's chains only");
}

}  // namespace frmini::kernels::pointwise
