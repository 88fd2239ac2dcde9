#include "kernels/cuda/resource_table.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

#include "kernels/cuda/compiler.hpp"
#include "kernels/cuda/matmul_source.hpp"

namespace frmini::kernels::cuda {

std::vector<ResourceRow> resource_table(const std::vector<NamedOperator>& ops,
                                        const std::vector<Precision>& precisions,
                                        const std::vector<double>& betas,
                                        const TableOptions& o) {
  struct Task {
    const matmul::Analysis* a;
    Strategy s;
    SourceParams sp;
    ResourceRow row;
  };
  std::vector<matmul::Analysis> analyses;
  analyses.reserve(ops.size());
  for (auto& op : ops) analyses.push_back(matmul::analyse(op.a, 1.0));
  std::vector<Task> tasks;
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (Precision p : precisions)
      for (double beta : betas) {
        auto strategies = plan(analyses[i], p);
        if (o.first_only && !strategies.empty()) {
          // The first strategy, the next one of another shape (width 1 preferred) and the first
          // k-split: ptxas spills some dense kernels the cost model accepts.
          std::vector<Strategy> keep{strategies.front()};
          auto other = [&](bool w1) {
            for (std::size_t x = 1; x < strategies.size(); ++x)
              if (strategies[x].shape != keep.front().shape && (!w1 || strategies[x].width == 1))
                return x;
            return std::size_t(0);
          };
          if (std::size_t x = other(true) ? other(true) : other(false)) keep.push_back(strategies[x]);
          for (std::size_t x = 1; x < strategies.size(); ++x)  // and the first k-split
            if (strategies[x].shape == Shape::ksplit) {
              if (strategies[x].name != keep.back().name) keep.push_back(strategies[x]);
              break;
            }
          strategies = keep;
        }
        for (auto& s : strategies) {
          Task t{&analyses[i], s, SourceParams{p, beta, o.ld, o.ld, "frmini_mm"}, {}};
          t.row.op = ops[i].name;
          t.row.m = analyses[i].m;
          t.row.k = analyses[i].k;
          t.row.nnz = analyses[i].nnz;
          t.row.precision = p;
          t.row.beta = beta;
          t.row.strategy = s.name;
          t.row.est_regs = s.est_regs;
          tasks.push_back(std::move(t));
        }
      }
  // Largest sources first, so the long compiles do not end up alone at the tail.
  std::vector<std::size_t> order(tasks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return tasks[x].a->nnz > tasks[y].a->nnz;
  });
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  auto work = [&] {
    for (std::size_t q; !failed && (q = next++) < order.size();) {
      Task& t = tasks[order[q]];
      try {
        auto t0 = std::chrono::steady_clock::now();
        auto r = Compiler::instance().compile_cubin(matmul_source(*t.a, t.s, t.sp), o.arch,
                                                    t.s.nvrtc_flags, o.use_cache);
        t.row.seconds = r.from_cache ? 0.0
                                     : std::chrono::duration<double>(
                                           std::chrono::steady_clock::now() - t0)
                                           .count();
        t.row.res = r.resources[t.sp.name];
      } catch (...) {
        if (!failed.exchange(true)) error = std::current_exception();
      }
    }
  };
  unsigned nt = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < nt; ++i) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
  std::vector<ResourceRow> rows;
  for (auto& t : tasks) rows.push_back(std::move(t.row));
  return rows;
}

std::string to_csv(const std::vector<ResourceRow>& rows) {
  std::string out =
      "operator,m,k,nnz,precision,beta,strategy,est_regs,registers,spill_stores,spill_loads,"
      "stack_frame,shared,compile_s\n";
  char buf[512];
  for (auto& r : rows) {
    std::snprintf(buf, sizeof buf, "%s,%zu,%zu,%zu,%s,%g,%s,%d,%d,%d,%d,%d,%d,%.2f\n",
                  r.op.c_str(), r.m, r.k, r.nnz, to_string(r.precision), r.beta,
                  r.strategy.c_str(), r.est_regs, r.res.registers, r.res.spill_stores,
                  r.res.spill_loads, r.res.stack_frame, r.res.shared, r.seconds);
    out += buf;
  }
  return out;
}

}  // namespace frmini::kernels::cuda
