// The C rendering of pointwise kernels: compiled with the system compiler, loaded, run over
// element and point ranges, and compared with the same arithmetic done here on the host with
// the layouts of kernels/pointwise/spec.hpp written out by hand.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>

#include "kernels/pointwise/kernel.hpp"
#include "kernels/pointwise/render.hpp"
#include "kernels/pointwise/render_parts.hpp"
#include "tests/support/c_kernel.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini::kernels;
using namespace frmini::kernels::pointwise;

namespace {

using frmini::test::CArg;
using frmini::test::CFn;

CFn compile_c(const std::string& src, const std::string& name, const std::string& stem = "") {
  return frmini::test::compile_c(src, name, stem.empty() ? name : stem);
}

Spec flux_like_spec(int npts) {
  // f[d][v] = s * m[d] * u[v] + t   for d < 2, v < 3: exercises field shapes {B}, {A,B},
  // a scalar, an index, a literal and a helper function.
  Spec s;
  s.name = "flux_like";
  s.space = Space::element_points;
  s.args = {{"u", ArgKind::field, Intent::in, {3}},
            {"m", ArgKind::field, Intent::in, {2, 1}},
            {"f", ArgKind::field, Intent::out, {2, 3}},
            {"s", ArgKind::scalar, Intent::in, {}},
            {"k", ArgKind::index, Intent::in, {}}};
  s.defines = {{"NPTS", std::to_string(npts)}, {"NVARS", "3"}};
  s.functions = "FRMINI_FUNC fpdtype_t twice(fpdtype_t x) { return 2.0*x; }";
  s.body = R"(
    for (int d = 0; d < 2; d++)
      for (int v = 0; v < NVARS; v++)
        f[d][v] = s*m[d][0]*u[v] + twice(0.25)*k;
  )";
  return s;
}

}  // namespace

TEST_CASE("single-precision literal suffixing leaves identifiers and integers alone") {
  CHECK(single_literals("x1 = 0.5*y + 2 + 1e-3 + 3.f + a2.5") == "x1 = 0.5f*y + 2 + 1e-3f + 3.f + a2.5f");
  CHECK(single_literals("// 0.5 in a comment\nz = .25;") == "// 0.5 in a comment\nz = .25f;");
  CHECK(single_literals("m[2][0] = 10;") == "m[2][0] = 10;");
}

TEST_CASE("spec mistakes are caught before rendering") {
  Spec s = flux_like_spec(4);
  s.args.push_back({"u", ArgKind::field, Intent::in, {3}});
  CHECK_THROWS_AS(validate(s), std::logic_error);
  Spec t = flux_like_spec(4);
  t.defines.erase("NPTS");
  CHECK_THROWS_AS(validate(t), std::logic_error);
}

TEST_CASE("element kernels rendered as C address AoSoA panels as specified") {
  const int npts = 5, S = 8, nelespad = 24;
  const int64_t ldu = 3 * nelespad, ldm = 1 * nelespad, ldf = 3 * nelespad;
  for (Precision prec : {Precision::double_, Precision::single}) {
    Spec s = flux_like_spec(npts);
    std::string src = render(s, c_dialect(), prec, S);
    CFn fn = compile_c(src, "flux_like", std::string("flux_like") + (prec == Precision::single ? "_f" : "_d"));
    // Fill u and m with values that identify their position; f starts as a sentinel.
    auto run = [&](auto zero) {
      using T = decltype(zero);
      std::vector<T> u(npts * ldu), m(2 * npts * ldm), f(2 * npts * ldf, T(-99));
      std::mt19937 rng(7);
      std::uniform_real_distribution<double> dist(-1, 1);
      for (auto& x : u) x = T(dist(rng));
      for (auto& x : m) x = T(dist(rng));
      std::vector<CArg> a(8);
      a[0].p = u.data(); a[1].i = ldu;
      a[2].p = m.data(); a[3].i = ldm;
      a[4].p = f.data(); a[5].i = ldf;
      a[6].d = 1.5;      a[7].i = 3;
      fn(8, 24, a.data());  // elements [8, 24): blocks 1 and 2
      auto at = [&](int a_, int i, int B, int64_t ld, int e, int b) {
        return (a_ * npts + i) * ld + (e / S) * B * S + b * S + e % S;
      };
      for (int e = 0; e < nelespad; ++e)
        for (int i = 0; i < npts; ++i)
          for (int d = 0; d < 2; ++d)
            for (int v = 0; v < 3; ++v) {
              double got = f[at(d, i, 3, ldf, e, v)];
              if (e < 8) {
                CHECK(got == -99);  // outside the range: untouched
              } else {
                double want = 1.5 * double(m[at(d, i, 1, ldm, e, 0)]) * double(u[at(0, i, 3, ldu, e, v)]) + 0.5 * 3;
                CHECK(got == Approx(want).epsilon(prec == Precision::single ? 1e-6 : 1e-15));
              }
            }
    };
    if (prec == Precision::single) run(float{}); else run(double{});
  }
}

