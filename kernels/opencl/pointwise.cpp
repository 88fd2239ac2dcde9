// Pointwise kernels on the opencl backend: the spec rendered as OpenCL C, built through the
// backend's cached compile(), arguments set once at bind() (buffers as cl_mem + offset, see
// kernels/pointwise/render.hpp), the range set per launch.
#include <algorithm>
#include <stdexcept>

#include "kernels/opencl/opencl_backend.hpp"
#include "kernels/pointwise/render.hpp"

namespace frmini::kernels::opencl {

namespace {

using namespace pointwise;

class ClPointwise : public PointwiseKernel {
 public:
  ClPointwise(OpenCLBackend& be, Spec spec, Precision p)
      : be_(be), spec_(std::move(spec)), prec_(p), slots_(slots(spec_)) {
    module_ = be.compile(render(spec_, Dialect::opencl, p, be.soa_width(p)));
    kernel_ = KernelHandle(module_, spec_.name.c_str());
    npts_ = spec_.space == Space::element_points ? std::stoi(spec_.defines.at("NPTS")) : 1;
  }
  const Spec& spec() const override { return spec_; }

  void bind(const std::vector<ArgValue>& args) override {
    if (args.size() != spec_.args.size())
      throw std::logic_error(spec_.name + ": wrong number of arguments");
    std::vector<int> next(args.size(), 0);
    cl_uint i = 2;  // after (begin, end)
    for (const Slot& s : slots_) {
      const ArgValue& v = args[s.arg];
      int nth = next[s.arg]++;
      switch (s.type) {
        case SlotType::fp_buffer:
          kernel_.arg(i++, mem_of(*v.buf));
          kernel_.arg(i++, cl_long(v.offset));
          break;
        case SlotType::idx_buffer:
          kernel_.arg(i++, mem_of(nth == 1 ? *v.ix : *v.rs));
          kernel_.arg(i++, cl_long(nth == 1 ? v.ix_offset : v.rs_offset));
          break;
        case SlotType::int64:
          kernel_.arg(i++, cl_long(spec_.args[s.arg].kind == ArgKind::index ? v.index : v.ld));
          break;
        case SlotType::fp_scalar:
          scalar_index_[s.arg] = i;
          set_fp(i++, v.scalar);
          break;
      }
    }
    bound_ = true;
  }

  void set_scalar(std::size_t arg, double value) override {
    auto it = scalar_index_.find(arg);
    if (it == scalar_index_.end()) throw std::logic_error(spec_.name + ": no such scalar");
    set_fp(it->second, value);
  }

  void run(int64_t begin, int64_t end) override {
    if (!bound_) throw std::logic_error(spec_.name + ": run before bind");
    if (end <= begin) return;
    kernel_.arg(0, cl_long(begin));
    kernel_.arg(1, cl_long(end));
    const std::size_t lx = 64, n = std::size_t(end - begin);
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
  std::map<std::size_t, cl_uint> scalar_index_;
  bool bound_ = false;
};

}  // namespace

std::unique_ptr<PointwiseKernel> OpenCLBackend::pointwise(const Spec& spec, Precision p) {
  return std::make_unique<ClPointwise>(*this, spec, p);
}

}  // namespace frmini::kernels::opencl
