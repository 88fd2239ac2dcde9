#include "kernels/opencl/matmul_source.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "base/literal.hpp"

namespace frmini::kernels::opencl {
namespace {

using matmul::Analysis;
using matmul::Nonzero;

// Text of one kernel under construction, with the spelling of loads and stores for the
// precision, width and beta fixed once.
class Writer {
 public:
  Writer(const Analysis& a, const SourceSpec& spec, int width)
      : a_(a), spec_(spec), width_(width) {
    scalar_ = c_type(spec.precision);
    vec_ = width == 1 ? scalar_ : scalar_ + std::to_string(width);
  }

  std::ostringstream out;
  const std::string& vtype() const { return vec_; }

  std::string lit(double v) const { return frmini::literal(v, spec_.precision == Precision::single); }
  std::string zero() const { return width_ == 1 ? lit(0.0) : "(" + vec_ + ")(" + lit(0.0) + ")"; }

  // B row kx at this work-item's column(s); b already points at the column.
  std::string load_b(std::size_t kx) const {
    std::string at = std::to_string(kx) + "*ldb";
    return width_ == 1 ? "b[" + at + "]" : "vload" + std::to_string(width_) + "(0, b + " + at + ")";
  }
  std::string read_c(std::size_t j) const {
    std::string at = std::to_string(j) + "*ldc";
    return width_ == 1 ? "c[" + at + "]" : "vload" + std::to_string(width_) + "(0, c + " + at + ")";
  }
  std::string write_c(std::size_t j, const std::string& value) const {
    std::string at = std::to_string(j) + "*ldc";
    return width_ == 1 ? "c[" + at + "] = " + value + ";"
                       : "vstore" + std::to_string(width_) + "(" + value + ", 0, c + " + at + ");";
  }

  // Stores `dot` (the full A-row product) into C row j, beta specialised.
  std::string store(std::size_t j, const std::string& dot) const {
    if (spec_.beta == 0.0) return write_c(j, dot);
    if (spec_.beta == 1.0) {
      if (width_ == 1) return "c[" + std::to_string(j) + "*ldc] += " + dot + ";";
      return write_c(j, read_c(j) + " + " + dot);
    }
    return write_c(j, dot + " + " + lit(spec_.beta) + "*" + read_c(j));
  }
  // The statement for an all-zero row of A (empty when beta == 1: C is left untouched).
  std::string zero_row(std::size_t j) const {
    if (spec_.beta == 0.0) return write_c(j, zero());
    if (spec_.beta == 1.0) return "";
    return write_c(j, lit(spec_.beta) + "*" + read_c(j));
  }

  // "a0*x + a1*y": the terms of a dot product, each value times the name of its B value.
  template <class Name>
  std::string dot(const std::vector<const Nonzero*>& nzs, Name name) const {
    std::string s;
    for (const Nonzero* nz : nzs) {
      double v = nz->value;
      if (s.empty())
        s = (v < 0 ? "-" : "") + lit(std::abs(v)) + "*" + name(*nz);
      else
        s += (v < 0 ? " - " : " + ") + lit(std::abs(v)) + "*" + name(*nz);
    }
    return s;
  }

  // "acc = a*bv;" for a first contribution, "acc += a*bv;" after.
  std::string accumulate(const std::string& acc, bool first, double v, const std::string& bv,
                         bool declare) const {
    std::string term = lit(v) + "*" + bv;
    if (first) return (declare ? vec_ + " " : std::string()) + acc + " = " + term + ";";
    return acc + " += " + term + ";";
  }

  // The kernel's opening: attribute, signature, column index, pointer set-up.
  void open(const std::string& name, const std::string& attr, bool early_exit) {
    const char* ix = spec_.wide_index ? "long" : "int";
    out << "__kernel " << attr << "\nvoid " << name << "(int n, __global const " << scalar_
        << "* restrict b, ulong boff, " << ix << " ldb, __global " << scalar_
        << "* restrict c, ulong coff, " << ix << " ldc) {\n";
    out << "  const int i = get_global_id(0);\n";
    if (early_exit) {
      out << "  if (i >= n) return;\n";
      out << "  b += boff + (ulong)i*" << width_ << ";\n  c += coff + (ulong)i*" << width_
          << ";\n";
    } else {
      // Split kernels have barriers, so every work-item runs to the end: columns past n read
      // a valid column (the last) and store nothing.
      out << "  const bool active = i < n;\n";
      out << "  b += boff + (ulong)(active ? i : n - 1)*" << width_ << ";\n";
      out << "  c += coff + (ulong)(active ? i : n - 1)*" << width_ << ";\n";
    }
  }

