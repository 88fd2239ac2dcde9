// frmini restart at another order (operators/projection.hpp): a run at p = 1 restarted at
// order 2 on the curved mixed cylinder (quads and triangles) and on the mixed 3D box (hexes,
// prisms, tets, pyramids). The restart's first file is the file's solution projected element
// by element, with the file's t and step count, dt and the PI controller's memory from the
// case; a free stream stays the free stream to round-off; the run goes on at order 2 on cpu,
// on opencl (PoCL) and, where there is a GPU, cuda, the backends agreeing.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "kernels/backend.hpp"
#include "meshes/mesh_file.hpp"
#include "operators/projection.hpp"
#include "operators/shapes.hpp"
#include "solver/io/solution_file.hpp"
#include "solver/run/runner.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/operators/test_support.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/generated_mesh.hpp"

using namespace frmini;
namespace fs = std::filesystem;

namespace {

// Euler with RK45 and the PI controller (its dt and memory change from step to step, so a
// restart that kept them would show). @MESH@, @BCS@, @V@ (the y velocity) and @OUT@ filled in.
const char* case_text = R"toml(
[backend]
matmul = "generated"
[constants]
gamma = 1.4
[mesh]
file = "@MESH@"
[solver]
system = "euler"
order = 1
[time]
scheme = "rk45"
controller = "pi"
dt = 1e-3
tend = 10.0
[ics]
rho = 1.0
u = 1.0
v = "@V@"
p = 17.857142857142858
@BCS@
[plugins.writer]
dt-out = 1e9
basedir = "@OUT@"
basename = "s-{n}"
)toml";

const char* cylinder_bcs = R"toml(
[bcs.farfield]
type = "char-riem-inv"
rho = 1.0
u = 1.0
v = 0.0
p = 17.857142857142858
[bcs.cylinder]
type = "slp-adia-wall"
)toml";

std::string fill(std::string text, const std::vector<std::pair<std::string, std::string>>& subs) {
  for (const auto& [key, val] : subs)
    for (std::size_t p; (p = text.find(key)) != std::string::npos;)
      text.replace(p, key.size(), val);
  return text;
}

struct Setup {
  fs::path dir;
  std::string text;  // the case with @OUT@ left to fill
};

// A temporary folder holding `mesh` as a frmini mesh file, and the case on it.
Setup setup(const std::string& name, const meshes::Mesh& mesh, const std::string& v, bool walls) {
  Setup s;
  s.dir = fs::temp_directory_path() / ("frmini-test-reorder-" + std::to_string(::getpid())) / name;
  fs::remove_all(s.dir);
  fs::create_directories(s.dir);
  meshes::write_mesh((s.dir / "mesh.h5").string(), mesh);
  s.text = fill(case_text, {{"@MESH@", (s.dir / "mesh.h5").string()}, {"@V@", v},
                            {"@BCS@", walls ? cylinder_bcs : ""}});
  return s;
}

// Runs (or restarts from `from`) at `order` on `backend` for `steps` steps, writing into
// dir/out; returns the file the writer wrote last (the most steps).
solver::SolutionFile run(const Setup& s, const std::string& out, int order, long steps,
                         const std::string& backend = "cpu",
                         const solver::SolutionFile* from = nullptr) {
  const fs::path dir = s.dir / out;
  fs::remove_all(dir);
  const std::string flags = "--order " + std::to_string(order);
  auto k = solver::load_case_text(fill(s.text, {{"@OUT@", dir.string()}}), "reorder.toml",
                                  {{"solver", "order", std::to_string(order), "--order"},
                                   {"backend", "name", backend, "--backend"}});
  solver::RunOptions o;
  o.max_steps = steps;
  o.quiet = true;
  o.flags = flags;
  o.restart = from;
  o.restart_path = "restart.h5";
  solver::run_case(k, o);
  solver::SolutionFile last;
  last.state.nsteps = -1;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".h5") {
      auto f = solver::read_solution(e.path().string());
      if (f.state.nsteps > last.state.nsteps) last = std::move(f);
    }
  REQUIRE(last.state.nsteps >= 0);
  return last;
}

// A run continued on another backend against cpu's: the same steps, the same values (the
// solutions' magnitudes exceed 1, so maxdiff's difference is relative to the largest).
void check_matches_cpu(const solver::SolutionFile& other, const solver::SolutionFile& cpu) {
  CHECK(other.state.nsteps == cpu.state.nsteps);
  for (std::size_t g = 0; g < cpu.soln.size(); ++g)
    CHECK(frmini::operators::test::maxdiff(other.soln[g], cpu.soln[g]) < 1e-10);
}

// f's solution (order p) projected to order q with the operator itself, group by group.
std::vector<std::vector<double>> projected(const solver::SolutionFile& f, int q) {
  std::vector<std::vector<double>> out;
  for (std::size_t g = 0; g < f.soln.size(); ++g) {
    const auto P = operators::projection_matrix(f.etypes[g], f.order, q);
    const std::size_t rows = f.shapes[g][0] * f.shapes[g][1];
    std::vector<double> v(rows * P.rows, 0.0);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t i = 0; i < P.rows; ++i)
        for (std::size_t j = 0; j < P.cols; ++j)
          v[r * P.rows + i] += P(i, j) * f.soln[g][r * P.cols + j];
    out.push_back(std::move(v));
  }
  return out;
}

