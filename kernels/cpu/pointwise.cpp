#include "kernels/cpu/pointwise.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "kernels/cpu/compiler.hpp"
#include "kernels/pointwise/bind.hpp"
#include "kernels/pointwise/render.hpp"

namespace frmini::kernels::cpu {

namespace {

using namespace pointwise;

union CArg {
  void* p;
  int64_t i;
  double d;
};
using CFn = void (*)(int64_t, int64_t, const CArg*);

class CpuPointwise : public PointwiseKernel {
 public:
  CpuPointwise(CpuBackend& be, Spec spec, Precision p)
      : spec_(std::move(spec)), prec_(p), soa_(int64_t(be.soa_width(p))), slots_(slots(spec_)) {
    // No errno from sqrt and friends: a domain error shows as a NaN (the nancheck plugin's
    // business), and errno would keep the vectoriser from using the vector instructions.
    // Scheduling before register allocation, pressure-aware (GCC leaves it off on x86): a
    // kernel's body loads every argument up front (gradcoru_tflux: 30 vectors) and GCC kept
    // the addresses of its loads and stores live across the body, spilling them; so the
    // Navier-Stokes flux kernel ran ~500 instructions a vector of points, a third of them to
    // and from the stack. GCC's options only: clang ($FRMINI_CC) rejects them.
    std::vector<std::string> flags{"-fno-math-errno"};
    for (auto& f : accepted_flags({"-fschedule-insns", "-fsched-pressure"})) flags.push_back(f);
    module_ = be.compile_c(render(spec_, c_dialect(), p, std::size_t(soa_)), flags);
    fn_ = reinterpret_cast<CFn>(module_->symbol(spec_.name));
    if (auto it = spec_.defines.find("NPTS"); it != spec_.defines.end())
      points_per_element_ = std::max<int64_t>(1, std::stoll(it->second));
  }

  const Spec& spec() const override { return spec_; }

  void bind(const std::vector<ArgValue>& args) override {
    const std::size_t item = itemsize(prec_);
    auto vals = resolve_slots(spec_, slots_, args);
    cargs_.assign(slots_.size(), CArg{});
    windows_.clear();
    for (std::size_t k = 0; k < slots_.size(); ++k) {
      const SlotValue& v = vals[k];
      if (slots_[k].type == SlotType::fp_buffer && args.at(slots_[k].arg).window > 0) {
        const ArgValue& a = args[slots_[k].arg];
        windows_.push_back({k, a.window, a.width * int64_t(item), a.slot * int64_t(item)});
      }
      switch (slots_[k].type) {
        case SlotType::fp_buffer: cargs_[k].p = host_ptr(*v.buf, v.offset * item); break;
        case SlotType::idx_buffer: cargs_[k].p = host_ptr(*v.buf, v.offset * sizeof(int64_t)); break;
        case SlotType::int64: cargs_[k].i = v.i; break;
        case SlotType::fp_scalar: cargs_[k].d = v.d; break;
      }
    }
    // The chunk table goes after the slots (render.hpp); filled on first run, when the
    // range (the length of the index tables) is known.
    if (c_fast_chunks(spec_)) cargs_.push_back(CArg{});
    fast_.clear();
    bound_ = true;
  }

  void set_scalar(std::size_t arg, double value) override {
    cargs_[scalar_slot(spec_, slots_, arg)].d = value;
  }

  void run(int64_t begin, int64_t end) override {
    if (!bound_) throw std::logic_error(spec_.name + ": run before bind");
    if (end <= begin) return;
    if (c_fast_chunks(spec_) && int64_t(fast_.size() / c_chunk_record(spec_)) * soa_ < end) fill_fast(end);
    if (!windows_.empty()) {
      run_windowed(begin, end);
      return;
    }
    const CArg* a = cargs_.data();
    // Inside a chain's region, or too little work to wake a second thread for: on the calling
    // thread. Small cases (the 2D vortex: 6,400 points, a step in 0.3 ms) then open no OpenMP
    // region at all, and a machine whose other cores are busy cannot make every kernel wait
    // for a descheduled team member (150 ms a step instead of 0.5 ms).
    const int64_t npts = spec_.space == Space::points ? 1 : points_per_element_;
    if (omp_in_parallel() || (end - begin) * npts < kSerialWork) {
      fn_(begin, end, a);
      return;
    }
    // Interface lists mix cheap chunks (whole vectors) and dear ones (gathers) in long runs,
    // so equal halves would leave one thread waiting: points kernels are dealt out in
    // pieces of 4096 points as threads come free.
    if (spec_.space == Space::points) {
      const int64_t piece = 4096, npieces = (end - begin + piece - 1) / piece;
#pragma omp parallel for schedule(dynamic, 1)
      for (int64_t q = 0; q < npieces; ++q)
        fn_(begin + q * piece, std::min(end, begin + (q + 1) * piece), a);
      return;
    }
    // Element kernels split on SoA-block boundaries so no two threads share a block.
    const int64_t unit = soa_;
    const int64_t nunits = (end - begin + unit - 1) / unit;
#pragma omp parallel
    {
      const int64_t nt = omp_get_num_threads(), t = omp_get_thread_num();
      const int64_t u0 = nunits * t / nt, u1 = nunits * (t + 1) / nt;
      const int64_t b = begin + u0 * unit, e = std::min(end, begin + u1 * unit);
      if (b < e) fn_(b, e, a);
    }
  }

