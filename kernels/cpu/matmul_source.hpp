// The C code generator of the cpu 'generated' provider (GiMMiK's idea, for CPUs): the entries
// of A (alpha folded in) are embedded in the source as literals, zeros are skipped, only the
// rows of B that A uses are loaded, each C row is stored once after its last contribution,
// and beta is specialised (0: plain store, no C read; 1: +=, all-zero rows of A untouched;
// other: c = dot + beta*c). Leading dimensions are baked in (each B access is one load with a
// constant displacement, as libxsmm does); n is a run-time argument.
//
// Each strategy processes the panel in column blocks of W = vecs x SIMD width, OpenMP-parallel
// over blocks (static schedule), and finishes the last n mod W columns with a scalar loop over
// a literal CSR copy of A (no vector cleanup code to get wrong):
//   cstream    each C row is an unrolled dot product over its non-zeros (split into partial
//              sums for long rows, for instruction-level parallelism);
//   bstream    rows in groups of g (rows with the same columns first): each used B row of the
//              group is loaded once and feeds the group's g accumulators (held in registers);
//   packed     for dense operators: the same register tiling as bstream, but as a loop over a
//              literal array of the group's used columns, so code size (and compile time)
//              does not grow with nnz.
// 'la' (look-ahead) variants of cstream and bstream turn the loops inside out, as libxsmm's
// kernels are: each vector step runs every row of a chunk, and every use of a B line also
// prefetches (into L2) the same row's line one step ahead. A panel wider than the cache has
// one B stream per used row -- hundreds, more than the hardware prefetchers follow -- and the
// prefetches keep the next step's lines in flight while this step computes. A prefetch at
// every use, not just the first, is what works: measured on hex p5 M460 (648 x 216, n =
// 50,000, 2 threads), one prefetch per B row and step ran 1.6x slower than libxsmm, one per
// use matched it (a prefetch that finds the miss buffers full is dropped; its repeats are not).
// They also hold the distinct coefficient magnitudes in registers where they fit, so that a
// multiply-add loads only its B operand, and encode each prefetch's displacement in the
// instruction (matmul_source.cpp, PFB/PFC) so that no register holds an address.
// 'nt' variants store C with non-temporal (streaming) stores when beta = 0: C bypasses the
// caches and is not read for ownership, saving a third of the traffic of a large product.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels::cpu {

struct CStrategy {
  enum Kind { cstream, bstream, packed } kind = cstream;
  int vecs = 1;      // SIMD vectors per column block (W = vecs * simd width)
  int group = 1;     // rows per register group (bstream, packed)
  bool nt = false;   // non-temporal C stores (beta = 0 only; needs 64-byte aligned C rows)
  bool prefetch = false;  // software prefetch of the block two blocks ahead
  int width = 0;     // columns per block (run-time; for the name)
  bool row_sweep = false;  // chunks of rows sweep all columns in turn (run-time)
  bool lookahead = false;  // rows inside the vector loop, B prefetched a step ahead (compiled in)
  std::string name() const;
};

struct CodegenInput {
  const matmul::Analysis* an = nullptr;  // alpha folded in
  double beta = 0;
  Precision precision = Precision::double_;
  std::size_t simd_bytes = 0;  // the vector width the source is for: 64, 32 or 16 (required;
                               // it must match the -march it is compiled with)
  std::size_t ldb = 0, ldc = 0;
};

// The complete source of one shared object holding every strategy in `strategies`; strategy i
// is exported as
//   frmini_mm_<i>(long i0, long i1, const T* b, T* c, int nt, long pfd, int nvb, int rs)
// and computes columns [i0, i1) of C in blocks of nvb vectors (of vecs SIMD vectors each);
// nt != 0 selects streaming stores (beta = 0 only; C rows and i0 64-byte aligned); pfd > 0
// prefetches the B and C lines pfd columns ahead of each block; rs != 0 sweeps chunks of rows
// over all columns in turn (pfd ignored). CStrategy::nt, ::prefetch, ::width and ::row_sweep
// are ignored here: they are run-time choices (a lookahead strategy ignores pfd as well).
std::string generate_c(const CodegenInput& in, const std::vector<CStrategy>& strategies);

// The symbol name of strategy i.
std::string mm_symbol(std::size_t i);

}  // namespace frmini::kernels::cpu
