// What the dialects' renderings share (render.cpp, render_blocks.cpp and the backends'
// dialect.cpp): an argument's extents and intent, the local arrays the body sees, a value's
// address at the current point, the point block (loads, body, stores) and the kernel of one
// work-item a point. Internal to kernels/.
#pragma once

#include <string>

#include "kernels/pointwise/render.hpp"
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

// The expression addressing value (a, b) of argument `g` at the current point. `contiguous`:
// the C dialect's chunks whose views hold consecutive offsets (point _j0 + _lane at offset
// ix[_j0] + _lane): then the lanes address one vector, not a gather.
// Which views a C chunk addresses as vectors: none, all, the near ones (not Arg::far), or
// all in two pieces (split: each view's lanes below NAME_k at NAME_sa + lane, the others at
// NAME_sb + lane; the loads and stores become masked vector ones).
// staged: every view's values go through the chunk's staging arrays (staged_chunk); staged_far:
// the far views' do, the near ones are vectors.
enum class Contig { none, all, near, split, staged, staged_far };
bool is_staged(const Arg& g, Contig c);
// Value (a, b) of a view in its staging array: one row of SOA_S lanes per value.
std::string staged_ref(const Arg& g, int a, int b);
std::string address(const Arg& g, int a, int b, Space space, Contig contig = Contig::none);
// Loads, body, stores: the same text in every dialect.
std::string point_block(const Spec& s, const std::string& body, const std::string& indent,
                        Contig contiguous = Contig::none);
bool has_views(const Spec& s);
// Whether a near-only variant differs from both the all-vector and the all-gather ones.
bool has_near_and_far(const Spec& s);
// A slot as a kernel parameter in dialect `d`.
std::string slot_param(const Slot& sl, const Dialect& d, const Spec& s);

// A kernel of one work-item a point (the GPUs, and OpenCL where it renders no block vectors;
// with `blocks`, OpenCL's block-vector bodies): its qualifier, the work-item's x and y, and
// whether buffers come as (base, offset) pairs (cl_mem objects cannot be offset on the host).
struct DeviceSpelling {
  std::string qualifier, gx, gy;
  bool buffer_offsets = false;
};
std::string device_kernel(const Spec& s, const std::vector<Slot>& slots, const std::string& body,
                          bool blocks, const Dialect& d, const DeviceSpelling& k);

// The OpenCL kernels of block vectors (render_blocks.cpp): their statements after the
// parameters, the pointers formed. Elements: a work-item per (SoA block, point); points: a
// work-item per chunk of SOA_S points.
std::string opencl_block_elements(const Spec& s, const std::string& body);
std::string opencl_block_points(const Spec& s, const std::string& body);

}  // namespace frmini::kernels::pointwise::parts
