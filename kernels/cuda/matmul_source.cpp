#include "kernels/cuda/matmul_source.hpp"

#include <sstream>
#include <stdexcept>

#include "base/literal.hpp"

namespace frmini::kernels::cuda {

using matmul::Analysis;
using matmul::Nonzero;

namespace {

// Writes the statements every shape shares: B loads, accumulator updates, C stores. One
// statement per vector component, so width 2 is the same code with ".x"/".y".
class Emitter {
 public:
  Emitter(const Analysis& a, const Strategy& s, const SourceParams& sp)
      : a_(a), s_(s), sp_(sp), single_(sp.precision == Precision::single) {
    T = c_type(sp.precision);
    VT = s.width == 2 ? T + "2" : T;
    zero = s.width == 2 ? "make_" + VT + "(0, 0)" : (single_ ? "0.0f" : "0.0");
    comps = s.width == 2 ? std::vector<std::string>{".x", ".y"} : std::vector<std::string>{""};
    if (sp.ldb % std::size_t(s.width) || sp.ldc % std::size_t(s.width))
      throw std::logic_error("cuda matmul: ld not a multiple of the width");
  }

  std::ostringstream os;
  std::string T, VT, zero;
  std::vector<std::string> comps;

  std::string lit(double v) const { return frmini::literal(v, sp_.precision == Precision::single); }
  std::string beta() const { return lit(sp_.beta); }
  // Offsets in vector elements; C++ gives a literal beyond int the type long on its own, and
  // the pointer arithmetic is then 64-bit (GiMMiK's "embiggen" case) only where needed.
  std::string boff(std::size_t kx) const { return std::to_string(kx * sp_.ldb / std::size_t(s_.width)); }
  std::string coff(std::size_t j) const { return std::to_string(j * sp_.ldc / std::size_t(s_.width)); }

  void header() {
    os << "// frmini generated CUDA matmul: " << s_.name << ", A " << a_.m << "x" << a_.k
       << " nnz " << a_.nnz << ", beta " << beta() << ", ldb " << sp_.ldb << ", ldc " << sp_.ldc
       << "\n";
    // __launch_bounds__ only on the shapes without shared memory (as GiMMiK PR #16): on the
    // small CTAs of msplit/ksplit (64-256 threads) ptxas then aims at 32 CTAs per SM and
    // spills at 48 registers. Those CTAs are <= 256 threads, so 255 registers always launch.
    bool bounds = s_.shape == Shape::cstream || s_.shape == Shape::bstream ||
                  s_.shape == Shape::mchunk;
    if (s_.threads() * 255 > 65536 && !bounds)
      throw std::logic_error("cuda matmul: split CTA too large without launch bounds");
    os << "extern \"C\" __global__ void";
    if (bounds) os << " __launch_bounds__(" << s_.threads() << ")";
    os << "\n"
       << sp_.name << "(const int nv, const " << VT << "* __restrict__ b, " << VT
       << "* __restrict__ c)\n{\n";
  }

  // acc (=|+=) value * bvar, per component.
  void update(const std::string& ind, const std::string& acc, bool first, double v,
              const std::string& bvar) {
    if (first) os << ind << VT << " " << acc << ";\n";
    for (auto& q : comps)
      os << ind << acc << q << (first ? " = " : " += ") << lit(v) << "*" << bvar << q << ";\n";
  }

  void store(const std::string& ind, std::size_t j, const std::string& acc, bool guard) {
    std::string pre = ind + (guard ? "if (in) " : "");
    std::string p = "cp[" + coff(j) + "]";
    if (sp_.beta == 0.0) {
      os << pre << "__stcg(cp + " << coff(j) << ", " << acc << ");\n";
    } else if (comps.size() == 1) {
      if (sp_.beta == 1.0)
        os << pre << p << " += " << acc << ";\n";
      else
        os << pre << p << " = " << acc << " + " << beta() << "*" << p << ";\n";
    } else {
      os << pre << "{ " << VT << " t = " << p << ";";
      for (auto& q : comps) {
        if (sp_.beta == 1.0)
          os << " t" << q << " += " << acc << q << ";";
        else
          os << " t" << q << " = " << acc << q << " + " << beta() << "*t" << q << ";";
      }
      os << " " << p << " = t; }\n";
    }
  }

