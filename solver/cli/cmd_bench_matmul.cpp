// `frmini bench matmul`: the paper's per-matrix table. For every operator (element types x
// orders x operators) it times each matmul provider on C = A*B (+ beta*C) with n columns,
// twice: at the paper's width with operands hot in the caches where they fit, and rotating
// through enough B/C sets that the working set exceeds the last-level cache (the DRAM figure).
// Every provider's result is checked against 'reference'. Columns: docs/bench-csv.md.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "kernels/backend.hpp"
#include "kernels/matmul/analysis.hpp"
#include "kernels/matmul/auto_tune.hpp"
#include "kernels/matmul/provider.hpp"
#include "operators/antialias.hpp"
#include "operators/operators.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/bench.hpp"

namespace frmini::cli {

namespace {

namespace km = frmini::kernels::matmul;
using frmini::kernels::Backend;
using frmini::kernels::Buffer;
using frmini::kernels::Precision;

// The columns of the CSV, fixed whatever providers ran (absent ones are left empty). On cuda
// `blas` is cuBLASLt with its algorithm search and `cublas` plain cuBLAS.
const std::vector<std::string> csv_providers = {"generated", "blas", "cublas", "xsmm", "auto"};

struct Result {
  bool ran = false;
  std::string strategy, note;
  double t = 0, t_dram = 0, err = 0;
};

struct Row {
  std::string etype, op;
  int order = 0;
  std::size_t m = 0, k = 0, nnz = 0;
  double zero_fraction = 0, beta = 0, min_bytes = 0, flops = 0;
  std::map<std::string, Result> res;
  double speedup(const std::string& peer, bool dram) const {
    auto g = res.find("generated"), p = res.find(peer);
    if (g == res.end() || p == res.end() || !g->second.ran || !p->second.ran) return 0;
    double tp = dram ? p->second.t_dram : p->second.t, tg = dram ? g->second.t_dram : g->second.t;
    return tp > 0 && tg > 0 ? tp / tg : 0;
  }
};

double solver_beta(const std::string& op) { return (op == "M3" || op == "M6") ? 1.0 : 0.0; }

// One B/C operand set on the device.
struct OperandSet {
  std::unique_ptr<Buffer> b, c;
};

// The kernel of `provider` with strategy `strategy` bound to problem p (no tuning: used for
// the extra operand sets of the DRAM figure once the strategy has been chosen).
std::unique_ptr<km::Kernel> bound_kernel(Backend& be, const std::string& provider,
                                         const std::string& strategy, const km::Problem& p) {
  for (const auto& pr : be.matmul_providers())
    if (pr->name() == provider)
      for (auto& k : pr->candidates(p))
        if (k->strategy() == strategy) return std::move(k);
  return nullptr;
}

double max_rel_err(const std::vector<double>& got, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    num = std::max(num, std::abs(got[i] - ref[i]));
    den = std::max(den, std::abs(ref[i]));
  }
  return den > 0 ? num / den : num;
}

// Reads an m x n panel with leading dimension ld as doubles.
std::vector<double> read_panel(Backend& be, const Buffer& buf, Precision p, std::size_t m,
                               std::size_t n, std::size_t ld) {
  std::vector<double> out(m * n);
  if (p == Precision::double_) {
    std::vector<double> h(m * ld);
    be.download(h.data(), buf, 0, h.size() * 8);
    for (std::size_t i = 0; i < m; ++i)
      std::copy(h.begin() + long(i * ld), h.begin() + long(i * ld + n), out.begin() + long(i * n));
  } else {
    std::vector<float> h(m * ld);
    be.download(h.data(), buf, 0, h.size() * 4);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) out[i * n + j] = h[i * ld + j];
  }
  return out;
}