TEST_CASE("points kernels gather through views and write arrays") {
  // out[j] = view(1,0) - view(0,2) + 10*arr(0,j), on gathered points with a row stride, in
  // chunks of 8 points: chunk 0 with consecutive offsets (flagged: vector loads), chunk 1
  // scattered (gathers), then a partial chunk (point by point); ranges from 0 and from 3.
  Spec s;
  s.name = "gather";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::view, Intent::inout, {2, 3}},
            {"nrm", ArgKind::array, Intent::in, {1}},
            {"out", ArgKind::array, Intent::out, {1}}};
  s.body = "out[0] = ul[1][0] - ul[0][2] + 10.0*nrm[0];\nul[0][0] = 7.0;";
  REQUIRE(c_fast_chunks(s));
  std::string src = render(s, c_dialect(), Precision::double_, 8);
  CFn fn = compile_c(src, "gather");
  const int n = 20;
  std::vector<int64_t> ix(n), rs(n);
  for (int j = 0; j < 8; ++j) ix[j] = 400 + j, rs[j] = 55;              // consecutive
  for (int j = 8; j < n; ++j) ix[j] = (j * 37) % 300, rs[j] = 50 + 10 * (j % 5);  // scattered
  std::vector<unsigned char> fast = {1, 8, 0, 0, 0, 0};  // kind, split of ul; per chunk
  for (int begin : {0, 3}) {
    INFO("range from " << begin);
    std::vector<double> arena(2000);
    for (std::size_t i = 0; i < arena.size(); ++i) arena[i] = double(i);
    std::vector<double> nrm(n), out(n, -1.0);
    for (int j = 0; j < n; ++j) nrm[j] = 0.5 * j;
    std::vector<CArg> a(8);
    a[0].p = arena.data(); a[1].p = ix.data(); a[2].p = rs.data();
    a[3].p = nrm.data(); a[4].i = n;
    a[5].p = out.data(); a[6].i = n;
    a[7].p = fast.data();
    fn(begin, n, a.data());
    for (int j = 0; j < n; ++j) {
      INFO("point " << j);
      if (j < begin) {
        CHECK(out[j] == -1.0);
        CHECK(arena[ix[j]] == double(ix[j]));
        continue;
      }
      double v10 = double(ix[j] + rs[j]), v02 = double(ix[j] + 2 * 8);
      CHECK(out[j] == v10 - v02 + 10 * 0.5 * j);
      CHECK(arena[ix[j]] == 7.0);
    }
  }
}

