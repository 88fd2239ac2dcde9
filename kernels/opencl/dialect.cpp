// The opencl backend's dialect: OpenCL C, one work-item a point over an (elements, NPTS) or
// 1-D range, buffers as (cl_mem, offset) pairs; on CPU devices, block vectors of SOA_S lanes
// where the spec allows them (render.hpp).
#include "kernels/pointwise/render_parts.hpp"

namespace frmini::kernels::pointwise {

namespace {

class OpenclDialect final : public Dialect {
 public:
  const char* name() const override { return "opencl"; }
  Words words() const override { return {"static inline", "restrict", "__global ", "long"}; }
  std::string prelude(Precision p) const override {
    return p == Precision::double_ ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
  }
  // OpenCL's vector types: 2, 4, 8 or 16 lanes.
  bool block_vectors(std::size_t soa) const override {
    return soa == 2 || soa == 4 || soa == 8 || soa == 16;
  }
  std::string kernel(const Spec& s, const std::vector<Slot>& slots, const std::string& body,
                     bool blocks) const override {
    return parts::device_kernel(s, slots, body, blocks, *this,
                                {"__kernel void", "get_global_id(0)", "get_global_id(1)", true});
  }
  std::string reduce_macros(Precision p) const override {
    return prelude(p) +
           "#define RKERNEL __kernel __attribute__((reqd_work_group_size(LOCAL, 1, 1))) void\n"
           "#define GMEM __global\n#define SMEM __local\n#define BARRIER barrier(CLK_LOCAL_MEM_FENCE)\n"
           "#define LID get_local_id(0)\n#define GID get_group_id(0)\n#define NGROUPS get_num_groups(0)\n";
  }
};

}  // namespace

const Dialect& opencl_dialect() {
  static const OpenclDialect d;
  return d;
}

}  // namespace frmini::kernels::pointwise
