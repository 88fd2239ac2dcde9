#include "kernels/cpu/matmul_source.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "base/literal.hpp"

namespace frmini::kernels::cpu {

namespace {

// Statements per generated function before a block is split into several functions: GCC's
// time grows faster than linearly with function size, so hex p6 M132 (7k non-zeros) is split
// into chunks that compile in well under a second each.
constexpr std::size_t max_terms_per_function = 2400;
// Rows per chunk function: the unit of the row-sweep traversal (below).
constexpr std::size_t max_rows_per_function = 32;

struct Ctx {
  const matmul::Analysis& an;
  double beta;
  Precision prec;
  std::size_t vl;        // elements per SIMD vector
  std::size_t ldb, ldc;
  const char* T;
  std::string lit(double v) const { return frmini::literal(v, prec == Precision::single); }
  std::string boff(std::size_t kx, int q) const { return std::to_string(kx * ldb + q * vl); }
  std::string coff(std::size_t j, int q) const { return std::to_string(j * ldc + q * vl); }
  // Columns per vector step of strategy s (its `qs`).
  std::size_t step(const CStrategy& s) const { return vl * std::size_t(s.vecs); }
  // A look-ahead prefetch of the line `off` elements past b (or c) one step of s ahead:
  // PFB/PFC take the byte displacement, which x86-64 encodes in the instruction when it fits
  // in 32 bits; PFBX/PFCX, the fallback, take elements.
  std::string prefetch(const char* mac, std::size_t off, const CStrategy& s) const {
    const std::size_t bytes = (off + step(s)) * itemsize(prec);
    if (bytes <= 0x7fffffffu) return std::string(mac) + "(" + std::to_string(bytes) + ");\n";
    return std::string(mac) + "X(" + std::to_string(off) + ");\n";
  }
  // Look-ahead strategies with few distinct |a_ij|: each magnitude's register (u<i>), so that
  // a multiply-add reads only B from memory (a literal costs a broadcast load per use, and
  // with a prefetch per use the load ports are what limits: hex p5 M132, 36 values, ran 13%
  // behind libxsmm with literals and level with it with registers). Empty: literals.
  std::map<double, int> ureg;
};

// A coefficient as it enters a sum: its sign and the expression of its magnitude (a register
// of `ureg`, noted in `used`) or, without registers, no sign and the literal.
struct Coef {
  bool neg;
  std::string mag;
};
Coef coef(const Ctx& x, double v, std::set<int>& used) {
  auto it = x.ureg.find(std::abs(v));
  if (it == x.ureg.end()) return {false, x.lit(v)};
  used.insert(it->second);
  return {v < 0, "u" + std::to_string(it->second)};
}

// `acc = term` (first) or `acc += term`, with the coefficient's sign folded into the operator.
std::string accumulate(const std::string& acc, const Coef& a, const std::string& b, bool first) {
  if (first) return acc + " = " + (a.neg ? "-" : "") + a.mag + "*" + b + ";\n";
  return acc + (a.neg ? " -= " : " += ") + a.mag + "*" + b + ";\n";
}

// The store of row j's value `v` (an expression) into sub-vector q, beta specialised.
std::string store(const Ctx& x, const CStrategy& s, std::size_t j, int q, const std::string& v) {
  const std::string o = x.coff(j, q);
  if (x.beta == 0.0) return "STO(" + o + ", " + v + ");\n";
  // Look-ahead: C is read too, so its line one step ahead is fetched like B's.
  const std::string pf =
      s.lookahead ? x.prefetch("PFC", j * x.ldc + std::size_t(q) * x.vl, s) : "";
  if (x.beta == 1.0) return pf + "ST(" + o + ", LC(" + o + ") + (" + v + "));\n";
  return pf + "ST(" + o + ", (" + v + ") + " + x.lit(x.beta) + " * LC(" + o + "));\n";
}

// The loop over a block's vector steps around one row's (or group's) code: none in a
// lookahead strategy, whose chunk functions put that loop around all their rows.
std::string qloop_open(const CStrategy& s) { return s.lookahead ? "{\n" : "QLOOP {\n"; }

// The look-ahead prefetches of B row kx's lines (one per vector of the step), one step ahead.
std::string prefetch_b(const Ctx& x, const CStrategy& s, std::size_t kx) {
  std::string out;
  if (!s.lookahead) return out;
  for (int q = 0; q < s.vecs; ++q)
    out += x.prefetch("PFB", kx * x.ldb + std::size_t(q) * x.vl, s);
  return out;
}

// Rows of A with no non-zero: 0 (beta = 0), untouched (beta = 1), beta*c otherwise.
std::string zero_rows(const Ctx& x, const CStrategy& s) {
  const int vecs = s.vecs;
  const std::string open = qloop_open(s);
  std::string out = open;
  for (std::size_t j = 0; j < x.an.m; ++j) {
    if (!x.an.rows[j].empty() || x.beta == 1.0) continue;
    for (int q = 0; q < vecs; ++q) {
      const std::string o = x.coff(j, q);
      if (x.beta == 0.0)
        out += "STO(" + o + ", VZERO);\n";
      else
        out += "ST(" + o + ", " + x.lit(x.beta) + " * LC(" + o + "));\n";
    }
  }
  return out == open ? std::string() : out + "}\n";
}

// Row j's dot product for sub-vector q, as `nsplit` interleaved parenthesised partial sums.
std::string dot(const Ctx& x, std::size_t j, int q, std::set<int>& used) {
  const auto& r = x.an.rows[j];
  std::size_t nsplit = r.size() >= 32 ? 4 : r.size() >= 8 ? 2 : 1;
  std::string out;
  for (std::size_t s = 0; s < nsplit; ++s) {
    std::string part;
    for (std::size_t t = s; t < r.size(); t += nsplit) {
      const Coef a = coef(x, r[t].value, used);
      if (!part.empty()) part += a.neg ? " - " : " + ";
      else if (a.neg) part += "-";
      part += a.mag + "*LB(" + x.boff(r[t].col, q) + ")";
    }
    out += (nsplit > 1 ? (s ? " + (" : "(") + part + ")" : part);
  }
  return out;
}

// The non-zero rows in the order the register-tiled strategies visit them: rows sharing the
// same column set adjacent (so a group loads each B row once for all its rows), otherwise in
// order of their first column.
std::vector<std::size_t> grouped_rows(const matmul::Analysis& an) {
  std::vector<std::size_t> rows;
  for (std::size_t j = 0; j < an.m; ++j)
    if (!an.rows[j].empty()) rows.push_back(j);
  auto cols = [&](std::size_t j) {
    std::vector<std::size_t> c;
    for (const auto& nz : an.rows[j]) c.push_back(nz.col);
    return c;
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](std::size_t a, std::size_t b) { return cols(a) < cols(b); });
  return rows;
}

// One function body piece per group or row; split into functions by size.
struct Piece {
  std::string code;
  std::size_t terms;
  std::size_t rows = 1;
  std::set<int> uregs = {};  // the coefficient registers it uses
};

std::vector<Piece> cstream_pieces(const Ctx& x, const CStrategy& s) {
  std::vector<Piece> out;
  for (std::size_t j = 0; j < x.an.m; ++j) {
    if (x.an.rows[j].empty()) continue;
    Piece p{qloop_open(s), x.an.rows[j].size() * std::size_t(s.vecs)};
    for (const auto& nz : x.an.rows[j]) p.code += prefetch_b(x, s, nz.col);
    for (int q = 0; q < s.vecs; ++q) p.code += store(x, s, j, q, dot(x, j, q, p.uregs));
    p.code += "}\n";
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<Piece> bstream_pieces(const Ctx& x, const CStrategy& s) {
  std::vector<Piece> out;
  auto rows = grouped_rows(x.an);
  const std::size_t g = std::size_t(std::max(1, s.group));
  for (std::size_t g0 = 0; g0 < rows.size(); g0 += g) {
    std::vector<std::size_t> grp(rows.begin() + long(g0),
                                 rows.begin() + long(std::min(rows.size(), g0 + g)));
    // For each used column (ascending), the (group index, value) pairs.
    std::map<std::size_t, std::vector<std::pair<std::size_t, double>>> bycol;
    for (std::size_t r = 0; r < grp.size(); ++r)
      for (const auto& nz : x.an.rows[grp[r]]) bycol[nz.col].emplace_back(r, nz.value);
    Piece p{qloop_open(s), 0};
    p.code += "vt";
    for (std::size_t r = 0; r < grp.size(); ++r)
      for (int q = 0; q < s.vecs; ++q)
        p.code += std::string(r || q ? "," : "") + " a" + std::to_string(r) + "_" + std::to_string(q);
    p.code += ";\n";
    for (const auto& [kx, uses] : bycol) {
      p.code += prefetch_b(x, s, kx);
      p.code += "{ ";
      for (int q = 0; q < s.vecs; ++q)
        p.code += "const vt x" + std::to_string(q) + " = LB(" + x.boff(kx, q) + "); ";
      p.code += "\n";
      for (const auto& [r, v] : uses) {
        const std::size_t j = grp[r];
        const bool first = long(kx) == x.an.afix[j], last = long(kx) == x.an.alix[j];
        for (int q = 0; q < s.vecs; ++q) {
          std::string acc = "a" + std::to_string(r) + "_" + std::to_string(q);
          p.code += accumulate(acc, coef(x, v, p.uregs), "x" + std::to_string(q), first);
          ++p.terms;
        }
        if (last)
          for (int q = 0; q < s.vecs; ++q)
            p.code += store(x, s, j, q, "a" + std::to_string(r) + "_" + std::to_string(q));
      }
      p.code += "}\n";
    }
    p.code += "}\n";
    p.rows = grp.size();
    out.push_back(std::move(p));
  }
  return out;
}

// packed: per group, literal arrays of the used columns' B offsets and the group's values.
std::vector<Piece> packed_pieces(const Ctx& x, const CStrategy& s, const std::string& id,
                                 std::string& tables) {
  std::vector<Piece> out;
  auto rows = grouped_rows(x.an);
  const std::size_t g = std::size_t(std::max(1, s.group));
  for (std::size_t g0 = 0, gi = 0; g0 < rows.size(); g0 += g, ++gi) {
    std::vector<std::size_t> grp(rows.begin() + long(g0),
                                 rows.begin() + long(std::min(rows.size(), g0 + g)));
    std::map<std::size_t, std::vector<double>> bycol;
    for (std::size_t r = 0; r < grp.size(); ++r)
      for (const auto& nz : x.an.rows[grp[r]]) {
        auto& v = bycol[nz.col];
        v.resize(grp.size(), 0.0);
        v[r] = nz.value;
      }
    const std::string tag = id + "_" + std::to_string(gi);
    std::string offs, vals;
    for (const auto& [kx, v] : bycol) {
      offs += std::to_string(kx * x.ldb) + ",";
      for (double a : v) vals += (a == 0.0 ? std::string(x.prec == Precision::single ? "0.0f" : "0.0")
                                           : x.lit(a)) + ",";
    }
    tables += "static const long boff_" + tag + "[" + std::to_string(bycol.size()) + "] = {" +
              offs + "};\n";
    tables += "static const " + std::string(x.T) + " aval_" + tag + "[" +
              std::to_string(bycol.size() * grp.size()) + "] = {" + vals + "};\n";
    Piece p{"QLOOP {\n", grp.size() * std::size_t(s.vecs) * 4};
    for (std::size_t r = 0; r < grp.size(); ++r)
      for (int q = 0; q < s.vecs; ++q)
        p.code += "vt a" + std::to_string(r) + "_" + std::to_string(q) + " = VZERO;\n";
    p.code += "for (int u = 0; u < " + std::to_string(bycol.size()) + "; u++) {\n";
    p.code += "const " + std::string(x.T) + "* restrict bp = b + q * qs + boff_" + tag + "[u];\n";
    p.code += "const " + std::string(x.T) + "* restrict av = aval_" + tag + " + u*" +
              std::to_string(grp.size()) + ";\n";
    for (int q = 0; q < s.vecs; ++q)
      p.code += "const vt x" + std::to_string(q) + " = *(const vt*)(bp + " +
                std::to_string(q * x.vl) + ");\n";
    for (std::size_t r = 0; r < grp.size(); ++r)
      for (int q = 0; q < s.vecs; ++q)
        p.code += "a" + std::to_string(r) + "_" + std::to_string(q) + " += av[" +
                  std::to_string(r) + "]*x" + std::to_string(q) + ";\n";
    p.code += "}\n";
    for (std::size_t r = 0; r < grp.size(); ++r)
      for (int q = 0; q < s.vecs; ++q)
        p.code += store(x, s, grp[r], q, "a" + std::to_string(r) + "_" + std::to_string(q));
    p.code += "}\n";
    out.push_back(std::move(p));
  }
  return out;
}

// The scalar remainder: columns [i0, i1) (fewer than a block) from a literal CSR copy of A.
std::string tail_function(const Ctx& x) {
  std::ostringstream o;
  const auto& an = x.an;
  o << "static const int tail_ptr[" << an.m + 1 << "] = {";
  std::size_t p = 0;
  for (std::size_t j = 0; j <= an.m; ++j) {
    o << p << ",";
    if (j < an.m) p += an.rows[j].size();
  }
  o << "};\n";
  std::string cols, vals;
  for (const auto& r : an.rows)
    for (const auto& nz : r) {
      cols += std::to_string(nz.col * x.ldb) + ",";
      vals += x.lit(nz.value) + ",";
    }
  if (an.nnz == 0) cols = "0", vals = "0";
  o << "static const long tail_off[" << std::max<std::size_t>(an.nnz, 1) << "] = {" << cols << "};\n";
  o << "static const " << x.T << " tail_val[" << std::max<std::size_t>(an.nnz, 1) << "] = {" << vals
    << "};\n";
  o << "static void frmini_tail(long i0, long i1, const " << x.T << "* restrict b, " << x.T
    << "* restrict c) {\n"
    << "  for (long i = i0; i < i1; i++)\n"
    << "    for (int j = 0; j < " << an.m << "; j++) {\n"
    << "      " << x.T << " s = 0;\n"
    << "      for (int p = tail_ptr[j]; p < tail_ptr[j + 1]; p++) s += tail_val[p] * b[tail_off[p] + i];\n";
  const std::string cij = "c[(long)j * " + std::to_string(x.ldc) + " + i]";
  if (x.beta == 0.0)
    o << "      " << cij << " = s;\n";
  else if (x.beta == 1.0)
    o << "      if (tail_ptr[j] < tail_ptr[j + 1]) " << cij << " += s;\n";
  else
    o << "      " << cij << " = s + " << x.lit(x.beta) << " * " << cij << ";\n";
  o << "    }\n}\n";
  return o.str();
}

// The context of strategy s: for a look-ahead strategy whose distinct coefficient magnitudes
// fit in the vector registers left over by its accumulators, one register per magnitude.
Ctx with_coefficient_registers(const Ctx& x, const CStrategy& s, std::size_t simd_bytes) {
  Ctx xs = x;
  if (!s.lookahead || s.kind == CStrategy::packed) return xs;
  const int nregs = simd_bytes >= 64 ? 32 : 16;
  const int busy = s.kind == CStrategy::bstream ? s.group * s.vecs + s.vecs + 2 : 4 * s.vecs + 4;
  std::set<double> mags;
  for (const auto& r : x.an.rows)
    for (const auto& nz : r) mags.insert(std::abs(nz.value));
  if (int(mags.size()) > nregs - busy) return xs;
  int i = 0;
  for (double m : mags) xs.ureg[m] = i++;
  return xs;
}

// A look-ahead chunk's loop over the block's vector steps. It advances b and c themselves and
// keeps q = 0, so every access is one base register plus a constant: with `b + q * qs + o`
// GCC made an induction variable of each of the hundreds of addresses and spilled them.
std::string lookahead_loop(const std::string& body) {
  return "for (int qi = 0; qi < nv; qi++, b += qs, c += qs) {\nconst int q = 0; (void)q;\n" + body + "}\n";
}

// The declarations of a chunk function's coefficient registers. The empty asm hides each
// value from the optimiser, which would otherwise fold it back into a broadcast load per use.
std::string coefficient_registers(const Ctx& x, const std::set<int>& used) {
  std::string out;
  for (const auto& [mag, i] : x.ureg) {
    if (!used.count(i)) continue;
    const std::string u = "u" + std::to_string(i);
    out += "vt " + u + " = VZERO + " + x.lit(mag) + "; KEEPREG(" + u + ");\n";
  }
  return out;
}

}  // namespace

std::string CStrategy::name() const {
  std::string n = kind == cstream ? "cstream" : kind == bstream ? "bstream" : "packed";
  if (kind != cstream) n += "-g" + std::to_string(group);
  if (vecs != 1) n += "-v" + std::to_string(vecs);
  if (lookahead) n += "-la";
  if (width) n += "-w" + std::to_string(width);
  if (nt) n += "-nt";
  if (prefetch) n += "-pf";
  if (row_sweep) n += "-rs";
  return n;
}

std::string mm_symbol(std::size_t i) { return "frmini_mm_" + std::to_string(i); }

std::string generate_c(const CodegenInput& in, const std::vector<CStrategy>& strategies) {
  if (in.simd_bytes != 16 && in.simd_bytes != 32 && in.simd_bytes != 64)
    throw std::logic_error("generate_c: simd_bytes must be 16, 32 or 64");
  const Ctx x{*in.an, in.beta, in.precision, in.simd_bytes / itemsize(in.precision), in.ldb,
              in.ldc, c_type(in.precision), {}};
  const bool single = in.precision == Precision::single;
  std::ostringstream o;
  o << "/* frmini generated matmul: C = A*B " << (in.beta == 0 ? "" : "+ beta*C ") << "; m="
    << x.an.m << " k=" << x.an.k << " nnz=" << x.an.nnz << " ldb=" << x.ldb << " ldc=" << x.ldc
    << " */\n";
  // Streaming stores are chosen at run time (the `nt` argument): one compiled block serves
  // both variants, and the branch per C row store is perfectly predicted.
  const bool any_nt = in.beta == 0.0 && in.simd_bytes >= 16;
  // The streaming-store intrinsic exists only where the compiler targets its ISA (the macro
  // below): the source compiles under any -march, with plain stores where it is missing.
  const char* isa_macro = in.simd_bytes == 64 ? "__AVX512F__" : in.simd_bytes == 32 ? "__AVX__"
                                                                                     : "__SSE2__";
  if (any_nt) o << "#if defined(__SSE2__)\n#include <immintrin.h>\n#endif\n";
  // A coefficient register pinned by an empty asm needs a register as wide as vt.
  o << "#if defined(" << isa_macro << ")\n#define KEEPREG(u) __asm__(\"\" : \"+v\"(u))\n"
    << "#else\n#define KEEPREG(u) ((void)0)\n#endif\n";
  o << "typedef " << x.T << " vt __attribute__((vector_size(" << in.simd_bytes << "), aligned("
    << itemsize(in.precision) << ")));\n";
  // A block is nv SIMD vectors wide (a run-time argument: one compiled kernel serves every
  // block width): each row (or row group) loops over its nv vectors, so a row's B and C
  // accesses are contiguous runs of nv lines, the pattern memory systems stream best.
  o << "#define QLOOP for (int q = 0; q < nv; q++)\n";
  // qs: columns per step of the strategy (vecs SIMD vectors), a constant of each block function.
  o << "#define LB(o) (*(const vt*)(b + q * qs + (o)))\n"
    << "#define LC(o) (*(const vt*)(c + q * qs + (o)))\n"
    << "#define ST(o, v) (*(vt*)(c + q * qs + (o)) = (v))\n#define VZERO ((vt){0})\n"
    // Look-ahead: B's line one vector step (qs columns) ahead into L2 (prefetcht2), C's for
    // writing. On x86-64 as an instruction with the displacement d (bytes) as its immediate:
    // given __builtin_prefetch(b + o), GCC keeps the hundreds of distinct addresses of a step
    // in registers, spilled to the stack and to vector registers (hex p5 M3: 7.2 ms against
    // 5.6 ms as immediates). PFBX/PFCX (o in elements) where d does not fit.
    << "#if defined(__x86_64__)\n"
    << "#define PFB(d) __asm__ volatile(\"prefetcht2 {%c1(%0)|[%0+%c1]}\" : : \"r\"(b), \"i\"(d))\n"
    << "#define PFC(d) __asm__ volatile(\"prefetchw {%c1(%0)|[%0+%c1]}\" : : \"r\"(c), \"i\"(d))\n"
    << "#else\n"
    << "#define PFB(d) __builtin_prefetch((const char*)b + (d), 0, 1)\n"
    << "#define PFC(d) __builtin_prefetch((const char*)c + (d), 1, 1)\n"
    << "#endif\n"
    << "#define PFBX(o) __builtin_prefetch(b + qs + (o), 0, 1)\n"
    << "#define PFCX(o) __builtin_prefetch(c + qs + (o), 1, 1)\n";
  if (any_nt) {
    const char* sfx = single ? "ps" : "pd";
    std::string fn = in.simd_bytes == 64   ? std::string("_mm512_stream_") + sfx
                     : in.simd_bytes == 32 ? std::string("_mm256_stream_") + sfx
                                           : std::string("_mm_stream_") + sfx;
    std::string cast = in.simd_bytes == 64 ? (single ? "__m512" : "__m512d")
                       : in.simd_bytes == 32 ? (single ? "__m256" : "__m256d")
                                             : (single ? "__m128" : "__m128d");
    o << "#if defined(" << isa_macro << ")\n"
      << "#define STO(o, v) do { if (nt) " << fn << "(c + q * qs + (o), (" << cast
      << ")(v)); else ST(o, v); } while (0)\n"
      << "#else\n#define STO(o, v) do { (void)nt; ST(o, v); } while (0)\n#endif\n";
  } else {
    o << "#define STO(o, v) ST(o, v)\n";
  }
  o << tail_function(x);
  // Software prefetch of the block `pfd` columns ahead: a column block touches one line (or
  // a few) in each of k_u + m rows, a page apart, more streams than the hardware prefetchers
  // follow. Written once for all strategies; `nl` lines per row.
  o << "static __attribute__((noinline)) void frmini_prefetch(const " << x.T << "* b, " << x.T
    << "* c, int nl) {\n  for (int q = 0; q < nl; q++) {\n";
  for (std::size_t kx : x.an.bix)
    o << "    __builtin_prefetch(b + " << kx * x.ldb << " + q * " << 64 / itemsize(in.precision)
      << ", 0, 3);\n";
  for (std::size_t j = 0; j < x.an.m; ++j) {
    if (x.beta == 1.0 && x.an.rows[j].empty()) continue;
    if (x.beta != 0.0 || !any_nt)
      o << "    __builtin_prefetch(c + " << j * x.ldc << " + q * " << 64 / itemsize(in.precision)
        << ", 1, 3);\n";
  }
  o << "  }\n  (void)b; (void)c;\n}\n";

  for (std::size_t si = 0; si < strategies.size(); ++si) {
    const auto& s = strategies[si];
    const std::string id = std::to_string(si);
    std::string tables;
    const Ctx xs = with_coefficient_registers(x, s, in.simd_bytes);
    std::vector<Piece> pieces = s.kind == CStrategy::cstream   ? cstream_pieces(xs, s)
                                : s.kind == CStrategy::bstream ? bstream_pieces(xs, s)
                                                               : packed_pieces(xs, s, id, tables);
    o << tables;
    // Chunk functions of bounded size; the block function calls them in order.
    std::vector<std::string> chunks;
    std::vector<std::set<int>> chunk_uregs;
    std::string cur;
    std::set<int> cur_uregs;
    std::size_t terms = 0, rows = 0;
    for (auto& p : pieces) {
      // A look-ahead chunk runs once per vector step (8 columns), so its call and register
      // set-up are paid per step: only the compile-time bound splits it.
      const bool row_cap = !s.lookahead && rows >= max_rows_per_function;
      if (terms && (terms + p.terms > max_terms_per_function || row_cap)) {
        rows = 0;
        chunks.push_back(std::move(cur));
        chunk_uregs.push_back(std::move(cur_uregs));
        cur.clear();
        cur_uregs.clear();
        terms = 0;
      }
      cur += p.code;
      cur_uregs.insert(p.uregs.begin(), p.uregs.end());
      terms += p.terms;
      rows += p.rows;
    }
    std::string zr = zero_rows(xs, s);
    if (!cur.empty() || chunks.empty()) {
      chunks.push_back(cur + zr);
      chunk_uregs.push_back(std::move(cur_uregs));
    } else {
      chunks.back() += zr;
    }
    // noinline: one copy of the code whatever the number of call sites (compile time).
    // Look-ahead chunks leave b and c unqualified: as possible aliases of the C stores, B
    // lines are re-read at each use (a multiply-add with a memory operand, as libxsmm's) where
    // GCC would otherwise load them ahead and hold them across rows; hex p4 M3 (beta = 1) ran
    // ~5% faster so, alternating with libxsmm in one process.
    const char* rq = s.lookahead ? "" : "restrict ";
    const std::string sig = "(const " + std::string(x.T) + "* " + rq + "b, " + x.T + "* " + rq +
                            "c, const int nt, const int nv)";
    for (std::size_t ci = 0; ci < chunks.size(); ++ci)
      o << "static __attribute__((noinline)) void blk" << id << "_" << ci << sig
        << " {\nconst long qs = " << x.step(s)
        << ";\n(void)b; (void)c; (void)nt; (void)nv; (void)qs;\n"
        << coefficient_registers(xs, chunk_uregs[ci])
        << (s.lookahead ? lookahead_loop(chunks[ci]) : chunks[ci]) << "}\n";
    const std::size_t VL = x.step(s);  // columns per vector step
    const std::size_t lines = (VL * itemsize(in.precision) + 63) / 64;
    o << "void " << mm_symbol(si) << "(long i0, long i1, const " << x.T << "* restrict b, "
      << x.T << "* restrict c, int nt, long pfd, int nvb, int rs) {\n"
      << "  const long nvec = (i1 - i0) / " << VL << ";\n"
      << "  const long nb = (nvec + nvb - 1) / nvb;\n"
      // Threads only when there is enough work (~1M multiply-adds + stores) to amortise waking
      // them: narrow products (tests, small cache blocks) run on the calling thread.
      << "#pragma omp parallel if (nb > 1 && nvec * " << VL * (x.an.nnz + x.an.m) << "L > "
      << (1L << 20) << "L)\n  {\n";
    // Row sweep (rs): each chunk of <= 32 rows sweeps the thread's whole column range before
    // the next chunk starts, so only that chunk's C rows and their B rows stream at once
    // (fewer concurrent streams than rows x columns blocks). Chunks write disjoint rows: no
    // barrier between them.
    o << "  if (rs) {\n";
    for (std::size_t ci = 0; ci < chunks.size(); ++ci)
      o << "#pragma omp for schedule(static) nowait\n"
        << "  for (long ib = 0; ib < nb; ib++) {\n"
        << "    const long v0 = ib * nvb;\n"
        << "    const int nv = (int)(nvec - v0 < nvb ? nvec - v0 : nvb);\n"
        << "    blk" << id << "_" << ci << "(b + i0 + v0 * " << VL << ", c + i0 + v0 * " << VL
        << ", nt, nv);\n  }\n";
    o << "  } else {\n"
      << "#pragma omp for schedule(static) nowait\n"
      << "  for (long ib = 0; ib < nb; ib++) {\n"
      << "    const long v0 = ib * nvb;\n"
      << "    const int nv = (int)(nvec - v0 < nvb ? nvec - v0 : nvb);\n"
      << "    const long o = i0 + v0 * " << VL << ";\n"
      << "    if (pfd && o + pfd + nv * " << VL << " <= i1) frmini_prefetch(b + o + pfd, c + o + pfd, nv * "
      << lines << ");\n";
    for (std::size_t ci = 0; ci < chunks.size(); ++ci)
      o << "    blk" << id << "_" << ci << "(b + o, c + o, nt, nv);\n";
    o << "  }\n  }\n";
    if (any_nt)
      o << "#if defined(__SSE2__)\n"
        << "  if (nt) _mm_sfence();  /* streaming stores visible before the barrier */\n"
        << "#endif\n";
    o << "  }\n"
      << "  if (i0 + nvec * " << VL << " < i1) frmini_tail(i0 + nvec * " << VL << ", i1, b, c);\n"
      << "}\n";
  }
  return o.str();
}

}  // namespace frmini::kernels::cpu
