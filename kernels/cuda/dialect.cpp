// The cuda backend's dialect: CUDA C++ for NVRTC, one thread a point, x over elements or
// points and y over NPTS (render.hpp).
#include "kernels/pointwise/render_parts.hpp"

namespace frmini::kernels::pointwise {

namespace {

class CudaDialect final : public Dialect {
 public:
  const char* name() const override { return "cuda"; }
  Words words() const override { return {"static __device__ inline", "__restrict__", "", "long long"}; }
  std::string prelude(Precision) const override { return ""; }
  std::string kernel(const Spec& s, const std::vector<Slot>& slots, const std::string& body,
                     bool blocks) const override {
    return parts::device_kernel(s, slots, body, blocks, *this,
                                {"extern \"C\" __global__ void",
                                 "(blockIdx.x*(long long)blockDim.x + threadIdx.x)",
                                 "(blockIdx.y*blockDim.y + threadIdx.y)", false});
  }
  std::string reduce_macros(Precision) const override {
    return "typedef unsigned long long ulong;\n"
           "#define RKERNEL extern \"C\" __global__ void __launch_bounds__(LOCAL)\n"
           "#define GMEM\n#define SMEM __shared__\n#define BARRIER __syncthreads()\n"
           "#define LID threadIdx.x\n#define GID blockIdx.x\n#define NGROUPS gridDim.x\n";
  }
};

}  // namespace

const Dialect& cuda_dialect() {
  static const CudaDialect d;
  return d;
}

}  // namespace frmini::kernels::pointwise
