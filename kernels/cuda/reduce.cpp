// Device reductions on CUDA: a fixed number of blocks, each over a contiguous chunk, a tree
// in shared memory, the partial results combined on the host in block order — deterministic
// for a given n.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/cuda/reduce.hpp"

#include "kernels/cuda/backend.hpp"
#include "kernels/reduce_partials.hpp"

namespace frmini::kernels::cuda {

namespace {

constexpr unsigned block_size = 256;
constexpr std::size_t max_blocks = 256;

}  // namespace

std::string reduce_source(Precision p) {
  std::string s = p == Precision::double_ ? "typedef double fp;\n" : "typedef float fp;\n";
  s += "#define BLOCK " + std::to_string(block_size) + "\n";
  s += R"CU(
// op 0: sum; op 1: largest |x|; a NaN, once seen, is kept (comparisons with NaN are false).
extern "C" __global__ void __launch_bounds__(BLOCK)
frmini_reduce(const fp* __restrict__ x, unsigned long long n, int op, fp* __restrict__ part) {
  __shared__ fp s[BLOCK];
  const unsigned long long l = threadIdx.x, g = blockIdx.x, ng = gridDim.x;
  const unsigned long long chunk = (n + ng - 1) / ng, b = g * chunk;
  const unsigned long long e = n < b + chunk ? n : b + chunk;
  fp acc = 0;
  for (unsigned long long i = b + l; i < e; i += BLOCK) {
    fp v = x[i];
    if (op == 0) acc += v;
    else { v = fabs(v); if (acc == acc && !(v <= acc)) acc = v; }
  }
  s[l] = acc;
  __syncthreads();
  for (unsigned w = BLOCK / 2; w > 0; w >>= 1) {
    if (l < w) {
      const fp a = s[l], c = s[l + w];
      s[l] = op == 0 ? a + c : ((a != a || c <= a) ? a : c);
    }
    __syncthreads();
  }
  if (l == 0) part[g] = s[0];
}
)CU";
  return s;
}

double CudaBackend::reduce(const Buffer& buf, std::size_t offset, std::size_t n, Precision p,
                           Reduction r) {
  if (n == 0) return 0.0;
  const std::size_t item = itemsize(p);
  const std::size_t blocks = std::min(max_blocks, (n + block_size - 1) / block_size);
  auto part = alloc(blocks * item);
  auto mod = std::static_pointer_cast<CudaModule>(compile(reduce_source(p)));  // cached
  CUfunction f = mod->function("frmini_reduce");
  CUdeviceptr x = ptr(buf) + offset * item, pp = ptr(*part);
  unsigned long long len = n;
  int op = r == Reduction::sum ? 0 : 1;
  void* args[] = {&x, &len, &op, &pp};
  launch(f, blocks, block_size, 1, args);
  return finish_reduction(*this, *part, blocks, p, r);
}

}  // namespace frmini::kernels::cuda
