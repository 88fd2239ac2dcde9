// The CUDA matmul generator's strategies and the register cost model that chooses among them.
//
// GiMMiK's four kernel shapes (cstream, bstream, msplit, ksplit) spill registers on the large
// operators (hex p6 M132/M460, tet p6 M3/M6/M132/M460 at sm_90 double): cstream keeps every used
// B value live, bstream every open C accumulator, msplit ceil(m/4) of them, ksplit ku/2 B values.
// frmini adds two register-aware shapes whose live set is bounded by construction:
//   * bstream-mchunk: the rows of A are cut into contiguous chunks whose simulated live
//     accumulator count fits a budget; each chunk is a separate CTA (chunk = blockIdx.x % G, so
//     the CTAs sharing a column range run together and B is re-read from L2, not DRAM);
//   * bstream-msplit with the same budget partition (instead of GiMMiK's fixed 4-way
//     interleave), B staged once per CTA through double-buffered shared memory;
//   * cstream-ksplit with as many k-splits as the live B values need.
// Strategy objects are pure data: matmul_source.cpp turns one into CUDA C++ text.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/matmul/analysis.hpp"
#include "kernels/precision.hpp"

namespace frmini::kernels::cuda {

enum class Shape { cstream, bstream, msplit, ksplit, mchunk };

struct Strategy {
  Shape shape = Shape::bstream;
  int width = 1;   // columns per thread (2: double2/float2 loads and stores)
  int blockx = 128;  // threads along n per CTA
  int ny = 1;        // CTA y-dimension: msplit/ksplit groups
  int chunk = 0;     // msplit: B rows per shared-memory stage (bsz); ksplit: C rows per stage
  // msplit/mchunk: the C rows of each group/chunk; ksplit: the used B rows of each group.
  std::vector<std::vector<std::size_t>> parts;
  int est_regs = 0;  // cost-model estimate of 32-bit registers per thread
  // Extra NVRTC options. The register-bounded shapes ask ptxas not to trade registers for
  // latency (--register-usage-level=0): at the default level it hoists B loads of dense
  // operators far ahead of their FMAs and spills (tet p6 M3: 1032 B at 254 registers for a
  // 42-accumulator chunk; 122 registers and no spill at level 0).
  std::vector<std::string> nvrtc_flags;
  std::string name;  // e.g. "bstream", "bstream-mchunk9", "cstream-ksplit16-w2"

  unsigned threads() const { return unsigned(blockx * ny); }
  // Number of CTAs for `n` columns.
  std::size_t grid(std::size_t n) const;
  std::size_t shared_bytes(Precision p) const;
};

struct PlanOptions {
  // Register budget per thread the register-aware shapes are sized for. 128 leaves a 2x margin
  // under sm_90's 255 ceiling for ptxas's load hoisting, and allows 4 CTAs of 128 per SM.
  int reg_budget = 128;
  bool width2 = true;  // offer double2/float2 variants (caller checks n, ld, offset parity)
  // Drop strategies predicted to need > 255 registers when another fits the budget.
  bool prune = true;
  // Candidate count by operator size (GiMMiK offers 4-7 and PyFR times <= 8): every candidate
  // costs an NVRTC compile that grows with nnz, so large operators get the best few only.
  // 0 = no limit. The list always keeps one strategy predicted within reg_budget.
  std::size_t max_candidates(std::size_t nnz) const {
    return nnz <= 1000 ? 0 : nnz <= 4000 ? 6 : 3;
  }
};

// Every strategy for `a`, best-first: predicted spill-free before predicted spilling, then by
// expected memory efficiency (B read once, C written once, wide accesses first).
std::vector<Strategy> plan(const matmul::Analysis& a, Precision p, const PlanOptions& o = {});

// The largest number of C accumulators simultaneously open when the used B rows are streamed
// in increasing order and only `rows` are computed (a row opens at its first non-zero column
// and closes, stored, at its last).
std::size_t max_live_accumulators(const matmul::Analysis& a, const std::vector<std::size_t>& rows);

// Cuts rows 0..m-1 into contiguous chunks whose max_live_accumulators stays <= `limit`.
std::vector<std::vector<std::size_t>> budget_partition(const matmul::Analysis& a,
                                                       std::size_t limit);

}  // namespace frmini::kernels::cuda
