// Pointwise kernels on the opencl device, against values computed here on the host: on a CPU
// device (PoCL) the element and interface kernels run on block vectors (a work-item per SoA
// block or chunk of points, kernels/pointwise/render.hpp), with views whose chunks are
// consecutive, consecutive but with two row strides, or scattered; ranges that start and end
// inside chunks; padding lanes; `?:` on values. A spec that says block_vectors = false takes the
// one-lane rendering and must give the same values.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/pointwise/kernel.hpp"
#include "kernels/pointwise/render.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/kernels/opencl/opencl_test_support.hpp"

using namespace frmini;
using namespace frmini::kernels;
using namespace frmini::kernels::pointwise;

namespace {

template <class T>
std::unique_ptr<Buffer> upload(opencl::OpenCLBackend& be, const std::vector<T>& v) {
  auto b = be.alloc(v.size() * sizeof(T));
  be.upload(*b, 0, v.data(), v.size() * sizeof(T));
  return b;
}

template <class T>
std::vector<T> download(opencl::OpenCLBackend& be, const Buffer& b, std::size_t n) {
  std::vector<T> v(n);
  be.synchronize();
  be.download(v.data(), b, 0, n * sizeof(T));
  return v;
}

// A points kernel over NP points: ul {3} (near, updated), ur {2, 3} (far, read), nrm {2} (an
// array), alpha (a scalar).
Spec interface_spec(bool blocks) {
  Spec s;
  s.name = "faces";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::view, Intent::inout, {3}},
            {"ur", ArgKind::view, Intent::in, {2, 3}, true},
            {"nrm", ArgKind::array, Intent::in, {2}},
            {"alpha", ArgKind::scalar, Intent::in, {}}};
  s.body = "for (int k = 0; k < 3; k++)\n"
           "  ul[k] = alpha*ul[k] + (ur[0][k] > ur[1][k] ? ur[0][k] : ur[1][k]) + nrm[0]*nrm[1];";
  s.block_vectors = blocks;
  return s;
}

template <class T>
void check_interfaces(opencl::OpenCLBackend& be, Precision p, bool blocks) {
  const int64_t S = int64_t(be.soa_width(p)), np = 6 * S + 3;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> val(-1, 1);
  // Offsets as the arena lays interfaces out: point j in lane j % S of an SoA block of B = 3
  // values (consecutive within a chunk), in regions that never overlap.
  auto lane = [&](int64_t base, int64_t j) { return base + (j / S) * 3 * S + j % S; };
  // Chunks of S points: 0 partial (the range starts at 3); 1 and 5 whole and consecutive on
  // both sides (vloads); 2 scattered (ul, a block each) and reversed (ur); 3 consecutive but
  // with one odd row stride on ur (lane by lane); 4 cut by the second launch; 6 partial.
  const auto n = std::size_t(np);
  std::vector<int64_t> ixl(n), ixr(n), rsr(n, 1000), own;
  for (int64_t m = 0; m < np; ++m) own.push_back(m);
  std::shuffle(own.begin(), own.end(), rng);
  for (int64_t j = 0; j < np; ++j) {
    const auto u = std::size_t(j);
    const bool scattered = j >= 2 * S && j < 3 * S;
    ixl[u] = scattered ? 2000 + own[u] * 3 * S + own[u] % S : lane(100, j);
    ixr[u] = scattered ? lane(6000, np - 1 - j) : lane(9000, j);
    if (j == 3 * S + 2) rsr[u] = 1500;
  }
  const int64_t nrm_ld = np + 5;
  std::vector<T> arena(12000), nrm(std::size_t(2 * nrm_ld));
  for (auto& x : arena) x = T(val(rng));
  for (auto& x : nrm) x = T(val(rng));
  auto A = upload(be, arena), IL = upload(be, ixl), IR = upload(be, ixr), RR = upload(be, rsr),
       N = upload(be, nrm);
  auto k = be.pointwise(interface_spec(blocks), p);
  REQUIRE(renders_block_vectors(k->spec(), opencl_dialect(), std::size_t(S), !be.info().is_gpu) ==
          (blocks && !be.info().is_gpu));
  const double alpha = 0.75;
  k->bind({ArgValue::view(A.get(), IL.get(), 0), ArgValue::view(A.get(), IR.get(), 0, RR.get(), 0),
           ArgValue::panel(N.get(), 0, nrm_ld), ArgValue::value(alpha)});
  // Ranges that begin and end inside chunks; points [0, 3) are left alone.
  k->run(3, 4 * S + 5);
  k->run(4 * S + 5, np);
  auto got = download<T>(be, *A, arena.size());
  std::vector<T> want = arena;
  for (int64_t j = 3; j < np; ++j) {
    const auto u = std::size_t(j);
    const T n = nrm[u] * nrm[u + std::size_t(nrm_ld)];
    for (int64_t c = 0; c < 3; ++c) {
      const T r0 = arena[std::size_t(ixr[u] + c * S)], r1 = arena[std::size_t(ixr[u] + rsr[u] + c * S)];
      const auto l = std::size_t(ixl[u] + c * S);
      want[l] = T(alpha) * arena[l] + (r0 > r1 ? r0 : r1) + n;
    }
  }
  const double tol = p == Precision::double_ ? 1e-14 : 1e-6;
  int bad = 0;
  for (std::size_t i = 0; i < arena.size(); ++i)
    if (std::abs(double(got[i]) - double(want[i])) > tol) ++bad;
  CHECK(bad == 0);
}