  // A row of A with no non-zero: C = beta*C.
  void zero_row(const std::string& ind, std::size_t j, bool guard) {
    std::string pre = ind + (guard ? "if (in) " : "");
    std::string p = "cp[" + coff(j) + "]";
    if (sp_.beta == 0.0) {
      os << pre << "__stcg(cp + " << coff(j) << ", " << zero << ");\n";
    } else if (sp_.beta != 1.0) {
      if (comps.size() == 1) {
        os << pre << p << " *= " << beta() << ";\n";
      } else {
        os << pre << "{ " << VT << " t = " << p << ";";
        for (auto& q : comps) os << " t" << q << " *= " << beta() << ";";
        os << " " << p << " = t; }\n";
      }
    }
  }

  // One pass over the used B rows computing only `rows` (bstream, and each mchunk chunk).
  void bstream_body(const std::string& ind, const std::vector<std::size_t>& rows) {
    std::vector<char> mine(a_.m, 0);
    for (std::size_t j : rows) mine[j] = 1;
    for (std::size_t j : rows)
      if (a_.afix[j] < 0) zero_row(ind, j, false);
    for (std::size_t kx : a_.bix) {
      bool any = false;
      for (const Nonzero& z : a_.cols[kx]) any = any || mine[z.row];
      if (!any) continue;  // only the B rows this chunk uses are loaded
      std::string bv = "b" + std::to_string(kx);
      os << ind << "const " << VT << " " << bv << " = __ldcg(bp + " << boff(kx) << ");\n";
      for (const Nonzero& z : a_.cols[kx]) {
        if (!mine[z.row]) continue;
        std::string acc = "c" + std::to_string(z.row);
        update(ind, acc, long(kx) == a_.afix[z.row], z.value, bv);
        if (long(kx) == a_.alix[z.row]) store(ind, z.row, acc, false);
      }
    }
  }

  // Guarded prologue of the shared-memory shapes: every thread takes part in the barriers, so
  // out-of-range threads read column 0 (valid memory) and never store.
  void split_prologue() {
    os << "  const int i = blockIdx.x*" << s_.blockx << " + threadIdx.x;\n"
       << "  const bool in = i < nv;\n"
       << "  const " << VT << "* bp = b + (in ? i : 0);\n"
       << "  " << VT << "* cp = c + i;\n";
  }

  // Sum of value*B over the given non-zeros, per component; "" if none.
  std::string dot(const std::vector<Nonzero>& nzs, const std::string& q, int nsplit) const {
    if (nzs.empty()) return "";
    std::size_t parts = std::max<std::size_t>(1, std::min<std::size_t>(std::size_t(nsplit), nzs.size() / 3));
    std::string out;
    for (std::size_t s = 0; s < parts; ++s) {
      std::size_t lo = s * nzs.size() / parts, hi = (s + 1) * nzs.size() / parts;
      std::string frag;
      for (std::size_t x = lo; x < hi; ++x) {
        if (!frag.empty()) frag += " + ";
        frag += lit(nzs[x].value) + "*b" + std::to_string(nzs[x].col) + q;
      }
      out += (out.empty() ? "" : " + ") + (parts > 1 ? "(" + frag + ")" : frag);
    }
    return out;
  }