  const Analysis& a() const { return a_; }
  Precision precision() const { return spec_.precision; }

  // store() for a row index that is an expression ("j") rather than a number.
  std::string store_row(const std::string& j, const std::string& dot) const {
    std::string at = "c + " + j + "*ldc";
    std::string ref = width_ == 1 ? "c[" + j + "*ldc]" : "vload" + std::to_string(width_) + "(0, " + at + ")";
    auto write = [&](const std::string& v) {
      return width_ == 1 ? ref + " = " + v + ";"
                         : "vstore" + std::to_string(width_) + "(" + v + ", 0, " + at + ");";
    };
    if (spec_.beta == 0.0) return write(dot);
    if (spec_.beta == 1.0) return write(ref + " + " + dot);
    return write(dot + " + " + lit(spec_.beta) + "*" + ref);
  }

 private:
  const Analysis& a_;
  SourceSpec spec_;
  int width_;
  std::string scalar_, vec_;
};

std::string attr(const Strategy& s) {
  return "__attribute__((reqd_work_group_size(" + std::to_string(s.blockx) + ", " +
         std::to_string(s.split) + ", 1)))";
}

std::vector<const Nonzero*> ptrs(const std::vector<Nonzero>& v) {
  std::vector<const Nonzero*> out;
  for (const auto& nz : v) out.push_back(&nz);
  return out;
}

// cstream: rows in order; each B value is loaded into a named register at its first use, so
// later rows reuse it (the compiler may rematerialise loads under register pressure).
void cstream(Writer& w, const std::string& name, const std::string& attribute) {
  const Analysis& a = w.a();
  w.open(name, attribute, true);
  std::vector<bool> loaded(a.k, false);
  auto bname = [](const Nonzero& nz) { return "b" + std::to_string(nz.col); };
  for (std::size_t j = 0; j < a.m; ++j) {
    if (a.rows[j].empty()) {
      if (auto s = w.zero_row(j); !s.empty()) w.out << "  " << s << "\n";
      continue;
    }
    for (const auto& nz : a.rows[j])
      if (!loaded[nz.col]) {
        loaded[nz.col] = true;
        w.out << "  const " << w.vtype() << " b" << nz.col << " = " << w.load_b(nz.col) << ";\n";
      }
    w.out << "  " << w.store(j, w.dot(ptrs(a.rows[j]), bname)) << "\n";
  }
  w.out << "}\n";
}

// bstream: each used B row is loaded once and scattered into the accumulators of the rows it
// feeds; a row is stored as soon as its last column has been consumed.
void bstream(Writer& w, const std::string& attribute) {
  const Analysis& a = w.a();
  w.open("frmini_mm", attribute, true);
  for (std::size_t j = 0; j < a.m; ++j)
    if (a.rows[j].empty())
      if (auto s = w.zero_row(j); !s.empty()) w.out << "  " << s << "\n";
  w.out << "  " << w.vtype() << " bv;\n";
  for (std::size_t kx : a.bix) {
    w.out << "  bv = " << w.load_b(kx) << ";\n";
    for (const auto& nz : a.cols[kx]) {
      std::string acc = "c" + std::to_string(nz.row);
      w.out << "  " << w.accumulate(acc, long(kx) == a.afix[nz.row], nz.value, "bv", true) << "\n";
      if (long(kx) == a.alix[nz.row]) w.out << "  " << w.store(nz.row, acc) << "\n";
    }
  }
  w.out << "}\n";
}

// bstream-msplit: group g (local id y) owns C rows j with j % split == g, accumulating row j in
// register cv[j / split] (the same names serve every group, so a work-item holds only
// ceil(m/split) accumulators). B rows come in chunks through local memory, double-buffered:
// chunk q+1 is loaded (each group a share of its rows) while chunk q is consumed.
void msplit(Writer& w, const Strategy& s) {
  const Analysis& a = w.a();
  const std::size_t ms = std::size_t(s.split), bsz = std::size_t(s.chunk);
  const std::size_t nchunks = (a.bix.size() + bsz - 1) / bsz;
  const std::size_t nacc = (a.m + ms - 1) / ms;
  w.open("frmini_mm", attr(s), false);
  w.out << "  const int lx = get_local_id(0), cid = get_local_id(1);\n";
  w.out << "  __local " << w.vtype() << " bsub[2][" << bsz << "][" << s.blockx << "];\n";
  for (std::size_t r = 0; r < nacc; ++r) w.out << "  " << w.vtype() << " cv" << r << ";\n";

  // Per group: its zero rows first.
  auto per_group = [&](auto body) {
    for (std::size_t g = 0; g < ms; ++g) {
      std::ostringstream text;
      body(g, text);
      if (text.str().empty()) continue;
      w.out << "  if (cid == " << g << ") {\n" << text.str() << "  }\n";
    }
  };
  per_group([&](std::size_t g, std::ostringstream& t) {
    for (std::size_t j = g; j < a.m; j += ms)
      if (a.rows[j].empty())
        if (auto st = w.zero_row(j); !st.empty()) t << "    if (active) " << st << "\n";
  });
  auto load_chunk = [&](std::size_t q) {
    per_group([&](std::size_t g, std::ostringstream& t) {
      for (std::size_t r = g; r < bsz && q * bsz + r < a.bix.size(); r += ms)
        t << "    bsub[" << q % 2 << "][" << r << "][lx] = " << w.load_b(a.bix[q * bsz + r])
          << ";\n";
    });
  };
  if (nchunks > 0) {
    load_chunk(0);
    w.out << "  barrier(CLK_LOCAL_MEM_FENCE);\n";
  }
  for (std::size_t q = 0; q < nchunks; ++q) {
    if (q + 1 < nchunks) load_chunk(q + 1);
    per_group([&](std::size_t g, std::ostringstream& t) {
      for (std::size_t r = 0; r < bsz && q * bsz + r < a.bix.size(); ++r) {
        std::size_t kx = a.bix[q * bsz + r];
        std::string bv = "bsub[" + std::to_string(q % 2) + "][" + std::to_string(r) + "][lx]";
        for (const auto& nz : a.cols[kx]) {
          if (nz.row % ms != g) continue;
          std::string acc = "cv" + std::to_string(nz.row / ms);
          t << "    " << w.accumulate(acc, long(kx) == a.afix[nz.row], nz.value, bv, false)
            << "\n";
          if (long(kx) == a.alix[nz.row])
            t << "    if (active) " << w.store(nz.row, acc) << "\n";
        }
      }
    });
    // Protects buffer q%2 (read now) from the load of chunk q+2 in the next iteration, and
    // publishes chunk q+1.
    if (q + 1 < nchunks) w.out << "  barrier(CLK_LOCAL_MEM_FENCE);\n";
  }
  w.out << "}\n";
}

// cstream-ksplit: used B rows are dealt round-robin to the `split` groups; group g keeps its
// share in registers bv[p / split]. C rows go in chunks of `chunk`: each group forms its partial
// dot of every row it has non-zeros in; row j's owner (j % split) keeps its partial in a
// register, the others leave theirs in local memory; after a barrier the owner adds them up
// and stores. Which groups contribute to which row is known here, so nothing is written or
// read for an empty partial.
void ksplit(Writer& w, const Strategy& s) {
  const Analysis& a = w.a();
  const std::size_t ks = std::size_t(s.split), csz = std::size_t(s.chunk);
  const std::size_t nb = a.bix.size();
  w.open("frmini_mm", attr(s), false);
  w.out << "  const int lx = get_local_id(0), cid = get_local_id(1);\n";
  if (ks > 1)
    w.out << "  __local " << w.vtype() << " csub[" << ks - 1 << "][" << csz << "][" << s.blockx
          << "];\n";
  std::vector<std::size_t> owner_of_col(a.k, 0), slot_of_col(a.k, 0);
  for (std::size_t p = 0; p < nb; ++p) {
    owner_of_col[a.bix[p]] = p % ks;
    slot_of_col[a.bix[p]] = p / ks;
  }
  auto per_group = [&](auto body) {
    for (std::size_t g = 0; g < ks; ++g) {
      std::ostringstream text;
      body(g, text);
      if (text.str().empty()) continue;
      w.out << "  if (cid == " << g << ") {\n" << text.str() << "  }\n";
    }
  };
  for (std::size_t p = 0; p < (nb + ks - 1) / ks; ++p)
    w.out << "  " << w.vtype() << " bv" << p << ";\n";
  per_group([&](std::size_t g, std::ostringstream& t) {
    for (std::size_t p = g; p < nb; p += ks)
      t << "    bv" << p / ks << " = " << w.load_b(a.bix[p]) << ";\n";
  });
  auto bname = [&](const Nonzero& nz) { return "bv" + std::to_string(slot_of_col[nz.col]); };
  // The non-zeros of row j in group g's columns.
  auto terms = [&](std::size_t j, std::size_t g) {
    std::vector<const Nonzero*> out;
    for (const auto& nz : a.rows[j])
      if (owner_of_col[nz.col] == g) out.push_back(&nz);
    return out;
  };
  auto slot = [](std::size_t g, std::size_t owner) { return g < owner ? g : g - 1; };
  // The owner's partial of chunk row r lives in cp<r>, declared here so that it survives the
  // group blocks and the barrier.
  for (std::size_t r = 0; r < std::min(csz, a.m); ++r)
    w.out << "  " << w.vtype() << " cp" << r << ";\n";
  for (std::size_t c0 = 0; c0 < a.m; c0 += csz) {
    const std::size_t c1 = std::min(a.m, c0 + csz);
    per_group([&](std::size_t g, std::ostringstream& t) {
      for (std::size_t j = c0; j < c1; ++j) {
        auto nzs = terms(j, g);
        if (nzs.empty()) continue;
        std::size_t owner = j % ks, r = j - c0;
        if (owner == g)
          t << "    cp" << r << " = " << w.dot(nzs, bname) << ";\n";
        else
          t << "    csub[" << slot(g, owner) << "][" << r << "][lx] = " << w.dot(nzs, bname)
            << ";\n";
      }
    });
    if (ks > 1) w.out << "  barrier(CLK_LOCAL_MEM_FENCE);\n";
    per_group([&](std::size_t g, std::ostringstream& t) {
      for (std::size_t j = c0 + (g + ks - c0 % ks) % ks; j < c1; j += ks) {
        std::size_t r = j - c0;
        std::string sum;
        if (!terms(j, g).empty()) sum = "cp" + std::to_string(r);
        for (std::size_t o = 0; o < ks; ++o)
          if (o != g && !terms(j, o).empty())
            sum += (sum.empty() ? "" : " + ") + ("csub[" + std::to_string(slot(o, g)) + "][" +
                                                 std::to_string(r) + "][lx]");
        std::string st = sum.empty() ? w.zero_row(j) : w.store(j, "(" + sum + ")");
        if (!st.empty()) t << "    if (active) " << st << "\n";
      }
    });
    // The next chunk overwrites csub: everyone must have read this one.
    if (ks > 1 && c1 < a.m) w.out << "  barrier(CLK_LOCAL_MEM_FENCE);\n";
  }
  w.out << "}\n";
}

// rowloop (for dense operators): the same literals, but as a program-scope __constant table
// over the used columns, and a rolled loop over C rows around an unrolled dot product. The
// code is k terms long instead of nnz, which keeps driver compile times in seconds for the
// dense tet/tri operators (a fully unrolled 250x84 operator takes minutes to build on PoCL).
void rowloop(Writer& w, const Strategy& s) {
  const Analysis& a = w.a();
  const std::size_t ku = a.bix.size();
  std::vector<std::size_t> pos(a.k, 0);
  for (std::size_t p = 0; p < ku; ++p) pos[a.bix[p]] = p;
  if (ku > 0) {
    w.out << "__constant " << c_type(w.precision()) << " frmini_a[" << a.m << "][" << ku
          << "] = {\n";
    for (std::size_t j = 0; j < a.m; ++j) {
      std::vector<double> row(ku, 0.0);
      for (const auto& nz : a.rows[j]) row[pos[nz.col]] = nz.value;
      w.out << "  {";
      for (std::size_t p = 0; p < ku; ++p) w.out << (p ? ", " : "") << w.lit(row[p]);
      w.out << "},\n";
    }
    w.out << "};\n";
  }
  // A barrier in the row loop makes PoCL-like CPU drivers put their work-item loop inside the
  // row loop, where it vectorises across columns; on GPUs it costs a few cycles per row.
  w.open("frmini_mm", attr(s), false);
  if (ku == 0) {  // A is all zeros: only beta acts
    for (std::size_t j = 0; j < a.m; ++j)
      if (auto st = w.zero_row(j); !st.empty()) w.out << "  if (active) " << st << "\n";
    w.out << "}\n";
    return;
  }
  for (std::size_t p = 0; p < ku; ++p)
    w.out << "  const " << w.vtype() << " b" << p << " = " << w.load_b(a.bix[p]) << ";\n";
  const std::size_t rb = std::size_t(std::max(1, s.chunk));
  w.out << "  for (int j = 0; j < " << a.m / rb * rb << "; j += " << rb << ") {\n";
  for (std::size_t r = 0; r < rb; ++r) {
    w.out << "    const " << w.vtype() << " dot" << r << " = ";
    for (std::size_t p = 0; p < ku; ++p)
      w.out << (p ? " + " : "") << "frmini_a[j + " << r << "][" << p << "]*b" << p;
    w.out << ";\n";
  }
  for (std::size_t r = 0; r < rb; ++r)
    w.out << "    if (active) " << w.store_row("(j + " + std::to_string(r) + ")", "dot" + std::to_string(r)) << "\n";
  w.out << "    barrier(CLK_LOCAL_MEM_FENCE);\n  }\n";
  for (std::size_t j = a.m / rb * rb; j < a.m; ++j) {
    w.out << "  {\n    const " << w.vtype() << " dot = ";
    for (std::size_t p = 0; p < ku; ++p)
      w.out << (p ? " + " : "") << "frmini_a[" << j << "][" << p << "]*b" << p;
    w.out << ";\n    if (active) " << w.store_row(std::to_string(j), "dot") << "\n  }\n";
  }
  w.out << "}\n";
}

}  // namespace

std::string Strategy::name() const {
  std::string base;
  switch (shape) {
    case Shape::cstream: base = "cstream"; break;
    case Shape::bstream: base = "bstream"; break;
    case Shape::msplit: base = "bstream-msplit" + std::to_string(split) + "-b" + std::to_string(chunk); break;
    case Shape::ksplit: base = "cstream-ksplit" + std::to_string(split) + "-c" + std::to_string(chunk); break;
    case Shape::rowloop: base = "rowloop-r" + std::to_string(chunk); break;
  }
  if (width > 1) base += "-v" + std::to_string(width);
  return base + "-x" + std::to_string(blockx);
}

std::size_t local_bytes(const Analysis& a, const Strategy& s, Precision p) {
  (void)a;
  std::size_t elem = itemsize(p) * std::size_t(s.width) * std::size_t(s.blockx);
  if (s.shape == Shape::msplit) return 2 * std::size_t(s.chunk) * elem;
  if (s.shape == Shape::ksplit) return std::size_t(s.split - 1) * std::size_t(s.chunk) * elem;
  return 0;
}

std::string matmul_source(const Analysis& a, const Strategy& s, const SourceSpec& spec) {
  if (s.width != 1 && s.width != 2) throw std::invalid_argument("matmul_source: width 1 or 2");
  if ((s.shape == Shape::msplit || s.shape == Shape::ksplit) && (s.split < 1 || s.chunk < 1))
    throw std::invalid_argument("matmul_source: split kernels need split and chunk");
  std::ostringstream head;
  if (spec.precision == Precision::double_)
    head << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  head << "// frmini generated matmul: " << a.m << "x" << a.k << ", " << a.nnz
       << " non-zeros, strategy " << s.name() << "\n";
  Writer w(a, spec, s.width);
  w.out << head.str();
  switch (s.shape) {
    case Shape::cstream: cstream(w, "frmini_mm", attr(s)); break;
    case Shape::bstream: bstream(w, attr(s)); break;
    case Shape::msplit: msplit(w, s); break;
    case Shape::ksplit: ksplit(w, s); break;
    case Shape::rowloop: rowloop(w, s); break;
  }
  if (s.width > 1) {
    Writer tail(a, spec, 1);
    cstream(tail, "frmini_mm_tail", "");
    w.out << tail.out.str();
  }
  return w.out.str();
}

}  // namespace frmini::kernels::opencl