TEST_CASE("points kernels load views in one or two consecutive pieces as vectors") {
  // out[j] = ul[1] + 100*ur[0] (ur the far side), ur[2] = -ul[0], over 45 points: chunk 0 all
  // consecutive (kind 1); chunk 1 near consecutive, far scattered (kind 2: ur staged); chunks
  // 2 and 3 in two pieces (kind 3: ul split at 3 and ur whole, then ul whole and ur split at
  // 5); chunk 4 scattered (kind 0: both staged); then a partial chunk. A record the kernel
  // misreads gives wrong values. Both precisions: GCC vectorises a gather of doubles but not
  // of floats, so the staged chunks compile differently in each.
  Spec s;
  s.name = "nearfar";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::view, Intent::in, {3}},
            {"ur", ArgKind::view, Intent::inout, {3}, true},
            {"out", ArgKind::array, Intent::out, {1}}};
  s.body = "out[0] = ul[1] + 100.0*ur[0];\nur[2] = -ul[0];";
  REQUIRE(c_chunk_record(s) == 3);
  const int n = 45;
  std::vector<int64_t> il(n), ir(n);
  for (int j = 0; j < n; ++j) {
    const int c = j / 8, l = j % 8;
    il[j] = 1000 + 64 * c + l;                             // consecutive
    ir[j] = 2000 + 64 * c + l;
    if (c == 1 || c >= 4) ir[j] = 2400 + 24 * ((7 * j) % n);  // scattered, no overlaps
    if (c == 2 && l >= 3) il[j] = 1500 + l;                // two pieces, split at 3
    if (c == 3 && l >= 5) ir[j] = 5000 + l;                // two pieces, split at 5
    if (c >= 4) il[j] = 3000 + 40 * j;
  }
  std::vector<unsigned char> rec = {1, 8, 8, 2, 8, 0, 3, 3, 8, 3, 8, 5, 0, 0, 0, 0, 0, 0};
  auto run = [&](auto zero, Precision prec, const char* stem) {
    using T = decltype(zero);
    std::string src = render(s, c_dialect(), prec, 8);
    CHECK(src.find("_c[0] == 2") != std::string::npos);
    CHECK(src.find("_c[0] == 3") != std::string::npos);
    CHECK(src.find("_sg_ur[2][_lane]") != std::string::npos);
    CFn fn = compile_c(src, "nearfar", stem);
    std::vector<T> arena(7000);
    for (std::size_t i = 0; i < arena.size(); ++i) arena[i] = T(i);
    std::vector<T> out(n, T(-1));
    std::vector<CArg> a(7);
    a[0].p = arena.data(); a[1].p = il.data();
    a[2].p = arena.data(); a[3].p = ir.data();
    a[4].p = out.data(); a[5].i = n;
    a[6].p = rec.data();
    fn(0, n, a.data());
    for (int j = 0; j < n; ++j) {
      INFO("point " << j);
      CHECK(out[j] == T(il[j] + 8) + T(100) * T(ir[j]));
      CHECK(arena[std::size_t(ir[j] + 16)] == -T(il[j]));
      CHECK(arena[std::size_t(ir[j])] == T(ir[j]));  // ur[0] is only read
    }
  };
  SECTION("double") { run(double{}, Precision::double_, "nearfar"); }
  SECTION("single") { run(float{}, Precision::single, "nearfar_single"); }
}

TEST_CASE("OpenCL and CUDA renderings have the same slots and a body per point") {
  Spec s = flux_like_spec(4);
  for (const Dialect* d : {&opencl_dialect(), &cuda_dialect()}) {
    std::string src = render(s, *d, Precision::double_, 32);
    CHECK(src.find("u_ld") != std::string::npos);
    CHECK(src.find("if (_e >= _ie || _i >= NPTS) return;") != std::string::npos);
  }
  CHECK(render(s, opencl_dialect(), Precision::double_, 32).find("cl_khr_fp64") != std::string::npos);
  CHECK(render(s, cuda_dialect(), Precision::single, 32).find("extern \"C\" __global__") != std::string::npos);
}

TEST_CASE("block vectors: OpenCL only, where the spec and the width allow") {
  Spec s = flux_like_spec(4);
  const std::string v = render(s, opencl_dialect(), Precision::double_, 8, true);
  CHECK(v.find("typedef double8 fpdtype_t;") != std::string::npos);
  CHECK(v.find("#define FRMINI_VLOAD vload8") != std::string::npos);
  CHECK(v.find("FRMINI_VLOAD(0, u_p + ") != std::string::npos);
  CHECK(v.find("_lane") == std::string::npos);  // no lane of its own: the block is the vector
  CHECK(render(s, opencl_dialect(), Precision::single, 16, true).find("typedef float16 fpdtype_t;") !=
        std::string::npos);
  CHECK(renders_block_vectors(s, opencl_dialect(), 8, true));
  CHECK_FALSE(renders_block_vectors(s, opencl_dialect(), 8, false));  // GPUs
  CHECK_FALSE(renders_block_vectors(s, cuda_dialect(), 8, true));
  CHECK_FALSE(renders_block_vectors(s, opencl_dialect(), 32, true));  // no such vector type
  s.block_vectors = false;
  CHECK_FALSE(renders_block_vectors(s, opencl_dialect(), 8, true));
  CHECK(render(s, opencl_dialect(), Precision::double_, 8, true).find("typedef double fpdtype_t;") !=
        std::string::npos);
}

TEST_CASE("arguments offered by name are bound in the spec's order; one not offered is named") {
  using namespace frmini::kernels::pointwise;
  Spec s;
  s.name = "k";
  s.space = Space::points;
  s.args = {{"b", ArgKind::array, Intent::in, {1}}, {"a", ArgKind::scalar, Intent::in, {}}};
  const std::map<std::string, ArgValue> offered = {
      {"a", ArgValue::value(2.5)}, {"b", ArgValue::panel(nullptr, 7, 3)}, {"unused", ArgValue::value(9)}};
  const auto args = in_spec_order(s, offered);
  REQUIRE(args.size() == 2);
  CHECK(args[0].offset == 7);
  CHECK(args[0].ld == 3);
  CHECK(args[1].scalar == 2.5);
  CHECK_THROWS_WITH(in_spec_order(s, {{"b", ArgValue::panel(nullptr, 0, 1)}}),
                    Catch::Matchers::Contains("k: no value offered for argument 'a'"));
}