  const Analysis& a_;
  const Strategy& s_;
  const SourceParams& sp_;
  bool single_;
};

void emit_cstream(Emitter& e, const Analysis& a) {
  auto& os = e.os;
  os << "  const int i = blockIdx.x*" << e.s_.blockx << " + threadIdx.x;\n"
     << "  if (i >= nv) return;\n"
     << "  const " << e.VT << "* bp = b + i;\n  " << e.VT << "* cp = c + i;\n";
  std::vector<char> loaded(a.k, 0);
  int nsplit = a.m < 36 ? 2 : 1;  // GiMMiK's ILP split of short dot products
  for (std::size_t j = 0; j < a.m; ++j) {
    if (a.afix[j] < 0) {
      e.zero_row("  ", j, false);
      continue;
    }
    // B values are named at first use; later rows reuse them (what GiMMiK leaves to CSE).
    for (const Nonzero& z : a.rows[j])
      if (!loaded[z.col]) {
        loaded[z.col] = 1;
        os << "  const " << e.VT << " b" << z.col << " = bp[" << e.boff(z.col) << "];\n";
      }
    std::string acc = "d" + std::to_string(j);
    os << "  " << e.VT << " " << acc << ";\n";
    for (auto& q : e.comps) os << "  " << acc << q << " = " << e.dot(a.rows[j], q, nsplit) << ";\n";
    e.store("  ", j, acc, false);
  }
}

void emit_mchunk(Emitter& e) {
  auto& os = e.os;
  std::size_t g = e.s_.parts.size();
  os << "  const int chunk = blockIdx.x % " << g << ";\n"
     << "  const int i = (blockIdx.x / " << g << ")*" << e.s_.blockx << " + threadIdx.x;\n"
     << "  if (i >= nv) return;\n"
     << "  const " << e.VT << "* bp = b + i;\n  " << e.VT << "* cp = c + i;\n"
     << "  switch (chunk) {\n";
  for (std::size_t x = 0; x < g; ++x) {
    os << "  case " << x << ": {\n";
    e.bstream_body("    ", e.s_.parts[x]);
    os << "    break;\n  }\n";
  }
  os << "  }\n";
}

void emit_msplit(Emitter& e, const Analysis& a) {
  auto& os = e.os;
  const auto& s = e.s_;
  std::size_t bsz = std::size_t(s.chunk), ng = std::size_t(s.ny);
  e.split_prologue();
  os << "  __shared__ " << e.VT << " bsub[2][" << bsz << "][" << s.blockx << "];\n";
  std::vector<std::vector<std::size_t>> chunks;
  for (std::size_t x = 0; x < a.bix.size(); x += bsz)
    chunks.emplace_back(a.bix.begin() + long(x),
                        a.bix.begin() + long(std::min(x + bsz, a.bix.size())));
  std::vector<int> group(a.m, -1);
  for (std::size_t g = 0; g < ng; ++g)
    for (std::size_t j : s.parts[g]) group[j] = int(g);
  auto load = [&](std::size_t g, std::size_t c) {
    for (std::size_t x = 0; x < chunks[c].size(); ++x)
      if (x % ng == g)
        os << "    bsub[" << c % 2 << "][" << x << "][threadIdx.x] = __ldcg(bp + "
           << e.boff(chunks[c][x]) << ");\n";
  };
  for (std::size_t g = 0; g < ng; ++g) {
    os << "  if (threadIdx.y == " << g << ") {\n    " << e.VT << " bv;\n";
    for (std::size_t j : s.parts[g])
      if (a.afix[j] < 0) e.zero_row("    ", j, true);
    for (std::size_t c = 0; c < chunks.size(); ++c) {
      if (c == 0) {
        load(g, 0);
        os << "    __syncthreads();\n";
      }
      if (c + 1 < chunks.size()) load(g, c + 1);  // prefetch the next stage during compute
      for (std::size_t x = 0; x < chunks[c].size(); ++x) {
        std::size_t kx = chunks[c][x];
        bool any = false;
        for (const Nonzero& z : a.cols[kx]) any = any || group[z.row] == int(g);
        if (!any) continue;
        os << "    bv = bsub[" << c % 2 << "][" << x << "][threadIdx.x];\n";
        for (const Nonzero& z : a.cols[kx]) {
          if (group[z.row] != int(g)) continue;
          std::string acc = "c" + std::to_string(z.row);
          e.update("    ", acc, long(kx) == a.afix[z.row], z.value, "bv");
          if (long(kx) == a.alix[z.row]) e.store("    ", z.row, acc, true);
        }
      }
      os << "    __syncthreads();\n";
    }
    os << "  }\n";
  }
}

void emit_ksplit(Emitter& e, const Analysis& a) {
  auto& os = e.os;
  const auto& s = e.s_;
  std::size_t csz = std::size_t(s.chunk), ng = std::size_t(s.ny);
  e.split_prologue();
  if (ng > 1)
    os << "  __shared__ " << e.VT << " csub[" << ng - 1 << "][" << csz << "][" << s.blockx
       << "];\n";
  std::vector<int> group(a.k, -1);
  for (std::size_t g = 0; g < ng; ++g)
    for (std::size_t kx : s.parts[g]) group[kx] = int(g);
  // Only rows with a non-zero take part in the exchange; zero rows are handled by their owner.
  std::vector<std::size_t> rows;
  for (std::size_t j = 0; j < a.m; ++j) rows.push_back(j);
  for (std::size_t g = 0; g < ng; ++g) {
    os << "  if (threadIdx.y == " << g << ") {\n";
    std::vector<char> loaded(a.k, 0);
    for (std::size_t c0 = 0; c0 < rows.size(); c0 += csz) {
      std::size_t c1 = std::min(c0 + csz, rows.size());
      for (std::size_t x = c0; x < c1; ++x) {
        std::size_t j = rows[x], idx = x - c0, owner = idx % ng;
        if (a.afix[j] < 0) continue;
        std::vector<Nonzero> mine;
        for (const Nonzero& z : a.rows[j])
          if (group[z.col] == int(g)) mine.push_back(z);
        for (const Nonzero& z : mine)
          if (!loaded[z.col]) {  // each group loads its B rows once, at first use
            loaded[z.col] = 1;
            os << "    const " << e.VT << " b" << z.col << " = __ldcg(bp + " << e.boff(z.col)
               << ");\n";
          }
        std::string dst = owner == g ? "cv" + std::to_string(j)
                                     : "csub[" + std::to_string(g - (g > owner)) + "][" +
                                           std::to_string(idx) + "][threadIdx.x]";
        if (owner == g) os << "    " << e.VT << " " << dst << ";\n";
        if (mine.empty()) {
          os << "    " << dst << " = " << e.zero << ";\n";
        } else {
          for (auto& q : e.comps) os << "    " << dst << q << " = " << e.dot(mine, q, 1) << ";\n";
        }
      }
      if (ng > 1) os << "    __syncthreads();\n";
      for (std::size_t x = c0; x < c1; ++x) {
        std::size_t j = rows[x], idx = x - c0;
        if (idx % ng != g) continue;
        if (a.afix[j] < 0) {
          e.zero_row("    ", j, true);
          continue;
        }
        std::string acc = "cv" + std::to_string(j);
        if (ng > 1) {
          for (auto& q : e.comps) {
            os << "    " << acc << q << " += ";
            for (std::size_t t = 0; t + 1 < ng; ++t)
              os << (t ? " + " : "") << "csub[" << t << "][" << idx << "][threadIdx.x]" << q;
            os << ";\n";
          }
        }
        e.store("    ", j, acc, true);
      }
      if (ng > 1) os << "    __syncthreads();\n";
    }
    os << "  }\n";
  }
}

}  // namespace

std::string matmul_source(const Analysis& a, const Strategy& s, const SourceParams& sp) {
  Emitter e(a, s, sp);
  e.header();
  switch (s.shape) {
    case Shape::cstream:
      emit_cstream(e, a);
      break;
    case Shape::bstream: {
      auto& os = e.os;
      os << "  const int i = blockIdx.x*" << s.blockx << " + threadIdx.x;\n"
         << "  if (i >= nv) return;\n"
         << "  const " << e.VT << "* bp = b + i;\n  " << e.VT << "* cp = c + i;\n";
      std::vector<std::size_t> rows(a.m);
      for (std::size_t j = 0; j < a.m; ++j) rows[j] = j;
      e.bstream_body("  ", rows);
      break;
    }
    case Shape::mchunk:
      emit_mchunk(e);
      break;
    case Shape::msplit:
      emit_msplit(e, a);
      break;
    case Shape::ksplit:
      emit_ksplit(e, a);
      break;
  }
  e.os << "}\n";
  return e.os.str();
}

std::string reference_source(Precision p) {
  std::string T = c_type(p);
  return "extern \"C\" __global__ void frmini_matmul_ref(int m, int k, int n,\n"
         "    const double* __restrict__ a, double alpha, double beta,\n"
         "    const " + T + "* __restrict__ b, long long ldb, " + T +
         "* __restrict__ c, long long ldc)\n"
         "{\n"
         "  const long long i = blockIdx.x*(long long)blockDim.x + threadIdx.x;\n"
         "  if (i >= n) return;\n"
         "  for (int j = 0; j < m; ++j) {\n"
         "    double s = 0.0;\n"
         "    for (int x = 0; x < k; ++x) s += a[(long long)j*k + x]*(double)b[i + x*ldb];\n"
         "    double r = alpha*s;\n"
         "    if (beta != 0.0) r += beta*(double)c[i + j*ldc];\n"
         "    c[i + j*ldc] = (" + T + ")r;\n"
         "  }\n"
         "}\n";
}

}  // namespace frmini::kernels::cuda