void check_order_and_layout(const solver::SolutionFile& f, int q) {
  CHECK(f.order == q);
  for (std::size_t g = 0; g < f.shapes.size(); ++g)
    CHECK(int(f.shapes[g][2]) == operators::nupts_for(f.etypes[g], q));
}

// The restart's own state: the file's t and steps, dt and the controller's memory from the case.
void check_restart_state(const solver::SolutionFile& two, const solver::SolutionFile& one) {
  CHECK(two.state.t == one.state.t);
  CHECK(two.state.nsteps == one.state.nsteps);
  CHECK(one.state.dt != 1e-3);  // the controller had moved it: the next check means something
  CHECK(two.state.dt == 1e-3);
  CHECK(two.state.errprev == 1.0);
}

// Whether `name` can run here; a reason to skip it otherwise.
std::string unavailable(const std::string& name) {
  try {
    kernels::make_backend(name);
    return "";
  } catch (const UserError& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("restart at order 2 from p = 1 on the curved cylinder: the projection and the run after it") {
  const auto s = setup("cylinder", test::generated_mesh("cylinder2d", true),
                       "0.3*exp(-((x - 1.5)^2 + (y - 0.3)^2)/0.25)", true);
  const auto one = run(s, "p1", 1, 4);
  REQUIRE(one.order == 1);
  REQUIRE(one.etypes.size() == 2);  // quads and triangles

  // No step: the file the restart writes is its starting state.
  const auto start = run(s, "p2-start", 2, 0, "cpu", &one);
  check_order_and_layout(start, 2);
  check_restart_state(start, one);
  const auto want = projected(one, 2);
  for (std::size_t g = 0; g < want.size(); ++g) CHECK(frmini::operators::test::maxdiff(start.soln[g], want[g]) < 1e-14);

  // Three steps at order 2 on every backend there is, from the same file.
  const auto cpu = run(s, "p2-cpu", 2, 3, "cpu", &one);
  check_order_and_layout(cpu, 2);
  CHECK(cpu.state.nsteps == one.state.nsteps + 3);
  CHECK(cpu.state.t > one.state.t);
  CHECK(cpu.flags == "--order 2");
  for (const auto& name : test::cpu_and_opencl()) {
    if (name == "cpu") continue;
    INFO(name);
    const auto other = run(s, "p2-" + name, 2, 3, name, &one);
    check_order_and_layout(other, 2);
    check_matches_cpu(other, cpu);
  }
  fs::remove_all(s.dir.parent_path());
}

TEST_CASE("restart at order 2 from p = 1 on the cuda backend") {
  const std::string why = unavailable("cuda");
  if (!why.empty()) FRMINI_SKIP("cuda: " << why);
  const auto s = setup("cylinder-cuda", test::generated_mesh("cylinder2d", true),
                       "0.3*exp(-((x - 1.5)^2 + (y - 0.3)^2)/0.25)", true);
  const auto one = run(s, "p1", 1, 4);
  const auto cpu = run(s, "p2-cpu", 2, 3, "cpu", &one);
  const auto gpu = run(s, "p2-cuda", 2, 3, "cuda", &one);
  check_order_and_layout(gpu, 2);
  check_matches_cpu(gpu, cpu);
  fs::remove_all(s.dir.parent_path());
}

TEST_CASE("restart at order 2 on the mixed 3D box (hex prism tet pyramid): the projection and steps") {
  const auto s =
      setup("box", test::generated_mesh("box-mixed3d", false), "0.2*sin(x)*cos(z)", false);
  const auto one = run(s, "p1", 1, 3);
  REQUIRE(one.etypes.size() == 4);
  const auto start = run(s, "p2-start", 2, 0, "cpu", &one);
  check_order_and_layout(start, 2);
  check_restart_state(start, one);
  const auto want = projected(one, 2);
  for (std::size_t g = 0; g < want.size(); ++g) CHECK(frmini::operators::test::maxdiff(start.soln[g], want[g]) < 1e-14);
  const auto two = run(s, "p2", 2, 2, "cpu", &one);
  CHECK(two.state.nsteps == one.state.nsteps + 2);
  fs::remove_all(s.dir.parent_path());
}

TEST_CASE("restart at another order: a free stream stays the free stream to round-off") {
  // rho = 1, u = (1, 0), p = 17.857...: conserved 1, 1, 0, E on every point of every element.
  const double E = 17.857142857142858 / 0.4 + 0.5;
  const auto s = setup("free", test::generated_mesh("cylinder2d", true), "0.0", true);
  const auto one = run(s, "p1", 1, 0);  // the initial state: exactly the free stream
  for (int q : {2, 3}) {
    INFO("order " << q);
    const auto f = run(s, "p" + std::to_string(q), q, 0, "cpu", &one);
    check_order_and_layout(f, q);
    double worst = 0.0;
    for (std::size_t g = 0; g < f.soln.size(); ++g) {
      const std::size_t nu = f.shapes[g][2];
      for (std::size_t i = 0; i < f.soln[g].size(); ++i) {
        const std::size_t var = (i / nu) % 4;
        const double exact = var == 0 ? 1.0 : var == 1 ? 1.0 : var == 2 ? 0.0 : E;
        worst = std::max(worst, std::abs(f.soln[g][i] - exact) / E);
      }
    }
    CHECK(worst < 1e-14);
  }
  fs::remove_all(s.dir.parent_path());
}
