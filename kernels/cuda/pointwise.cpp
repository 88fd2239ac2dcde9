// Pointwise kernels on the cuda backend: the spec rendered as CUDA C++, compiled by NVRTC to
// a cubin for the device (through compile() and its disk cache), arguments kept as a
// parameter block set at bind(); element kernels run on a (elements/128, NPTS) grid of
// 128-thread blocks, point kernels on a 1-D grid.
#include <stdexcept>

#include "kernels/cuda/backend.hpp"
#include "kernels/cuda/driver.hpp"
#include "kernels/pointwise/bind.hpp"
#include "kernels/pointwise/render.hpp"

namespace frmini::kernels::cuda {

namespace {

using namespace pointwise;

class CudaPointwise : public PointwiseKernel {
 public:
  CudaPointwise(CudaBackend& be, Spec spec, Precision p)
      : be_(be), spec_(std::move(spec)), prec_(p), slots_(slots(spec_)) {
    module_ = std::static_pointer_cast<CudaModule>(
        be.compile(render(spec_, cuda_dialect(), p, be.soa_width(p))));
    fn_ = module_->function(spec_.name);
    npts_ = spec_.space == Space::element_points ? std::stoi(spec_.defines.at("NPTS")) : 1;
    // Every parameter is 8 bytes (pointer, long long, double) except float scalars.
    values_.resize(slots_.size() + 2);
  }
  const Spec& spec() const override { return spec_; }

  void bind(const std::vector<ArgValue>& args) override {
    require_whole_panels(spec_, args);
    const std::size_t item = itemsize(prec_);
    auto vals = resolve_slots(spec_, slots_, args);
    for (std::size_t k = 0; k < slots_.size(); ++k) {
      const SlotValue& v = vals[k];
      Value& x = values_[k + 2];
      switch (slots_[k].type) {
        case SlotType::fp_buffer: x.p = CudaBackend::ptr(*v.buf) + v.offset * item; break;
        case SlotType::idx_buffer: x.p = CudaBackend::ptr(*v.buf) + v.offset * 8; break;
        case SlotType::int64: x.i = v.i; break;
        case SlotType::fp_scalar: set_fp(x, v.d); break;
      }
    }
    bound_ = true;
  }

  void set_scalar(std::size_t arg, double value) override {
    set_fp(values_[scalar_slot(spec_, slots_, arg) + 2], value);
  }

  void run(int64_t begin, int64_t end) override {
    if (!bound_) throw std::logic_error(spec_.name + ": run before bind");
    if (end <= begin) return;
    values_[0].i = begin;
    values_[1].i = end;
    std::vector<CudaBackend::Param> params;
    for (std::size_t k = 0; k < values_.size(); ++k) {
      const bool fscalar = k >= 2 && slots_[k - 2].type == SlotType::fp_scalar;
      params.push_back({&values_[k], fscalar && prec_ == Precision::single ? sizeof(float) : 8});
    }
    const unsigned bx = 128;
    const std::size_t gx = std::size_t((end - begin + bx - 1) / bx);
    be_.launch(fn_, gx, bx, 1, params, unsigned(npts_));
  }

 private:
  union Value {
    CUdeviceptr p;
    long long i;
    double d;
    float f;
  };
  void set_fp(Value& x, double v) {
    if (prec_ == Precision::double_) x.d = v;
    else x.f = float(v);
  }
  CudaBackend& be_;
  Spec spec_;
  Precision prec_;
  std::vector<Slot> slots_;
  std::shared_ptr<CudaModule> module_;
  CUfunction fn_ = nullptr;
  int npts_ = 1;
  std::vector<Value> values_;
  bool bound_ = false;
};

}  // namespace

std::unique_ptr<PointwiseKernel> CudaBackend::pointwise(const Spec& spec, Precision p) {
  return std::make_unique<CudaPointwise>(*this, spec, p);
}

}  // namespace frmini::kernels::cuda
