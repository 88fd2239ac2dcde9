// OpenCL C source of the generated matmul kernels (GiMMiK's idea): the operator's non-zeros,
// alpha folded in, are literals in the code; zeros are skipped; only the rows of B that feed a
// non-zero are loaded; each C row is stored right after its last contribution; beta is
// specialised (0: plain store, 1: accumulate, other: scale). n, ldb and ldc are run-time
// arguments, so one program serves every panel width.
//
// Four shapes (GiMMiK's), each one work-item per column along n
// (two with width 2):
//   cstream        one unrolled dot product per C row, B values loaded at first use
//   bstream        B rows streamed once, m register accumulators, rows stored when complete
//   bstream-msplit C rows split over `split` work-item groups along y; B rows staged through
//                  double-buffered local memory in chunks of `chunk` rows
//   cstream-ksplit used B rows split over `split` groups along y; each group loads its share
//                  into registers; partial dots reduced through local memory, `chunk` C rows
//                  at a time
//   rowloop        for dense operators: A as a __constant table of literals over the used
//                  columns, a rolled loop over C rows (code k terms long, not nnz)
//
// Every source defines `frmini_mm` with the signature
//   (int n, __global const T* b, ulong boff, IX ldb, __global T* c, ulong coff, IX ldc)
// where IX is int, or long when an index could pass 2^31, and n counts work-items' columns
// in units of the width (pairs for width 2). Width-2 sources also define `frmini_mm_tail`, a
// width-1 cstream kernel for the last column of an odd n, so the vector kernel carries no
// cleanup code.
#pragma once

#include <cstddef>
#include <string>

#include "kernels/matmul/analysis.hpp"
#include "kernels/precision.hpp"

namespace frmini::kernels::opencl {

enum class Shape { cstream, bstream, msplit, ksplit, rowloop };

struct Strategy {
  Shape shape = Shape::cstream;
  int width = 1;    // columns per work-item: 1, or 2 (double2/float2 loads and stores)
  int blockx = 64;  // work-items along n per work-group
  int split = 1;    // work-item groups along y (msplit, ksplit)
  int chunk = 0;    // B rows (msplit) or C rows (ksplit) per local-memory chunk

  // "cstream-x64", "bstream-v2-x128", "bstream-msplit4-b16-x64", "cstream-ksplit2-c32-x64".
  std::string name() const;
  // Work-items per work-group.
  std::size_t group_size() const { return std::size_t(blockx) * std::size_t(split); }
};

struct SourceSpec {
  Precision precision = Precision::double_;
  double beta = 0.0;
  bool wide_index = false;  // 64-bit ldb/ldc arithmetic
};

// Local memory the strategy needs, in bytes.
std::size_t local_bytes(const matmul::Analysis& a, const Strategy& s, Precision p);

// The complete OpenCL C program (A's values with alpha already folded in by analyse()).
std::string matmul_source(const matmul::Analysis& a, const Strategy& s, const SourceSpec& spec);

// The naive kernel of the reference provider, `frmini_ref`: one work-item per C element,
// A read from a buffer, accumulation in double when the device has it. Signature:
//   (int m, int n, int k, __global const T* a (m x k, dense), T alpha, T beta,
//    __global const T* b, ulong boff, long ldb, __global T* c, ulong coff, long ldc)
std::string reference_source(Precision p, bool fp64);

}  // namespace frmini::kernels::opencl
