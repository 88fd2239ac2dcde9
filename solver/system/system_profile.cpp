// The run report's kernel table: every kernel the RHS ran, timed alone over the range it ran
// it over, with the bytes it must move.
#include <algorithm>
#include <chrono>

#include "kernels/matmul/analysis.hpp"
#include "solver/system/system_impl.hpp"

namespace frmini::solver {

namespace {
// The bytes a pointwise launch over [b, e) must move: every value loaded or stored once, plus
// the index tables of views.
double pointwise_bytes(const kernels::pointwise::Spec& s, int64_t b, int64_t e, std::size_t item) {
  using namespace kernels::pointwise;
  const double npts = s.space == Space::element_points ? std::stod(s.defines.at("NPTS")) : 1.0;
  const double n = double(e - b) * npts;
  double bytes = 0;
  for (const auto& a : s.args) {
    if (a.kind == ArgKind::scalar || a.kind == ArgKind::index) continue;
    double count = 1;
    for (int x : a.shape) count *= x;
    const int passes = (a.intent != Intent::out) + (a.intent != Intent::in);
    bytes += passes * count * double(item) * n;
    if (a.kind == ArgKind::view) bytes += (a.shape.size() == 2 ? 16.0 : 8.0) * n;
  }
  return bytes;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}
}  // namespace

std::vector<System::KernelProfile> System::profile(int nrep) {
  Impl& I = *impl_;
  std::vector<KernelProfile> out;
  for (auto& [key, k] : I.mm) {
    kernels::matmul::Kernel* kp = k.get();
    // "0:M460:r0" -> "hex-p3-M460 (r0)"
    std::string op = key.substr(key.find(':') + 1);
    std::string tag = op.substr(op.find(':') + 1);
    op = op.substr(0, op.find(':'));
    std::string name = layout_[std::stoul(key)].etype + "-p" + std::to_string(cfg_.order) + "-" +
                       op + (tag.empty() ? "" : " (" + tag + ")");
    auto only = I.mm_ranges.find(key);
    if (only == I.mm_ranges.end()) {
      out.push_back({name, median(be_.time_runs([kp] { kp->run(); }, 1, nrep)), I.mm_bytes[key]});
      continue;
    }
    // On its element ranges only, in pieces of at most a cache block (a scratch panel's
    // window), its bytes in proportion.
    const auto* ranges = only->second;
    const int nv = nvars();
    const int64_t block = I.block[std::stoul(key)];
    int64_t n = 0;
    for (const auto& [b, e] : *ranges) n += e - b;
    auto run = [kp, ranges, nv, block] {
      for (const auto& [b, e] : *ranges)
        for (int64_t s = b; s < e; s += block)
          kp->run_columns(std::size_t(s * nv), std::size_t(std::min(e, s + block) * nv));
    };
    out.push_back({name, median(be_.time_runs(run, 1, nrep)),
                   I.mm_bytes[key] * double(n) / double(layout_[std::stoul(key)].neles_pad)});
  }
  for (auto& [key, k] : I.pw) {
    Recorded* kp = k.get();
    if (kp->end <= kp->begin) continue;
    // Register kernels: "reg:..." over whole registers, "reg<group>:..." inside the RHS
    // (System::rhs), where their registers are fields.
    std::size_t nregs = 0;
    for (const auto& a : kp->spec().args) nregs += a.kind != kernels::pointwise::ArgKind::scalar;
    std::string name = key;
    if (key.rfind("reg:", 0) == 0)
      name = "registers: " + kp->spec().name + " (" + std::to_string(nregs) + " registers)";
    else if (key.rfind("reg", 0) == 0) {
      const std::string g = key.substr(3, key.find(':') - 3);
      name = "in RHS: " + kp->spec().name + " (" + std::to_string(nregs) + " registers)" +
             (g == "0" ? "" : " g" + g);
    }
    out.push_back({name, median(be_.time_runs([kp] { kp->run(kp->begin, kp->end); }, 1, nrep)),
                   pointwise_bytes(kp->spec(), kp->begin, kp->end, I.item)});
  }
  return out;
}

}  // namespace frmini::solver
