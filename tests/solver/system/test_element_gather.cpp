// ElementGather: the listed elements' values gathered on the device equal those of the whole
// downloaded solution, for any register, element type and precision; the forces from the
// gathered wall elements equal the forces from the whole solution.
#include <cmath>

#include "kernels/backend.hpp"
#include "meshes/mesh.hpp"
#include "solver/plugins/forces.hpp"
#include "solver/system/element_gather.hpp"
#include "solver/system/system.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/generated_mesh.hpp"
#include "tests/support/backends.hpp"

using namespace frmini;

namespace {


// Register k: a different value at every (group, element, variable, point), a valid state.
std::vector<std::vector<double>> pattern(const solver::System& sys, int k) {
  std::vector<std::vector<double>> s;
  const int nv = sys.nvars();
  for (std::size_t g = 0; g < sys.layout().size(); ++g) {
    const auto& l = sys.layout()[g];
    std::vector<double> v(std::size_t(l.neles) * nv * l.nupts);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const int var = int((i / std::size_t(l.nupts)) % std::size_t(nv));
      v[i] = (var == 0 ? 1.0 : var == nv - 1 ? 3.0 : 0.1) +
             0.01 * std::sin(0.7 * double(i) + double(g) + 1.3 * k);
    }
    s.push_back(v);
  }
  return s;
}

}  // namespace

TEST_CASE("gathered elements equal the downloaded solution on every element type and register") {
  for (const auto& [name, mixed] : {std::pair<std::string, bool>{"box-mixed3d", false}, {"cylinder2d", true}}) {
    const auto& mesh = test::generated_mesh(name, mixed);
    for (const auto& bname : test::cpu_and_opencl())
      for (auto prec : {kernels::Precision::double_, kernels::Precision::single}) {
        INFO(name << " on " << bname << (prec == kernels::Precision::double_ ? " double" : " single"));
        auto be = kernels::make_backend(bname);
        solver::SystemConfig cfg;
        cfg.phys.system = "euler";
        cfg.phys.ndims = mesh.ndims;
        cfg.order = 2;
        cfg.precision = prec;
        cfg.nregs = 2;
        if (name == "cylinder2d") {
          std::map<std::string, std::string> fs = {{"rho", "1.0"}, {"u", "0.3"}, {"v", "0.0"}, {"w", "0.0"}, {"p", "1.0"}};
          cfg.bcs["farfield"] = {"char-riem-inv", fs};
          cfg.bcs["cylinder"] = {"slp-adia-wall", {}};
        }
        solver::System sys(*be, mesh, cfg);
        for (int k = 0; k < 2; ++k) sys.upload_solution(k, pattern(sys, k));
        // Every third element of each group, the last one, and one listed twice.
        std::vector<std::pair<int, int64_t>> eles;
        for (std::size_t g = 0; g < sys.layout().size(); ++g) {
          const int64_t n = sys.layout()[g].neles;
          for (int64_t e = int64_t(g) % 3; e < n; e += 3) eles.emplace_back(int(g), e);
          eles.emplace_back(int(g), n - 1);
          eles.emplace_back(int(g), n - 1);
        }
        solver::ElementGather gather(sys, eles);
        for (int reg : {1, 0}) {
          const auto whole = sys.download_solution(reg);
          gather.download(reg);
          double diff = 0;
          for (const auto& [g, e] : eles) {
            const int m = sys.nvars() * sys.layout()[std::size_t(g)].nupts;
            const double* v = gather.values(g, e);
            REQUIRE(v != nullptr);
            for (int i = 0; i < m; ++i)
              diff = std::max(diff, std::abs(v[i] - whole[std::size_t(g)][std::size_t(e) * m + i]));
          }
          CHECK(diff == 0.0);  // the same values moved, not recomputed
        }
        CHECK(gather.values(0, 1) == nullptr);  // element 1 of group 0 is not listed
        const std::size_t item = prec == kernels::Precision::double_ ? 8 : 4;
        std::size_t npts = 0;
        for (std::size_t g = 0; g < sys.layout().size(); ++g) {
          const int64_t n = sys.layout()[g].neles;
          std::size_t listed = 0;
          for (int64_t e = 0; e < n; ++e) listed += gather.values(int(g), e) != nullptr;
          npts += listed * std::size_t(sys.layout()[g].nupts);
        }
        // What one download moves: the listed elements' values, rows padded to the SoA width.
        CHECK(gather.bytes() >= npts * std::size_t(sys.nvars()) * item);
        CHECK(gather.bytes() < (npts + sys.soa_width()) * std::size_t(sys.nvars()) * item);
      }
  }
}

TEST_CASE("forces from the gathered wall elements equal the forces from the whole solution") {
  const auto& mesh = test::generated_mesh("cylinder2d", true);
  for (const auto& bname : test::cpu_and_opencl()) {
    INFO(bname);
    auto be = kernels::make_backend(bname);
    solver::SystemConfig cfg;
    cfg.phys.system = "navier-stokes";
    cfg.phys.ndims = 2;
    cfg.phys.mu = 0.01;
    cfg.order = 3;
    std::map<std::string, std::string> fs = {{"rho", "1.0"}, {"u", "0.3"}, {"v", "0.0"}, {"w", "0.0"}, {"p", "1.0"}};
    cfg.bcs["farfield"] = {"char-riem-inv", fs};
    cfg.bcs["cylinder"] = {"no-slp-adia-wall", {}};
    solver::System sys(*be, mesh, cfg);
    sys.upload_solution(0, pattern(sys, 0));
    const auto eles = solver::boundary_elements(sys, "cylinder");
    CHECK(eles.size() < std::size_t(sys.layout()[0].neles + sys.layout()[1].neles) / 4);
    solver::ElementGather gather(sys, eles);
    gather.download(0);
    const auto a = solver::surface_force(sys, sys.download_solution(0), "cylinder");
    const auto b = solver::surface_force(
        sys, [&](int g, int64_t e) { return gather.values(g, e); }, "cylinder");
    for (int d = 0; d < 2; ++d) {
      CHECK(a.pressure[std::size_t(d)] == b.pressure[std::size_t(d)]);
      CHECK(a.viscous[std::size_t(d)] == b.viscous[std::size_t(d)]);
    }
    CHECK(std::abs(a.viscous[0]) > 0);  // the pattern shears the wall
    CHECK_THROWS_WITH(solver::boundary_elements(sys, "inlet"), Catch::Matchers::Contains("no boundary 'inlet'"));
  }
}
