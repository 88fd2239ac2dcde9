// What the renderings of render.cpp and render_blocks.cpp share: an argument's extents and
// intent, and the local arrays the body sees. Internal to kernels/pointwise.
#pragma once

#include <string>

#include "kernels/pointwise/spec.hpp"

namespace frmini::kernels::pointwise::parts {

inline int extent_a(const Arg& a) { return a.shape.size() == 2 ? a.shape[0] : 1; }
inline int extent_b(const Arg& a) { return a.shape.empty() ? 1 : a.shape.back(); }
// A field's rows between components in its panel: NPTS, or a uniform field's own stride.
inline std::string point_stride(const Arg& a) {
  return a.uniform && a.uniform_stride > 0 ? std::to_string(a.uniform_stride) : std::string("NPTS");
}
inline bool loads(const Arg& a) { return a.intent != Intent::out; }
inline bool stores(const Arg& a) { return a.intent != Intent::in; }
inline bool is_memory(const Arg& a) {
  return a.kind == ArgKind::field || a.kind == ArgKind::view || a.kind == ArgKind::array;
}

// The body's local array of an argument, and its value (a, b).
inline std::string local_decl(const Arg& g) {
  if (g.shape.size() == 2)
    return "fpdtype_t " + g.name + "[" + std::to_string(g.shape[0]) + "][" +
           std::to_string(g.shape[1]) + "];";
  return "fpdtype_t " + g.name + "[" + std::to_string(extent_b(g)) + "];";
}

inline std::string local_ref(const Arg& g, int a, int b) {
  if (g.shape.size() == 2) return g.name + "[" + std::to_string(a) + "][" + std::to_string(b) + "]";
  return g.name + "[" + std::to_string(b) + "]";
}

// The OpenCL kernels of block vectors (render_blocks.cpp): their statements after the
// parameters, the pointers formed. Elements: a work-item per (SoA block, point); points: a
// work-item per chunk of SOA_S points.
std::string opencl_block_elements(const Spec& s, const std::string& body);
std::string opencl_block_points(const Spec& s, const std::string& body);

}  // namespace frmini::kernels::pointwise::parts