// An element kernel over NPTS = 4 points: u {2, 3} updated, s {1} uniform (the first point's).
Spec element_spec() {
  Spec s;
  s.name = "elem";
  s.space = Space::element_points;
  s.args = {{"u", ArgKind::field, Intent::inout, {2, 3}}, {"s", ArgKind::field, Intent::in, {1}, false, true}};
  s.body = "for (int k = 0; k < 3; k++)\n"
           "  u[1][k] = (u[0][k] > 0 ? u[0][k]*s[0] : -u[0][k]) + sqrt(fabs(u[1][k]));";
  s.defines["NPTS"] = "4";
  return s;
}

template <class T>
void check_elements(opencl::OpenCLBackend& be, Precision p) {
  const int64_t S = int64_t(be.soa_width(p)), npts = 4, neles = 5 * S + 3, nepad = 6 * S, B = 3;
  const int64_t ld = B * nepad;
  auto at = [&](int64_t a, int64_t i, int64_t e, int64_t b) {
    return std::size_t((a * npts + i) * ld + (e / S) * B * S + b * S + e % S);
  };
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> val(-1, 1);
  std::vector<T> u(static_cast<std::size_t>(2 * npts * ld)), s(static_cast<std::size_t>(nepad));
  for (auto& x : u) x = T(val(rng));
  for (auto& x : s) x = T(val(rng));
  auto U = upload(be, u), Sb = upload(be, s);
  auto k = be.pointwise(element_spec(), p);
  REQUIRE(renders_block_vectors(k->spec(), opencl_dialect(), std::size_t(S), !be.info().is_gpu) ==
          !be.info().is_gpu);
  k->bind({ArgValue::panel(U.get(), 0, ld), ArgValue::panel(Sb.get(), 0, nepad)});
  k->run(S, neles);  // block 0 is left alone
  auto got = download<T>(be, *U, u.size());
  const double tol = p == Precision::double_ ? 1e-14 : 1e-6;
  int bad = 0;
  for (int64_t e = 0; e < nepad; ++e)
    for (int64_t i = 0; i < npts; ++i)
      for (int64_t b = 0; b < B; ++b) {
        const T x = u[at(0, i, e, b)], y = u[at(1, i, e, b)];
        const T want = e < S ? y : (x > 0 ? x * s[std::size_t(e)] : -x) + std::sqrt(std::abs(y));
        if (e >= neles) continue;  // padding lanes: computed, never read
        if (std::abs(double(got[at(1, i, e, b)]) - double(want)) > tol) ++bad;
        if (got[at(0, i, e, b)] != x) ++bad;  // an input stays as it was
      }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("opencl: interface kernels on block vectors and on one lane give the host's values") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  for (bool blocks : {true, false}) {
    INFO((blocks ? "block vectors" : "one lane"));
    check_interfaces<double>(*be, Precision::double_, blocks);
    check_interfaces<float>(*be, Precision::single, blocks);
  }
}

TEST_CASE("opencl: element kernels on block vectors give the host's values, padding and uniform fields") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  check_elements<double>(*be, Precision::double_);
  check_elements<float>(*be, Precision::single);
}

TEST_CASE("opencl: block vectors compile at every vector width a CPU device may prefer") {
  // This machine's device runs one width a precision; an AVX2 or SSE machine prefers 4/8 or
  // 2/4 lanes. Compile-only: the values are checked above at the device's own widths.
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  for (std::size_t w : {2, 4, 8, 16})
    for (auto p : {Precision::double_, Precision::single})
      for (const Spec& s : {interface_spec(true), element_spec()}) {
        INFO(s.name << " width " << w << " " << to_string(p));
        REQUIRE(renders_block_vectors(s, opencl_dialect(), w, true));
        CHECK_NOTHROW(be->compile(render(s, opencl_dialect(), p, w, true)));
      }
}
