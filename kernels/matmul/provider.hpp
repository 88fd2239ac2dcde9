// The matmul provider interface:
//     C = alpha * A * B + beta * C
// A is a constant m x k operator held on the host in double precision (row-major); B (k x n)
// and C (m x n) are row-major panels on the device with leading dimensions ldb, ldc (in
// elements, >= n). Every operator product of the solver goes through this interface.
//
// A provider turns a Problem into candidate kernels, each bound to the problem's operands; it
// may decline (return no candidates) — too dense, too large, unsupported beta. The 'auto'
// provider (auto_tune.hpp) times every willing candidate of every provider on the real
// operands and keeps the fastest.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kernels/backend.hpp"

namespace frmini::kernels::matmul {

// A dense host matrix, row-major, double precision.
struct HostMatrix {
  std::size_t rows = 0, cols = 0;
  std::vector<double> data;
  double operator()(std::size_t i, std::size_t j) const { return data[i * cols + j]; }
  double& operator()(std::size_t i, std::size_t j) { return data[i * cols + j]; }
};

// A panel on the device: element (r, c) is at buf[offset + r*ld + c] (offset in elements).
// window > 0: a per-thread scratch panel of a cache-blocked chain (cpu). Each thread has its
// own panel of `window` columns, `slot` elements after the previous thread's: a call on
// columns [c0, c1), c1 - c0 <= window, finds column c0 at column 0 of the calling OpenMP
// thread's panel. An intermediate that lives only inside a chain (the gradient and flux at
// the solution points) then reuses the same cache-resident lines block after block instead
// of being written back to memory. Providers that cannot address such a panel decline.
struct Panel {
  Buffer* buf = nullptr;
  std::size_t offset = 0;
  std::size_t ld = 0;
  std::size_t window = 0, slot = 0;
};

struct Problem {
  HostMatrix a;          // m x k, double; providers convert to the data precision themselves
  double alpha = 1.0;
  double beta = 0.0;
  Precision precision = Precision::double_;
  std::size_t n = 0;     // columns of B and C
  Panel b, c;
  std::string name;      // for logs and caches, e.g. "hex-p3-M0"
  // Columns per call when the product runs inside a cache-blocked chain (Backend::run_chain):
  // many threads call run_columns at once on blocks whose B is already in cache. 0 = the
  // product runs alone over the whole panel. Providers tune (or decline) accordingly.
  std::size_t block = 0;
  // In a chain: C is not read again inside it (the interfaces or a later chain read it), so
  // writing it past the cache saves reading each line before it is written.
  bool c_leaves_chain = false;

  std::size_t m() const { return a.rows; }
  std::size_t k() const { return a.cols; }
};

// A kernel bound to its problem's operands.
class Kernel {
 public:
  virtual ~Kernel() = default;
  // Enqueues one product over all n columns.
  virtual void run() = 0;
  // Enqueues the product over columns [col_begin, col_end). Both are multiples of the
  // backend's soa_width (or col_end == n); at most a window wide if a panel has one (that
  // is, one block of a chain). Used by the cpu backend's cache-blocked chains;
  // GPU backends may implement it by launching over the sub-range.
  virtual void run_columns(std::size_t col_begin, std::size_t col_end) = 0;
  // The same on part of a chain's block that starts at column `origin` <= col_begin (a
  // product that only some of a block's elements need): a scratch panel's window holds the
  // block from `origin` on, so col_begin is found at window column col_begin - origin. A
  // provider whose panels have no windows (every one but the cpu backend's) ignores origin.
  virtual void run_columns_from(std::size_t origin, std::size_t col_begin, std::size_t col_end) {
    (void)origin;
    run_columns(col_begin, col_end);
  }

  virtual std::string provider() const = 0;  // "generated", "blas", "xsmm", "reference"
  virtual std::string strategy() const = 0;  // e.g. "cstream", "bstream-msplit4", "dgemm"
};

class Provider {
 public:
  virtual ~Provider() = default;
  virtual std::string name() const = 0;
  // Candidate kernels for `p`, best-first by the provider's own heuristic; empty = declines.
  // `why_not` (if non-null) receives the reason for declining.
  virtual std::vector<std::unique_ptr<Kernel>> candidates(const Problem& p,
                                                          std::string* why_not = nullptr) = 0;
  // Whether its kernels spread one product over threads of their own (a vendor BLAS): then a
  // caller that splits the columns among its own threads must give them whole panels instead.
  virtual bool threads_its_own() const { return false; }
};

// Builds the kernel for `p` with the provider called `provider` ("generated", "blas", "xsmm",
// "reference" or "auto") among backend.matmul_providers(). For a named provider the first
// candidate is timed against the others only when the provider yields several (the generated
// provider's strategies); "auto" times all providers. Throws UserError if the named provider
// does not exist on this backend or declines the problem (with its reason).
std::unique_ptr<Kernel> make_kernel(Backend& backend, const std::string& provider,
                                    const Problem& p);

// Whether the provider called `provider` on this backend threads its own products
// (Provider::threads_its_own); false for "auto" and for names the backend does not have.
bool threads_its_own(Backend& backend, const std::string& provider);

}  // namespace frmini::kernels::matmul