void fill_random(Backend& be, Buffer& buf, Precision p, std::size_t count, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if (p == Precision::double_) {
    std::vector<double> h(count);
    for (auto& x : h) x = u(rng);
    be.upload(buf, 0, h.data(), count * 8);
  } else {
    std::vector<float> h(count);
    for (auto& x : h) x = float(u(rng));
    be.upload(buf, 0, h.data(), count * 4);
  }
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

double geomean(const std::vector<double>& v) {
  double s = 0;
  int n = 0;
  for (double x : v)
    if (x > 0) s += std::log(x), ++n;
  return n ? std::exp(s / n) : 0;
}

struct Settings {
  Precision prec = Precision::double_;
  std::size_t n = 50000;
  int nrep = 10;
  bool use_min = false;
  bool beta_given = false;
  double beta = 0;
  bool dram = true;
  std::vector<std::string> providers;
};

// The statistic of a sample of run times: the median (default) or the minimum (--stat min,
// for machines shared with other work, where preemption only ever adds time).
double stat(const Settings& st, const std::vector<double>& t) {
  return st.use_min ? *std::min_element(t.begin(), t.end()) : km::median(t);
}

Row bench_one(Backend& be, const Settings& st, const std::string& etype, int order,
              const std::string& op, const operators::Matrix& mat) {
  Row row;
  row.etype = etype, row.order = order, row.op = op;
  km::HostMatrix a{mat.rows, mat.cols, mat.data};
  auto an = km::analyse(a, 1.0);
  row.m = an.m, row.k = an.k, row.nnz = an.nnz;
  row.zero_fraction = (an.m > 0 && an.k > 0) ? 1.0 - double(an.nnz) / double(an.m * an.k) : 0;
  row.beta = st.beta_given ? st.beta : solver_beta(op);
  const std::size_t s = kernels::itemsize(st.prec), soa = be.soa_width(st.prec);
  const std::size_t n = st.n, ld = (n + soa - 1) / soa * soa;
  row.min_bytes = an.min_bytes(row.beta, s, n);
  row.flops = an.flops(n);

  const std::size_t bbytes = row.k * ld * s, cbytes = row.m * ld * s;
  OperandSet main{be.alloc(bbytes), be.alloc(cbytes)};
  fill_random(be, *main.b, st.prec, row.k * ld, 1000 + row.k);
  fill_random(be, *main.c, st.prec, row.m * ld, 2000 + row.m);
  std::vector<unsigned char> c0(cbytes);
  be.download(c0.data(), *main.c, 0, cbytes);

  const std::string name = etype + "-p" + std::to_string(order) + "-" + op;
  auto problem = [&](OperandSet& set) {
    km::Problem p;
    p.a = a;
    p.alpha = 1.0;
    p.beta = row.beta;
    p.precision = st.prec;
    p.n = n;
    p.b = {set.b.get(), 0, ld};
    p.c = {set.c.get(), 0, ld};
    p.name = name;
    return p;
  };

  // The oracle.
  auto pref = problem(main);
  auto ref = km::make_kernel(be, "reference", pref);
  ref->run();
  be.synchronize();
  auto cref = read_panel(be, *main.c, st.prec, row.m, n, ld);

  // Extra operand sets so that the rotating working set is >= 4x the last-level cache.
  const std::size_t llc = be.last_level_cache_bytes() ? be.last_level_cache_bytes() : (32u << 20);
  const std::size_t set_bytes = bbytes + cbytes;
  const std::size_t nsets = st.dram ? std::max<std::size_t>(1, (4 * llc + set_bytes - 1) / set_bytes) : 1;
  std::vector<OperandSet> extra;
  for (std::size_t i = 1; i < nsets; ++i) {
    extra.push_back({be.alloc(bbytes), be.alloc(cbytes)});
    fill_random(be, *extra.back().b, st.prec, row.k * ld, 3000 + unsigned(i));
  }

  // Every provider's kernel first (tuned, checked against the oracle), then the timed runs
  // interleaved run by run across providers, so every provider sees the same machine: on a
  // shared VM the memory bandwidth drifts over seconds, and back-to-back series per provider
  // turned that drift into ratios off by up to 1.5x.
  struct Timed {
    std::string prov;
    std::vector<std::unique_ptr<km::Kernel>> ks;  // [0]: main operands; then the extra sets
    std::size_t next = 0;
    std::vector<double> hot, dram;
  };
  std::vector<Timed> timed;
  for (const auto& prov : st.providers) {
    Result r;
    be.upload(*main.c, 0, c0.data(), cbytes);
    std::unique_ptr<km::Kernel> kern;
    try {
      kern = km::make_kernel(be, prov, pref);
    } catch (const UserError& e) {
      r.note = e.what();
      row.res[prov] = r;
      continue;
    }
    r.ran = true;
    r.strategy = kern->strategy();
    be.upload(*main.c, 0, c0.data(), cbytes);
    kern->run();
    be.synchronize();
    r.err = max_rel_err(read_panel(be, *main.c, st.prec, row.m, n, ld), cref);
    row.res[prov] = r;
    Timed t;
    t.prov = prov;
    t.ks.push_back(std::move(kern));
    for (auto& set : extra) {
      auto k = bound_kernel(be, t.ks[0]->provider(), r.strategy, problem(set));
      if (!k) break;
      t.ks.push_back(std::move(k));
    }
    timed.push_back(std::move(t));
  }
  // Hot: the main operands, 2 warm-up runs each, then nrep rounds of one run per provider.
  // Where B and C fit in the last-level cache, each timed run follows 3 untimed runs of the
  // same kernel: a provider leaves C as its stores left it, and a plain-store kernel timed
  // right after a streaming-store one found C out of the cache (quad p3 M460, 12.8 MB C:
  // generated 0.35-0.53 ms after libxsmm's streaming kernel, 0.10-0.12 ms in its own steady
  // state). Larger operands stream from memory whatever ran before.
  const int hot_warmup = set_bytes <= llc ? 3 : 0;
  for (auto& t : timed) be.time_runs([&] { t.ks[0]->run(); }, 2, 0);
  for (int rep = 0; rep < st.nrep; ++rep)
    for (auto& t : timed)
      t.hot.push_back(be.time_runs([&] { t.ks[0]->run(); }, hot_warmup, 1)[0]);
  // DRAM: rotating operand sets (each run on the set after the last), as many rounds. Each
  // provider starts its rotation a 1/(providers) turn after the previous one's: sharing the
  // round's set, the later providers found the operands the first had just pulled into the
  // cache (libxsmm read 186% of triad "from DRAM" on quad p1 M0). So spread, the sets touched
  // between two providers' runs on one set total the whole rotation, >= 4x the LLC.
  for (std::size_t i = 0; i < timed.size(); ++i)
    timed[i].next = (i * timed[i].ks.size()) / timed.size();
  if (nsets > 1) {
    for (auto& t : timed)
      for (std::size_t i = 0; i < t.ks.size(); ++i) be.time_runs([&] { t.ks[i]->run(); }, 1, 0);
    const int rounds = std::max<int>(st.nrep, int(2 * nsets));
    for (int rep = 0; rep < rounds; ++rep)
      for (auto& t : timed)
        t.dram.push_back(be.time_runs(
            [&] {
              t.ks[t.next]->run();
              t.next = (t.next + 1) % t.ks.size();
            },
            0, 1)[0]);
  }
  for (auto& t : timed) {
    Result& r = row.res[t.prov];
    r.t = stat(st, t.hot);
    r.t_dram = !st.dram ? 0 : nsets == 1 ? r.t : stat(st, t.dram);
  }
  return row;
}

}  // namespace