 private:
  // A kernel with scratch panels: inside a chain, one call on its block at the thread's slot;
  // alone (profiles), the range window by window, each at its thread's slot.
  void run_windowed(int64_t begin, int64_t end) {
    if (omp_in_parallel()) {
      call_at_slot(begin, end);
      return;
    }
    int64_t w = windows_[0].window;
    for (const auto& x : windows_) w = std::min(w, x.window);
    if (end - begin <= w) {  // on this thread, at its slot, as the chain's unblocked path
      call_at_slot(begin, end);
      return;
    }
    const int64_t nw = (end - begin + w - 1) / w;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < nw; ++i) call_at_slot(begin + i * w, std::min(end, begin + (i + 1) * w));
  }
  void call_at_slot(int64_t b, int64_t e) {
    thread_local std::vector<CArg> a;
    a = cargs_;
    const int64_t slot = omp_get_thread_num();
    for (const auto& x : windows_) {
      if (e - b > x.window) throw std::logic_error(spec_.name + ": a launch wider than its scratch window");
      // Through integers: the moved base lies outside the panel (the call's columns do not).
      const auto p = reinterpret_cast<std::uintptr_t>(a[x.slot].p);
      a[x.slot].p = reinterpret_cast<void*>(p - std::uintptr_t(b * x.bytes_per_element - slot * x.slot_bytes));
    }
    fn_(b, e, a.data());
  }

  // The chunk records (render.hpp) for the chunks of soa_ points in [0, end): the kind (1 all
  // views consecutive, 3 all in at most two consecutive pieces, 2 the near views consecutive,
  // 0 gathers) and each view's split point.
  void fill_fast(int64_t end) {
    const int64_t nchunks = (end + soa_ - 1) / soa_;
    const std::size_t rec = c_chunk_record(spec_);
    struct ViewSlots {
      const int64_t* ix = nullptr;
      const int64_t* rs = nullptr;
      bool far = false;
    };
    std::vector<ViewSlots> views;
    for (std::size_t k = 0; k < slots_.size(); ++k) {
      if (slots_[k].type != SlotType::idx_buffer) continue;
      const auto* p = static_cast<const int64_t*>(cargs_[k].p);
      const bool rs = slots_[k].name.size() > 3 &&
                      slots_[k].name.compare(slots_[k].name.size() - 3, 3, "_rs") == 0;
      if (rs) {
        views.back().rs = p;
      } else {
        views.push_back({p, nullptr, spec_.args[slots_[k].arg].far});
      }
    }
    bool any_far = false, any_near = false;
    for (const auto& v : views) (v.far ? any_far : any_near) = true;
    fast_.assign(std::size_t(nchunks) * rec, 0);
    for (int64_t c = 0; c < end / soa_; ++c) {  // the partial chunk at the end stays kind 0
      const int64_t j0 = c * soa_;
      unsigned char* r = &fast_[std::size_t(c) * rec];
      bool all_one = true, all_two = true, near_one = true;
      for (std::size_t v = 0; v < views.size(); ++v) {
        const int64_t* ix = views[v].ix + j0;
        int64_t k = 1;
        while (k < soa_ && ix[k] == ix[k - 1] + 1) ++k;
        bool two = true;
        for (int64_t l = k + 1; l < soa_; ++l) two = two && ix[l] == ix[l - 1] + 1;
        if (views[v].rs)
          for (int64_t l = 1; l < soa_; ++l)
            if (views[v].rs[j0 + l] != views[v].rs[j0]) two = false, k = 0;
        r[1 + v] = static_cast<unsigned char>(two ? k : 0);
        const bool one = two && k == soa_;
        all_one = all_one && one;
        all_two = all_two && two;
        if (!views[v].far) near_one = near_one && one;
      }
      r[0] = all_one ? 1 : all_two ? 3 : (any_far && any_near && near_one) ? 2 : 0;
    }
    cargs_.back().p = fast_.data();
  }

  // Point evaluations below which a kernel runs on the calling thread: tens of microseconds of
  // work, about what waking and joining a team costs on a loaded machine's best day.
  static constexpr int64_t kSerialWork = 32768;
  Spec spec_;
  Precision prec_;
  int64_t points_per_element_ = 1;
  std::vector<unsigned char> fast_;
  int64_t soa_;
  std::vector<Slot> slots_;
  std::shared_ptr<CpuModule> module_;
  CFn fn_ = nullptr;
  std::vector<CArg> cargs_;
  struct Window {
    std::size_t slot;
    int64_t window, bytes_per_element, slot_bytes;
  };
  std::vector<Window> windows_;
  bool bound_ = false;
};

}  // namespace

std::unique_ptr<PointwiseKernel> make_pointwise(CpuBackend& be, const Spec& spec, Precision p) {
  return std::make_unique<CpuPointwise>(be, spec, p);
}

std::unique_ptr<PointwiseKernel> CpuBackend::pointwise(const Spec& spec, Precision p) {
  return make_pointwise(*this, spec, p);
}

}  // namespace frmini::kernels::cpu