namespace {
// A dialect of a backend the renderer has never heard of: what a new backend provides.
class ToyDialect final : public frmini::kernels::pointwise::Dialect {
 public:
  const char* name() const override { return "toy"; }
  Words words() const override { return {"toy_inline", "", "", "toy_i64"}; }
  std::string prelude(Precision) const override { return "#toy prelude\n"; }
  std::string kernel(const Spec& s, const std::vector<frmini::kernels::pointwise::Slot>& slots,
                     const std::string& body, bool) const override {
    std::string k = "toy_kernel " + s.name + "(";
    for (const auto& sl : slots) k += sl.name + " ";
    return k + ") {\n" + frmini::kernels::pointwise::parts::point_block(s, body, "  ") + "}\n";
  }
};
}  // namespace

TEST_CASE("a new backend's dialect renders through the same renderer") {
  Spec s = flux_like_spec(4);
  const std::string src = render(s, ToyDialect{}, Precision::single, 4);
  CHECK(src.find("#toy prelude") != std::string::npos);
  CHECK(src.find("#define FRMINI_FUNC toy_inline") != std::string::npos);
  CHECK(src.find("toy_kernel " + s.name + "(u_p u_ld") != std::string::npos);
  CHECK(src.find("typedef float fpscal_t;") != std::string::npos);
  CHECK_FALSE(renders_block_vectors(s, ToyDialect{}, 8, true));  // none unless it says so
  CHECK_THROWS_AS(ToyDialect{}.reduce_macros(Precision::double_), std::logic_error);
}

// The two-piece chunks (kind 3) choose each lane's piece with `_lane < NAME_k`: with an int
// lane and double values GCC 12 vectorised that loop with 4 lanes of the 8 (half the width),
// and the Navier-Stokes intcflux took 2.5 times as long a point on those chunks as on whole
// ones. Compile-only for AVX-512 (x86-64-v4), so it runs on any x86-64 machine with GCC:
// the split loop must be vectorised with 64-byte vectors in both precisions.
TEST_CASE("points kernels' two-piece chunks vectorise at the values' full width") {
  if (std::system("cc --version 2>/dev/null | grep -q 'Free Software Foundation'") != 0 ||
      std::system("cc -march=x86-64-v4 -x c -c /dev/null -o /dev/null 2>/dev/null") != 0)
    FRMINI_SKIP("cc is not a GCC that knows -march=x86-64-v4");
  Spec s;
  s.name = "split_width";
  s.space = Space::points;
  s.args = {{"ul", ArgKind::view, Intent::inout, {5}},
            {"ur", ArgKind::view, Intent::in, {5}},
            {"nrm", ArgKind::array, Intent::in, {3}}};
  s.body = "for (int k = 0; k < 5; k++) ul[k] = sqrt(ul[k]*ur[k] + nrm[k % 3]) / ur[0];";
  for (Precision p : {Precision::double_, Precision::single}) {
    const std::size_t soa = 64 / itemsize(p);
    const std::string src = render(s, c_dialect(), p, soa);
    // The split loop's line: the first lane loop after the kind-3 branch opens.
    const std::size_t at = src.find("for (", src.find("_c[0] == 3"));
    REQUIRE(at != std::string::npos);
    const long line = 1 + long(std::count(src.begin(), src.begin() + long(at), '\n'));
    const auto dir = frmini::test::scratch_dir("frmini-ck");
    const auto c = dir / ("split_width_" + std::string(to_string(p)) + ".c"), log = dir / "split_width.log";
    std::ofstream(c) << src;
    const std::string cmd = "cc -std=gnu11 -O3 -march=x86-64-v4 -fno-math-errno -fopt-info-vec-optimized -c " +
                            c.string() + " -o /dev/null > " + log.string() + " 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::ifstream l(log);
    const std::string text((std::istreambuf_iterator<char>(l)), std::istreambuf_iterator<char>());
    INFO(to_string(p) << ": split loop at line " << line << "; GCC said:\n" << text);
    CHECK(text.find(":" + std::to_string(line) + ":7: optimized: loop vectorized using 64 byte vectors") !=
          std::string::npos);
  }
}