namespace {
int run_bench_matmul(const std::vector<std::string>& argv) {
  ArgParser ap("bench matmul",
               "Times every matmul provider on the FR operators (the paper's Table and "
               "Figure 3): median of >= 10 runs after warm-up, at n columns with operands hot "
               "where they fit in cache, and rotating B/C sets > 4x the last-level cache "
               "(DRAM figure). Results are checked against the reference provider.");
  ap.option("backend", "NAME", "backend: cpu, opencl or cuda", "cpu")
      .option("etype", "LIST", "element types", "quad,hex,tri,tet")
      .option("order", "LIST", "orders, e.g. 1-6 or 2,4", "1-6")
      .option("operator", "LIST", "operators (anti-aliasing's: M7, M1329)", "M0,M3,M6,M132,M460")
      .option("anti-alias", "A", "the operators as [solver] anti-alias makes them: surf-flux moves the "
              "flux points to the face rules (M0, M3 and M6 change shape and turn dense); flux is implied "
              "by M7 or M1329", "none")
      .option("precision", "P", "single or double", "double")
      .option("beta", "B", "beta for every operator: 0 or 1 (default: as the solver: M3, M6 1; others 0)")
      .option("n", "N", "columns of B and C", "50000")
      .option("nrep", "N", "timed runs per figure (median reported; at least 10)", "10")
      .option("stat", "S", "median or min of the timed runs (min: for a busy machine)", "median")
      .option("providers", "LIST", "providers to time, and auto for the solver's own pick (cuda: blas = cuBLASLt "
              "searched, cublas = plain cuBLAS; default: all but reference and auto)")
      .option("threads", "N", "cpu: OpenMP threads (0 = default)", "0")
      .option("csv", "FILE", "write the table as CSV (columns: docs/bench-csv.md)")
      .option("plot", "FILE.png", "write Figure 3 (speedup over blas vs size) with gnuplot")
      .flag("no-dram", "skip the DRAM figure (rotating operand sets)")
      .flag("verbose", "log compilations and tuning decisions");
  Args args = ap.parse(argv);

  kernels::BackendOptions bo;
  bo.threads = int(args.get_int("threads", 0, 4096));
  bo.verbose = args.flag("verbose");
  auto be = kernels::make_backend(args.get("backend"), bo);

  Settings st;
  st.prec = kernels::parse_precision(args.get("precision"), "bench matmul: --precision");
  st.n = std::size_t(args.get_int("n", 1, 100000000));
  st.nrep = int(args.get_int("nrep", 10, 100000));
  st.dram = !args.flag("no-dram");
  st.use_min = args.get_choice("stat", {"median", "min"}) == "min";
  if (args.given("beta")) {
    st.beta_given = true;
    st.beta = args.get_double("beta");
    if (st.beta != 0.0 && st.beta != 1.0)
      throw UserError("bench matmul: --beta: must be 0 or 1");
  }
  std::vector<std::string> offered;
  for (const auto& p : be->matmul_providers())
    if (p->name() != "reference") offered.push_back(p->name());
  if (args.given("providers")) {
    for (const auto& p : args.get_list("providers")) {
      // auto: the solver's own pick among every provider's candidates, all timed in one
      // interleaved tuning run.
      if (p == "reference" ||
          (p != "auto" && std::find(offered.begin(), offered.end(), p) == offered.end())) {
        std::string all;
        for (const auto& o : offered) all += (all.empty() ? "" : ", ") + o;
        throw UserError("bench matmul: --providers: '" + p + "' is not a provider of backend " +
                        be->name() + " (choose from " + all + ", auto)");
      }
      st.providers.push_back(p);
    }
  } else {
    st.providers = offered;
  }
  auto etypes = args.get_list("etype");
  auto orders = args.get_int_list("order", 0, 8);
  auto opnames = args.get_list("operator");
  // The anti-aliasing products (M7, M1329) are made with PyFR's default quadrature rule.
  const std::vector<std::string> antialias_ops = {"M7", "M1329"};
  const std::string aa = args.get("anti-alias");
  if (aa != "none" && aa != "flux" && aa != "surf-flux" && aa != "flux,surf-flux")
    throw UserError("bench matmul: --anti-alias: unknown value '" + aa +
                    "' (choose from none, flux, surf-flux, flux,surf-flux)");
  const bool surf = aa == "surf-flux" || aa == "flux,surf-flux";
  bool antialias = aa == "flux" || aa == "flux,surf-flux";
  for (const auto& o : opnames) {
    const bool aa = std::find(antialias_ops.begin(), antialias_ops.end(), o) != antialias_ops.end();
    antialias |= aa;
    if (!aa && std::find(operators::solver_operator_names().begin(), operators::solver_operator_names().end(),
                         o) == operators::solver_operator_names().end())
      throw UserError("bench matmul: --operator: unknown operator '" + o +
                      "' (choose from M0, M3, M6, M132, M460, and for anti-aliasing M7, M1329)");
  }

  const auto& bw = be->bandwidth();
  const double tol = st.prec == Precision::double_ ? 1e-12 : 1e-5;
  std::cout << "# frmini bench matmul: backend " << be->name() << " (" << be->device_description()
            << "), " << kernels::to_string(st.prec) << ", n = " << st.n << ", "
            << (st.use_min ? "minimum" : "median") << " of "
            << st.nrep << " runs\n"
            << "# measured bandwidth: copy " << fmt("%.1f", bw.copy_gbs) << " GB/s, triad "
            << fmt("%.1f", bw.triad_gbs) << " GB/s; last-level cache "
            << be->last_level_cache_bytes() / (1 << 20) << " MiB\n"
            << "# GB/s on the minimum-bytes metric; %tri = of triad; 'dram' = rotating operand "
               "sets > 4x LLC; speedup = peer time / generated time\n";

  // Table header.
  std::ostringstream hdr;
  hdr << "etype order op     m     k    nnz  zero%  beta";
  for (const auto& p : st.providers)
    hdr << " | " << p << ": ms  strategy              GB/s  %tri GFLOP/s   maxrelerr  dram-ms %tri";
  for (const auto& p : st.providers)
    if (p != "generated") hdr << " | x" << p << " x" << p << "-dram";
  std::cout << hdr.str() << "\n";

  std::vector<Row> rows;
  bool bad = false;
  for (const auto& et : etypes)
    for (long order : orders) {
      auto ops = operators::build_operators(et, int(order));
      if (surf) operators::add_surface_antialias(ops);
      if (antialias) operators::add_flux_antialias(ops);
      for (const auto& op : opnames) {
        Row r = bench_one(*be, st, et, int(order), op, operators::get(ops, op));
        std::ostringstream line;
        char head[160];
        std::snprintf(head, sizeof head, "%-5s %5d %-5s %5zu %5zu %6zu %6.1f %5.2g", et.c_str(),
                      int(order), op.c_str(), r.m, r.k, r.nnz, 100 * r.zero_fraction, r.beta);
        line << head;
        for (const auto& p : st.providers) {
          const auto& x = r.res[p];
          if (!x.ran) {
            line << " | " << p << ": declined (" << x.note << ")";
            continue;
          }
          char cell[256];
          double gbs = r.min_bytes / x.t * 1e-9, gbs_d = x.t_dram > 0 ? r.min_bytes / x.t_dram * 1e-9 : 0;
          std::snprintf(cell, sizeof cell, " | %9.3f %-20s %7.1f %5.0f %7.1f %11.2e %8.3f %4.0f",
                        x.t * 1e3, x.strategy.substr(0, 20).c_str(), gbs, 100 * gbs / bw.triad_gbs,
                        r.flops / x.t * 1e-9, x.err, x.t_dram * 1e3, 100 * gbs_d / bw.triad_gbs);
          line << cell;
          if (!(x.err <= tol)) {
            line << " FAIL";
            bad = true;
          }
        }
        for (const auto& p : st.providers)
          if (p != "generated")
            line << " | " << fmt("%6.2f", r.speedup(p, false)) << " " << fmt("%6.2f", r.speedup(p, true));
        std::cout << line.str() << std::endl;
        rows.push_back(std::move(r));
      }
    }

  // Geomeans.
  std::ostringstream gl;
  gl << "geomean (" << rows.size() << " operators)";
  for (const auto& p : st.providers) {
    std::vector<double> pct, pctd;
    for (const auto& r : rows) {
      const auto& x = r.res.at(p);
      if (!x.ran) continue;
      pct.push_back(r.min_bytes / x.t * 1e-9 / bw.triad_gbs);
      if (x.t_dram > 0) pctd.push_back(r.min_bytes / x.t_dram * 1e-9 / bw.triad_gbs);
    }
    gl << " | " << p << ": %triad " << fmt("%.0f", 100 * geomean(pct)) << " (dram "
       << fmt("%.0f", 100 * geomean(pctd)) << ")";
  }
  for (const auto& p : st.providers) {
    if (p == "generated") continue;
    std::vector<double> s, sd;
    double mn = 1e30;
    for (const auto& r : rows) {
      if (double v = r.speedup(p, false); v > 0) s.push_back(v), mn = std::min(mn, v);
      if (double v = r.speedup(p, true); v > 0) sd.push_back(v);
    }
    if (!s.empty())
      gl << " | generated/" << p << " " << fmt("%.2f", geomean(s)) << "x (min "
         << fmt("%.2f", mn) << ", dram " << fmt("%.2f", geomean(sd)) << "x)";
  }
  std::cout << gl.str() << "\n";

  if (args.given("csv")) {
    std::ostringstream c;
    c << "etype,order,operator,m,k,nnz,zero_fraction,beta,precision,n,min_bytes,triad_gbs";
    for (const auto& p : csv_providers)
      c << "," << p << "_strategy," << p << "_ms," << p << "_gbs," << p << "_pct_triad," << p
        << "_gflops," << p << "_max_rel_err," << p << "_dram_ms," << p << "_dram_gbs," << p
        << "_dram_pct_triad";
    c << ",speedup_vs_blas,speedup_vs_xsmm,dram_speedup_vs_blas,dram_speedup_vs_xsmm"
      << ",speedup_vs_cublas,dram_speedup_vs_cublas\n";
    for (const auto& r : rows) {
      c << r.etype << "," << r.order << "," << r.op << "," << r.m << "," << r.k << "," << r.nnz
        << "," << fmt("%.6f", r.zero_fraction) << "," << r.beta << ","
        << kernels::to_string(st.prec) << "," << st.n << "," << fmt("%.0f", r.min_bytes) << ","
        << fmt("%.2f", bw.triad_gbs);
      for (const auto& p : csv_providers) {
        auto it = r.res.find(p);
        if (it == r.res.end() || !it->second.ran) {
          c << ",,,,,,,,,";
          continue;
        }
        const auto& x = it->second;
        double gbs = r.min_bytes / x.t * 1e-9, gd = x.t_dram > 0 ? r.min_bytes / x.t_dram * 1e-9 : 0;
        c << "," << x.strategy << "," << fmt("%.5f", x.t * 1e3) << "," << fmt("%.3f", gbs) << ","
          << fmt("%.2f", 100 * gbs / bw.triad_gbs) << "," << fmt("%.3f", r.flops / x.t * 1e-9)
          << "," << fmt("%.3e", x.err) << "," << fmt("%.5f", x.t_dram * 1e3) << ","
          << fmt("%.3f", gd) << "," << fmt("%.2f", 100 * gd / bw.triad_gbs);
      }
      auto sp = [&](const std::string& p, bool d) {
        double v = r.speedup(p, d);
        return v > 0 ? fmt("%.4f", v) : std::string();
      };
      c << "," << sp("blas", false) << "," << sp("xsmm", false) << "," << sp("blas", true) << ","
        << sp("xsmm", true) << "," << sp("cublas", false) << "," << sp("cublas", true) << "\n";
    }
    write_text_atomically(args.get("csv"), c.str());
  }

  if (args.given("plot")) {
    std::vector<SpeedupPoint> pts;
    for (const auto& r : rows)
      pts.push_back({double(r.m * r.k), r.zero_fraction, r.speedup("blas", false),
                     r.etype + std::to_string(r.order) + r.op});
    plot_speedups(args.get("plot"),
                  "generated vs blas, " + std::string(kernels::to_string(st.prec)) + ", n = " +
                      std::to_string(st.n) + " (" + be->name() + ")",
                  "speedup over blas", pts);
  }
  if (bad) {
    std::cerr << "frmini: internal error: a provider's result differs from the reference by more "
                 "than "
              << tol << " (rows marked FAIL)\n";
    return 1;
  }
  return 0;
}

[[maybe_unused]] const bool registered = register_bench(
    {"matmul", "per-operator matmul table: generated vs blas vs xsmm (paper's Table/Figure 3)",
     run_bench_matmul});
}

}  // namespace frmini::cli
