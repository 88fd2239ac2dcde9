// Pointwise kernels on the opencl backend: the spec rendered as OpenCL C, built through the
// backend's cached compile(), arguments set once at bind() (buffers as cl_mem + offset, see
// kernels/pointwise/render.hpp), the range set per launch.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/opencl/backend.hpp"
#include "kernels/pointwise/bind.hpp"
#include "kernels/pointwise/render.hpp"

namespace frmini::kernels::opencl {

namespace {

using namespace pointwise;

// Work-items (SoA blocks or chunks) a work-group of block vectors: 2, 8 and 32 gave the
// same step on the cylinder at p = 3 (PoCL, 28 Nov).
constexpr std::size_t kBlocksPerGroup = 8;

class ClPointwise : public PointwiseKernel {
 public:
  ClPointwise(OpenCLBackend& be, Spec spec, Precision p)
      : be_(be), spec_(std::move(spec)), prec_(p), slots_(slots(spec_)) {
    // In single precision the compiler may reassociate and contract (PyFR builds its kernels
    // with -cl-fast-relaxed-math in both precisions): PoCL then vectorises the physics'
    // sums, and the cylinder's gradcoru_tflux ran 1.6x faster (p = 3, 27 Nov). Its rounding
    // changes are of the order of single precision's own; finite-math-only is left out so
    // NaN stays NaN for the blow-up check, and double keeps strict IEEE order.
    std::vector<std::string> flags;
    if (p == Precision::single) flags.push_back("-cl-unsafe-math-optimizations");
    // CPU devices get block vectors where the spec allows (render.hpp); GPUs one lane a
    // work-item, consecutive work-items on consecutive values.
    const bool cpu = !be.info().is_gpu;
    blocks_ = renders_block_vectors(spec_, opencl_dialect(), be.soa_width(p), cpu);
    soa_ = int64_t(be.soa_width(p));
    module_ = be.compile(render(spec_, opencl_dialect(), p, be.soa_width(p), cpu), flags);
    kernel_ = KernelHandle(module_, spec_.name.c_str());
    npts_ = spec_.space == Space::element_points ? std::stoi(spec_.defines.at("NPTS")) : 1;
  }
  const Spec& spec() const override { return spec_; }

  void bind(const std::vector<ArgValue>& args) override {
    require_whole_panels(spec_, args);
    auto vals = resolve_slots(spec_, slots_, args);
    cl_uint i = 2;  // after (begin, end)
    param_.assign(slots_.size(), 0);
    for (std::size_t k = 0; k < slots_.size(); ++k) {
      const SlotValue& v = vals[k];
      param_[k] = i;
      switch (slots_[k].type) {
        case SlotType::fp_buffer:
        case SlotType::idx_buffer:
          kernel_.arg(i++, mem_of(*v.buf));
          kernel_.arg(i++, cl_long(v.offset));
          break;
        case SlotType::int64: kernel_.arg(i++, cl_long(v.i)); break;
        case SlotType::fp_scalar: set_fp(i++, v.d); break;
      }
    }
    bound_ = true;
  }

  void set_scalar(std::size_t arg, double value) override {
    set_fp(param_[scalar_slot(spec_, slots_, arg)], value);
  }

  void run(int64_t begin, int64_t end) override {
    if (!bound_) throw std::logic_error(spec_.name + ": run before bind");
    if (end <= begin) return;
    kernel_.arg(0, cl_long(begin));
    kernel_.arg(1, cl_long(end));
    // Block vectors: a work-item per SoA block (its lanes one vector).
    const std::size_t lx = blocks_ ? kBlocksPerGroup : 64;
    const int64_t first = blocks_ ? begin - begin % soa_ : begin;  // elements: begin itself
    const std::size_t n = std::size_t(blocks_ ? (end - first + soa_ - 1) / soa_ : end - begin);
    const std::size_t gx = (n + lx - 1) / lx * lx;
    if (spec_.space == Space::element_points)
      be_.launch(kernel_, gx, lx, std::size_t(npts_), 1);
    else
      be_.launch(kernel_, gx, lx);
  }

 private:
  void set_fp(cl_uint i, double x) {
    if (prec_ == Precision::double_) kernel_.arg(i, x);
    else kernel_.arg(i, float(x));
  }
  OpenCLBackend& be_;
  Spec spec_;
  Precision prec_;
  std::vector<Slot> slots_;
  std::shared_ptr<Module> module_;
  KernelHandle kernel_;
  int npts_ = 1;
  bool blocks_ = false;
  int64_t soa_ = 1;
  std::vector<cl_uint> param_;  // first OpenCL parameter of each slot
  bool bound_ = false;
};

}  // namespace

std::unique_ptr<PointwiseKernel> OpenCLBackend::pointwise(const Spec& spec, Precision p) {
  return std::make_unique<ClPointwise>(*this, spec, p);
}

}  // namespace frmini::kernels::opencl
