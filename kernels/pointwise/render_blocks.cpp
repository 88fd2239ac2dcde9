// OpenCL kernels on block vectors (render.hpp), every value of the body a vector of SOA_S
// lanes: element kernels one work-item per (SoA block, point), where a field's value (a, b)
// is SOA_S consecutive scalars, one vload/vstore; interface kernels one work-item per chunk of
// SOA_S points, gathered lane by lane unless the chunk's offsets run on. The one-lane kernels
// leave the vectorising to the driver, which PoCL did not do for the physics.
#include <sstream>

#include "kernels/pointwise/render_parts.hpp"

namespace frmini::kernels::pointwise::parts {

namespace {

// The address of a field's value (a, b) in the current block at point _i (uniform fields:
// the element's first point).
std::string block_address(const Arg& g, int a, int b) {
  std::ostringstream o;
  o << g.name << "_p + (" << a << "*" << point_stride(g) << (g.uniform ? "" : " + _i") << ")*" << g.name
    << "_ld + _blk*" << extent_b(g) << "*SOA_S + " << b << "*SOA_S";
  return o.str();
}

}  // namespace

std::string opencl_block_elements(const Spec& s, const std::string& body) {
  std::ostringstream o;
  // Blocks from the one _ib starts (element ranges start on a block); the last may end in
  // padding lanes, computed as on cpu and never read.
  o << "  const long _blk = _ib/SOA_S + get_global_id(0);\n"
    << "  const int _i = (int)get_global_id(1);\n"
    << "  if (_blk*SOA_S >= _ie || _i >= NPTS) return;\n";
  for (const auto& g : s.args) {
    if (!is_memory(g)) continue;
    o << "  " << local_decl(g) << "\n";
    if (loads(g))
      for (int a = 0; a < extent_a(g); ++a)
        for (int b = 0; b < extent_b(g); ++b)
          o << "  " << local_ref(g, a, b) << " = FRMINI_VLOAD(0, " << block_address(g, a, b) << ");\n";
  }
  o << "  {\n" << body << "\n  }\n";
  for (const auto& g : s.args) {
    if (!is_memory(g) || !stores(g)) continue;
    for (int a = 0; a < extent_a(g); ++a)
      for (int b = 0; b < extent_b(g); ++b)
        o << "  FRMINI_VSTORE(" << local_ref(g, a, b) << ", 0, " << block_address(g, a, b) << ");\n";
  }
  return o.str();
}

namespace {

bool gathered(const Arg& g) { return g.kind == ArgKind::view || g.kind == ArgKind::array; }

// The scalar address of an argument's value (a, b) at lane _l (its offsets in NAME_o[],
// NAME_r[]), and the vector address of a whole chunk whose lanes are consecutive.
std::string lane_address(const Arg& g, int a, int b) {
  const std::string& n = g.name;
  std::ostringstream o;
  if (g.kind == ArgKind::array)
    o << n << "_p[" << (a * extent_b(g) + b) << "*" << n << "_ld + " << n << "_o[_l]]";
  else
    o << n << "_p[" << n << "_o[_l] + " << a << "*" << n << "_r[_l] + " << b << "*SOA_S]";
  return o.str();
}

std::string chunk_address(const Arg& g, int a, int b) {
  const std::string& n = g.name;
  std::ostringstream o;
  if (g.kind == ArgKind::array)
    o << n << "_p + " << (a * extent_b(g) + b) << "*" << n << "_ld + _j0";
  else
    o << n << "_p + " << n << "_o[0] + " << a << "*" << n << "_r[0] + " << b << "*SOA_S";
  return o.str();
}

// Each lane's offsets (lanes outside the range repeat the range's nearest point) and whether
// the chunk is whole with consecutive offsets and one row stride: then NAME_c, and its values
// are vloads and vstores; otherwise they go lane by lane through _g.
std::string lane_offsets(const Arg& g) {
  const std::string& n = g.name;
  const bool rows = g.kind == ArgKind::view && extent_a(g) > 1;
  std::ostringstream o;
  o << "  long " << n << "_o[SOA_S], " << n << "_r[SOA_S];\n"
    << "  int " << n << "_c = _full;\n"
    << "  for (int _l = 0; _l < SOA_S; _l++) {\n"
    << "    const long _j = _j0 + _l < _ib ? _ib : (_j0 + _l < _ie ? _j0 + _l : _ie - 1);\n"
    << "    " << n << "_o[_l] = " << (g.kind == ArgKind::array ? "_j" : n + "_ix[_j]") << ";\n"
    << "    " << n << "_r[_l] = " << (rows ? n + "_rs[_j]" : "0") << ";\n"
    << "    " << n << "_c = " << n << "_c && " << n << "_o[_l] == " << n << "_o[0] + _l && " << n
    << "_r[_l] == " << n << "_r[0];\n"
    << "  }\n";
  return o.str();
}

}  // namespace

std::string opencl_block_points(const Spec& s, const std::string& body) {
  std::ostringstream o;
  // Chunks of SOA_S points from the one holding _ib; lanes outside [_ib, _ie) compute on a
  // copy of an end point and store nothing.
  o << "  const long _j0 = _ib - _ib % SOA_S + (long)get_global_id(0)*SOA_S;\n"
    << "  if (_j0 >= _ie) return;\n"
    << "  const int _full = _j0 >= _ib && _j0 + SOA_S <= _ie;\n"
    << "  fpscal_t _g[SOA_S];\n";
  for (const auto& g : s.args) {
    if (!gathered(g)) continue;
    o << lane_offsets(g) << "  " << local_decl(g) << "\n";
    if (!loads(g)) continue;
    std::ostringstream vec, lanes;
    for (int a = 0; a < extent_a(g); ++a)
      for (int b = 0; b < extent_b(g); ++b) {
        vec << "    " << local_ref(g, a, b) << " = FRMINI_VLOAD(0, " << chunk_address(g, a, b) << ");\n";
        lanes << "    for (int _l = 0; _l < SOA_S; _l++) _g[_l] = " << lane_address(g, a, b) << ";\n"
              << "    " << local_ref(g, a, b) << " = FRMINI_VLOAD(0, _g);\n";
      }
    o << "  if (" << g.name << "_c) {\n" << vec.str() << "  } else {\n" << lanes.str() << "  }\n";
  }
  o << "  {\n" << body << "\n  }\n";
  for (const auto& g : s.args) {
    if (!gathered(g) || !stores(g)) continue;
    std::ostringstream vec, lanes;
    for (int a = 0; a < extent_a(g); ++a)
      for (int b = 0; b < extent_b(g); ++b) {
        vec << "    FRMINI_VSTORE(" << local_ref(g, a, b) << ", 0, " << chunk_address(g, a, b) << ");\n";
        lanes << "    FRMINI_VSTORE(" << local_ref(g, a, b) << ", 0, _g);\n"
              << "    for (int _l = 0; _l < SOA_S; _l++)\n"
              << "      if (_j0 + _l >= _ib && _j0 + _l < _ie) " << lane_address(g, a, b) << " = _g[_l];\n";
      }
    o << "  if (" << g.name << "_c) {\n" << vec.str() << "  } else {\n" << lanes.str() << "  }\n";
  }
  return o.str();
}

}  // namespace frmini::kernels::pointwise::parts
