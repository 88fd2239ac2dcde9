// The cpu backend's dialect: C99 compiled by the system's C compiler, one function a kernel
// that runs serially over its range (the backend splits ranges over OpenMP threads and cache
// blocks), SoA lanes as the innermost loop for the vectoriser, look-ahead prefetches, and
// interface chunks addressed as vectors where their offsets run on (render.hpp).
#include <sstream>

#include "kernels/pointwise/render_parts.hpp"

namespace frmini::kernels::pointwise {

namespace {

using namespace parts;

// The loop over the lanes of an interface chunk, opened: point _j of lane _lane. A chunk in
// two pieces chooses each lane's piece by `_lane < NAME_k`, so there lane and split point are
// frmini_lane_t, an integer as wide as the values (prelude), and those comparisons fill vectors
// of the values' width. With an int lane and double values GCC 12 vectorised those chunks with
// 4 lanes of 8: 2.5 times the time a point of the whole vectors' chunks (NS intcflux, hex
// p = 3; a third of the Taylor-Green box's chunks, over half the cylinder's), against 1.6 now.
std::string chunk_lanes(const char* lane_type = "int") {
  return std::string("      for (") + lane_type + " _lane = 0; _lane < SOA_S; _lane++) {\n" +
         "        const int64_t _j = _j0 + _lane;\n";
}

// A chunk whose views (or far views) are scattered over the elements: their values are copied
// lane by lane into staging arrays, the physics runs as one vector loop on those, and the
// outputs are copied back. GCC 12 vectorises no gather of floats through 64-bit offsets, so
// in single precision such chunks otherwise ran the whole physics point by point: on the
// cylinder at p = 3, a quarter of the interface chunks (16 points) against 7% in double (8).
std::string staged_chunk(const Spec& s, const std::string& body, Contig c) {
  std::ostringstream decl, in, out;
  for (const auto& g : s.args) {
    if (!is_staged(g, c)) continue;
    const std::string& n = g.name;
    decl << "      fpdtype_t _sg_" << n << "[" << extent_a(g) * extent_b(g) << "][SOA_S];\n";
    for (int a = 0; a < extent_a(g); ++a)
      for (int b = 0; b < extent_b(g); ++b) {
        const std::string mem = address(g, a, b, s.space), st = staged_ref(g, a, b);
        if (loads(g)) in << "        " << st << " = " << mem << ";\n";
        if (stores(g)) out << "        " << mem << " = " << st << ";\n";
      }
  }
  std::ostringstream o;
  o << decl.str() << chunk_lanes() << in.str() << "      }\n"
    << "      #pragma GCC ivdep\n" << chunk_lanes() << "        (void)_j;\n"
    << point_block(s, body, "        ", c) << "      }\n";
  if (!out.str().empty()) o << chunk_lanes() << out.str() << "      }\n";
  return o.str();
}

std::string c_unpack(const Slot& sl, std::size_t k, const Spec& s) {
  const Arg& g = s.args[sl.arg];
  std::string i = std::to_string(k);
  switch (sl.type) {
    case SlotType::fp_buffer:
      return std::string(loads(g) && !stores(g) ? "const " : "") + "fpdtype_t* " +
             (g.kind == ArgKind::view ? "" : "restrict ") + sl.name + " = (" +
             (loads(g) && !stores(g) ? "const " : "") + "fpdtype_t*)_a[" + i + "].p;";
    case SlotType::idx_buffer:
      return "const int64_t* restrict " + sl.name + " = (const int64_t*)_a[" + i + "].p;";
    case SlotType::int64: return "const int64_t " + sl.name + " = _a[" + i + "].i;";
    case SlotType::fp_scalar: return "const fpdtype_t " + sl.name + " = (fpdtype_t)_a[" + i + "].d;";
  }
  return "";
}

// Whether every field holds one value a point (the integrators' register kernels run in a
// chain, System::rhs). GCC 12 unrolls so small a lane loop completely before its vectoriser
// runs, and the straight-line lanes left are not vectorised (scalar loads and stores, the
// loop's ivdep gone with it): `unroll 1` keeps the loop for the vectoriser. Larger bodies
// are vectorised as they are, and were measured a little slower with the pragma.
bool one_value_fields(const Spec& s) {
  for (const auto& g : s.args)
    if (g.kind == ArgKind::field && extent_a(g) * extent_b(g) != 1) return false;
  return true;
}

// Element kernels on a short range (a cache block of a chain) read each row of an input
// field as a run of a few dozen lines, a panel row (megabytes) away from the next row's:
// too short for the hardware prefetchers to lock on, so every row starts with a wait on
// memory. Each point therefore prefetches (into L2) the lines of its inputs' rows
// PF_ROWS points ahead over the range. Long ranges (unblocked runs) stream by themselves.
// Every field the kernel reads, updated ones included: the registers that the integrator's
// updates read and write in the RHS's last chain come from memory. Where a field is a chain's
// scratch, already in cache, the prefetch costs a few instructions; on the cylinder at p = 3
// prefetching the updated fields too was 2-3% faster a step than inputs only.
std::string prefetch_rows(const Spec& s) {
  std::ostringstream o;
  for (const auto& g : s.args) {
    if (g.kind != ArgKind::field || !loads(g) || g.uniform) continue;
    const std::string& n = g.name;
    const int B = extent_b(g);
    for (int a = 0; a < extent_a(g); ++a)
      o << "      {\n"
        << "        const fpdtype_t* _r = " << n << "_p + (" << a << "*NPTS + _i + PF_ROWS)*" << n
        << "_ld;\n"
        << "        for (int64_t _o = (_ib/SOA_S)*" << B << "*SOA_S; _o < ((_ie + SOA_S - 1)/SOA_S)*"
        << B << "*SOA_S; _o += 64/sizeof(fpdtype_t))\n"
        << "          __builtin_prefetch(_r + _o, 0, 2);\n"
        << "      }\n";
  }
  if (o.str().empty()) return "";
  return "    if (_ie - _ib <= PF_MAX_ELES && _i + PF_ROWS < NPTS) {\n" + o.str() + "    }\n";
}

// Interface kernels walk their points in chunks of SOA_S whose views jump from one element's
// flux points to another's: the hardware prefetchers cannot follow, and each chunk would start
// with a wait on memory per view row. So each chunk prefetches the lines of the chunk
// PF_CHUNKS ahead (its first offset per row: one 64-byte line of SOA_S values; a chunk in two
// pieces gets its first piece's line).
std::string prefetch_chunks(const Spec& s) {
  std::ostringstream o;
  for (const auto& g : s.args) {
    if (g.kind != ArgKind::view) continue;
    const std::string& n = g.name;
    const int w = g.intent == Intent::in ? 0 : 1;
    for (int a = 0; a < extent_a(g); ++a)
      for (int b = 0; b < extent_b(g); ++b) {
        o << "      __builtin_prefetch(&" << n << "_p[" << n << "_ix[_jp]";
        if (a) o << " + " << a << "*" << n << "_rs[_jp]";
        if (b) o << " + " << b << "*SOA_S";
        o << "], " << w << ", 3);\n";
      }
  }
  if (o.str().empty()) return "";
  return "    if (_j0 + PF_CHUNKS*SOA_S < _ie) {\n      const int64_t _jp = _j0 + PF_CHUNKS*SOA_S;\n" + o.str() +
         "    }\n";
}

class CDialect final : public Dialect {
 public:
  const char* name() const override { return "c"; }
  Words words() const override { return {"static inline", "restrict", "", "int64_t"}; }
  std::string prelude(Precision p) const override {
    std::ostringstream o;
    o << "#include <stdint.h>\n"
         "#include <tgmath.h>  // type-generic maths: sqrt(float) is sqrtf\n"
         "typedef union { void* p; int64_t i; double d; } frmini_arg_t;\n"
      << "typedef " << (itemsize(p) == 8 ? "int64_t" : "int32_t") << " frmini_lane_t;\n"
         // Element kernels' look-ahead (prefetch_rows): rows ahead, and the longest range
         // it serves (elements; a register kernel in a chain counts nvars per element).
         "#define PF_ROWS 2\n"
         "#define PF_MAX_ELES 2048\n"
         // Interface kernels' look-ahead (prefetch_chunks): chunks of SOA_S points ahead.
         "#define PF_CHUNKS 4\n";
    return o.str();
  }
  std::string kernel(const Spec& s, const std::vector<Slot>& sl, const std::string& body,
                     bool) const override;
};

std::string CDialect::kernel(const Spec& s, const std::vector<Slot>& sl, const std::string& body,
                             bool) const {
  const bool elem = s.space == Space::element_points;
  std::ostringstream o;
  o << "void " << s.name << "(int64_t _ib, int64_t _ie, const frmini_arg_t* _a)\n{\n";
  for (std::size_t k = 0; k < sl.size(); ++k) o << "  " << c_unpack(sl[k], k, s) << "\n";
  // `GCC ivdep`, not `omp simd`: lanes (and interface points) never write the same
  // value, which is all the vectoriser needs to know. `omp simd` would also privatise
  // every local array whose address the physics functions take into per-lane arrays,
  // which GCC 12 then fails to vectorise (and without either pragma it gives up on the
  // alias checks between the rows of one output).
  if (elem) {
    // Rows outer, element blocks inner: every row of every argument is then read as
    // one contiguous stream over the range, where blocks outer would jump between the
    // rows (a panel row apart, megabytes on large meshes) at every point.
    o << "  for (int _i = 0; _i < NPTS; _i++) {\n"
      << prefetch_rows(s) << "    for (int64_t _e0 = _ib; _e0 < _ie; _e0 += SOA_S) {\n"
         "      const int64_t _blk = _e0 / SOA_S;\n"
         "      #pragma GCC ivdep\n"
      << (one_value_fields(s) ? "      #pragma GCC unroll 1\n" : "")
      << "      for (int _lane = 0; _lane < SOA_S; _lane++) {\n"
      << point_block(s, body, "        ") << "      }\n    }\n  }\n";
  } else if (!has_views(s)) {
    o << "  #pragma GCC ivdep\n  for (int64_t _j = _ib; _j < _ie; _j++) {\n"
      << point_block(s, body, "    ") << "  }\n";
  } else {
    // Chunks of SOA_S points, each with a record from the backend (c_chunk_record bytes:
    // a kind, then each view's split point). 1: every view's offsets are consecutive,
    // as interfaces in stream order make most chunks, and the chunk loads and stores
    // whole vectors. 3: every view's offsets are consecutive in at most two pieces (a
    // neighbour run crossing an SoA block: lanes below NAME_k from NAME_sa, the rest from
    // NAME_sb), masked vector loads and stores. 2: only the near side's views are
    // consecutive, the far side's values are staged (staged_chunk). Other full chunks
    // stage every view; the partial chunks at the ends of the range run point by point.
    std::ostringstream splits;
    {
      int v = 0;
      for (const auto& g : s.args) {
        if (g.kind != ArgKind::view) continue;
        const std::string& n = g.name;
        splits << "      const frmini_lane_t " << n << "_k = _c[" << 1 + v++ << "];\n"
               << "      const int64_t " << n << "_sa = " << n << "_ix[_j0];\n"
               << "      const int64_t " << n << "_sb = " << n << "_k < SOA_S ? " << n
               << "_ix[_j0 + " << n << "_k] - " << n << "_k : " << n << "_sa;\n";
      }
    }
    o << "  const unsigned char* restrict _fast = (const unsigned char*)_a[" << sl.size()
      << "].p;\n"
         "  for (int64_t _j0 = _ib - _ib % SOA_S; _j0 < _ie; _j0 += SOA_S) {\n"
         "    const int _full = _j0 >= _ib && _j0 + SOA_S <= _ie;\n"
      << prefetch_chunks(s)
      << "    const unsigned char* _c = _fast + (_j0 / SOA_S)*"
      << c_chunk_record(s) << ";\n"
         "    if (_full && _c[0] == 1) {\n"
         "      #pragma GCC ivdep\n"
      << chunk_lanes() << "        (void)_j;  // arrays only\n"
      << point_block(s, body, "        ", Contig::all) << "      }\n"
      << "    } else if (_full && _c[0] == 3) {\n"
      << splits.str()
      << "      #pragma GCC ivdep\n"
      << chunk_lanes("frmini_lane_t") << "        (void)_j;  // arrays only\n"
      << point_block(s, body, "        ", Contig::split) << "      }\n";
    if (has_near_and_far(s))
      o << "    } else if (_full && _c[0] == 2) {\n" << staged_chunk(s, body, Contig::staged_far);
    o << "    } else if (_full) {\n"
      << staged_chunk(s, body, Contig::staged)
      << "    } else {\n"
         "      const int64_t _jb = _j0 > _ib ? _j0 : _ib, _je = _j0 + SOA_S < _ie ? _j0 + SOA_S : _ie;\n"
         "      for (int64_t _j = _jb; _j < _je; _j++) {\n"
      << point_block(s, body, "        ")
      << "      }\n    }\n  }\n";
  }
  o << "}\n";
  return o.str();
}

}  // namespace

const Dialect& c_dialect() {
  static const CDialect d;
  return d;
}

}  // namespace frmini::kernels::pointwise
