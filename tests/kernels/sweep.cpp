#include "tests/kernels/sweep.hpp"

#include "tests/frmini_catch.hpp"
#include "tests/kernels/matmul_harness.hpp"

namespace frmini::test {

namespace {
std::shared_ptr<km::Provider> find_provider(Backend& be, const std::string& name) {
  for (const auto& p : be.matmul_providers())
    if (p->name() == name) return p;
  return nullptr;
}
}  // namespace

SweepStats sweep_operator(Backend& be, const km::HostMatrix& a, const std::string& name,
                          Precision prec, double beta, const std::vector<std::string>& providers) {
  SweepStats st;
  // Ragged widths (not multiples of the SIMD width, nor of libxsmm's 16-column chunk), round ones.
  const std::vector<std::size_t> ns{1, 31, 33, 1000, 1024, 4099};
  const std::size_t soa = be.soa_width(prec);
  const std::size_t ld = (ns.back() + soa - 1) / soa * soa + soa;
  const double tol = prec == Precision::double_ ? 1e-12 : 1e-5;
  const double alpha = 1.0;
  Operands ops(be, prec, a.rows, a.cols, ld, ld, soa, soa);

  auto ref = find_provider(be, "reference");
  REQUIRE(ref);
  auto refk = ref->candidates(ops.problem(a, alpha, beta, ns.back(), name));
  REQUIRE(refk.size() == 1);
  std::vector<std::vector<double>> cref;
  for (std::size_t n : ns) {
    ops.reset_c();
    refk[0]->run_columns(0, n);
    cref.push_back(ops.read_c());
  }

  for (const auto& pname : providers) {
    auto prov = find_provider(be, pname);
    if (!prov) continue;  // e.g. xsmm not built
    // Kernels are built once for the widest n and run over narrower column ranges [0, n).
    std::string why;
    auto ks = prov->candidates(ops.problem(a, alpha, beta, ns.back(), name), &why);
    if (ks.empty()) {
      ++st.declined;
      INFO(pname << " declined " << name << ": " << why);
      CHECK(pname == "xsmm");
      continue;
    }
    for (auto& k : ks)
      for (std::size_t nj = 0; nj < ns.size(); ++nj) {
        ops.reset_c();
        k->run_columns(0, ns[nj]);
        double err = product_error(ops.read_c(), cref[nj], a.rows, ns[nj], ld, soa);
        INFO(name << " " << kernels::to_string(prec) << " beta=" << beta << " n=" << ns[nj]
                  << " " << k->provider() << "/" << k->strategy() << " error " << err);
        REQUIRE(err <= tol);
        ++st.checked;
      }
  }
  return st;
}

}  // namespace frmini::test
