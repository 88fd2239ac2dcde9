// The System's private state, shared by its source files (system.cpp: set-up; rhs.cpp: the RHS;
// registers.cpp: register arithmetic, uploads and downloads; system_profile.cpp: the kernel
// table of the run report). Not for use outside solver/system.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/matmul/provider.hpp"
#include "solver/system/grad_rows.hpp"
#include "solver/system/step_floor.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

using kernels::Buffer;
using kernels::pointwise::ArgValue;
using kernels::pointwise::PointwiseKernel;

namespace detail {

struct IfaceData {
  std::size_t n = 0;
  std::size_t nrm = 0, magn = 0, ploc = 0;           // arena offsets (arrays, ld = n)
  std::size_t ixl = 0, ixr = 0, rsl = 0, rsr = 0;    // idx offsets: scal_fpts views
  std::size_t gxl = 0, gxr = 0;                      // vect_fpts views (row stride rsl/rsr)
  std::size_t cxl = 0, cxr = 0;                      // comm_fpts views
  std::string name;                                  // boundaries
  BcSpec bc;
};

// Remembers the whole range the RHS runs it over (noted before a launch or a chain), so the
// report can time a kernel as the RHS ran it; run() itself records nothing, as the threads
// of a cache-blocked chain call it at once.
class Recorded : public PointwiseKernel {
 public:
  explicit Recorded(std::unique_ptr<PointwiseKernel> k) : k_(std::move(k)) {}
  const kernels::pointwise::Spec& spec() const override { return k_->spec(); }
  void bind(const std::vector<ArgValue>& a) override { k_->bind(a); }
  void set_scalar(std::size_t arg, double v) override { k_->set_scalar(arg, v); }
  void run(int64_t b, int64_t e) override { k_->run(b, e); }
  void note(int64_t b, int64_t e) { begin = b, end = e; }
  void launch(int64_t b, int64_t e) {
    note(b, e);
    run(b, e);
  }
  int64_t begin = 0, end = 0;

 private:
  std::unique_ptr<PointwiseKernel> k_;
};

// The key of a register kernel among the System's pointwise kernels (after "reg" and, for
// one run inside the RHS, the group): ":name:body", then ":rN" for each register it is bound
// to where the binding is kept with the kernel.
inline std::string register_key(const System::RegisterKernel& k, bool with_regs) {
  std::string key = ":" + k.spec.name + ":" + k.spec.body;
  if (with_regs)
    for (int r : k.regs) key += ":r" + std::to_string(r);
  return key;
}

// A register kernel as an element kernel of one group with `nupts` points, for the RHS's last
// chain (System::rhs): registers.cpp.
kernels::pointwise::Spec register_kernel_on_elements(const kernels::pointwise::Spec& spec, int nupts);
// A register kernel's arguments: its arrays bound in order to `reg_panel` of its registers,
// its scalars to their values (throws for any other kind of argument).
std::vector<ArgValue> register_args(const System::RegisterKernel& rk,
                                    const std::function<ArgValue(int reg)>& reg_panel);

}  // namespace detail

using detail::IfaceData;
using detail::Recorded;

struct System::Impl {
  std::unique_ptr<Buffer> arena, idx;
  std::size_t item = 8, soa = 8;
  std::size_t reg_begin = 0, reg_len = 0;  // register r spans [reg_off(r), +reg_len)
  std::vector<std::size_t> reg_off;
  IfaceData internal;
  std::vector<IfaceData> bnds;
  std::map<std::string, std::unique_ptr<kernels::matmul::Kernel>> mm;
  std::map<std::string, double> mm_bytes;  // minimum bytes of each product
  // Products run on some elements only (GradRows::extra): their element ranges.
  std::map<std::string, const std::vector<std::pair<int64_t, int64_t>>*> mm_ranges;
  std::map<std::string, std::unique_ptr<Recorded>> pw;
  // Per group: the flux-point rows whose gradients some kernel reads, and the elements that
  // need more rows than most (grad_rows.hpp).
  std::vector<GradRows> grad_rows;
  // Per group: whether every element's metric terms are the same at all its solution points
  // (parallelepipeds: the Taylor-Green box), so the kernels read one point row of them.
  std::vector<bool> affine;
  std::map<std::string, std::string> choices;
  // The register whose solution at the flux points the last rhs left in scal_fpts (its
  // `prepare`), or -1.
  int fpts_of = -1;
  std::vector<int64_t> block;  // per group: elements per cache block of its chains (0 = none)
  // Per group, over several ranks: the leading elements that have a face on another part
  // (meshes::MeshPart::nhalo), rounded up to the SoA width; their chains run before the
  // exchange is posted, the other elements' after (0 on one rank: everything after).
  std::vector<int64_t> nhalo;
  // The floor so far (System::floor_so_far), and one RHS's bytes beyond its registers.
  StepFloor floor, floor_rhs;
  double floor_reg_bytes = 0;  // one register's values of real elements, in bytes
  double floor_between[2] = {0, 0};  // one RHS's `between` bytes, not prepared and prepared
  bool floor_ready = false;
};

}  // namespace frmini::solver
