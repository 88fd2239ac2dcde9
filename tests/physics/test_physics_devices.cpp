// Every physics kernel also compiles for the GPU dialects: CUDA through NVRTC to sm_90 (no GPU
// needed) and OpenCL on the available OpenCL device (PoCL here). Compile-only: the numerics
// are tested through the C rendering and by comparing backends.
#include "kernels/backend.hpp"
#include "kernels/cuda/compiler.hpp"
#include "kernels/pointwise/render.hpp"
#include "solver/physics/physics.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/backends.hpp"

using namespace frmini;
using namespace frmini::kernels::pointwise;

namespace {

std::vector<Spec> all_specs() {
  std::vector<Spec> out;
  const std::map<std::string, std::string> values = {
      {"rho", "1.0"}, {"u", "0.2*sin(y)"}, {"v", "0.0"}, {"w", "0.0"}, {"p", "17.857"}, {"cpTw", "1.5*t + 1"}};
  for (std::string sys : {"euler", "navier-stokes"})
    for (int nd : {2, 3}) {
      physics::Options o;
      o.system = sys;
      o.ndims = nd;
      o.mu = 1e-3;
      out.push_back(physics::tflux(o, 27));
      // Anti-aliasing's flux at 64 quadrature points of an affine group, reading the solution
      // points' metric panel (27 rows a component).
      out.push_back(physics::tflux(o, 64, true, 27));
      out.push_back(physics::negdivconf(o, 27));
      out.push_back(physics::ics(o, 27, values));
      // The plugins' kernels: a time-average sample, with and without moments, and a wall's
      // force from an element of 27 solution points.
      out.push_back(physics::tavg_sample(o, 27, {}));
      out.push_back(physics::tavg_sample(o, 27, {{1, 1}, {1, 2}, {nd + 1, nd + 1}}));
      out.push_back(physics::wall_force(o, 27));
      for (const auto& rs : physics::riemann_solvers()) {
        o.riemann = rs.name;
        out.push_back(physics::intcflux(o));
        // The element fluxes with each solver chosen (none may pull in HLLC's branches).
        if (rs.name != "rusanov") out.push_back(physics::tflux(o, 27));
        if (rs.name != "rusanov" && sys == "navier-stokes") out.push_back(physics::gradcoru_tflux(o, 27));
      }
      if (sys == "navier-stokes") {
        out.push_back(physics::gradcoru(o, 27));
        out.push_back(physics::gradcoru_tflux(o, 27));
        out.push_back(physics::intconu(o));
      }
      for (const auto& bc : physics::bc_types()) {
        out.push_back(physics::bccflux(o, bc.name, values));
        if (sys == "navier-stokes") out.push_back(physics::bcconu(o, bc.name, values));
      }
    }
  return out;
}

}  // namespace

TEST_CASE("every physics kernel compiles to sm_90 cubin through NVRTC") {
  auto& nvrtc = kernels::cuda::Compiler::instance();
  for (const auto& s : all_specs())
    for (auto p : {kernels::Precision::double_, kernels::Precision::single}) {
      INFO(s.name << " " << kernels::to_string(p));
      auto r = nvrtc.compile_cubin(render(s, cuda_dialect(), p, 32), 90);
      CHECK(!r.cubin.empty());
    }
}

TEST_CASE("every physics kernel compiles for the OpenCL device") {
  auto be = test::opencl_or_fail();
  // One lane a work-item (GPUs; in double, as the CUDA rendering is compiled in both), and
  // block vectors where the spec allows them (CPU devices) in both precisions: the physics as
  // vector code, where a branch on a value would not compile.
  for (const auto& s : all_specs())
    for (auto p : {kernels::Precision::double_, kernels::Precision::single})
      for (bool blocks : {false, true}) {
        if (!blocks && p == kernels::Precision::single) continue;
        if (blocks && !renders_block_vectors(s, opencl_dialect(), be->soa_width(p), true)) continue;
        INFO(s.name << " " << kernels::to_string(p) << (blocks ? " block vectors" : ""));
        CHECK_NOTHROW(be->compile(render(s, opencl_dialect(), p, be->soa_width(p), blocks)));
      }
}
