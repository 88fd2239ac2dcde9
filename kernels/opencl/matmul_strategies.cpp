#include "kernels/opencl/matmul_strategies.hpp"

#include <algorithm>

namespace frmini::kernels::opencl {
namespace {

// Above this many non-zeros the unrolled source is so large (~40 bytes a term) that driver
// compile times run into minutes; CLBlast or the reference provider then serve the operator.
constexpr std::size_t max_nnz = 60000;

bool fits(const matmul::Analysis& a, const Strategy& s, const DeviceInfo& dev, Precision p) {
  return local_bytes(a, s, p) <= dev.local_mem_bytes && s.group_size() <= dev.max_work_group;
}

}  // namespace

std::vector<Strategy> all_strategies(const matmul::Analysis& a, const DeviceInfo& dev,
                                     Precision p) {
  const int x = dev.is_gpu ? 64 : 128;
  std::vector<Strategy> out = {
      {Shape::cstream, 1, x, 1, 0},
      {Shape::bstream, 1, x, 1, 0},
      {Shape::msplit, 1, x, 4, 16},
      {Shape::ksplit, 1, x, 2, 32},
      {Shape::cstream, 2, x, 1, 0},
      {Shape::bstream, 2, x, 1, 0},
  };
  std::erase_if(out, [&](const Strategy& s) { return !fits(a, s, dev, p); });
  return out;
}

std::vector<Strategy> generated_strategies(const matmul::Analysis& a, const DeviceInfo& dev,
                                           Precision p, std::string* why_not) {
  auto fail = [&](const std::string& why) {
    if (why_not) *why_not = why;
    return std::vector<Strategy>{};
  };
  if (p == Precision::double_ && !dev.fp64) return fail("the device has no double precision");
  if (a.nnz > max_nnz)
    return fail(std::to_string(a.nnz) + " non-zeros: the unrolled kernel source would be too " +
                "large to compile in reasonable time (limit " + std::to_string(max_nnz) + ")");
  return all_strategies(a, dev, p);
}

}  // namespace frmini::kernels::opencl
