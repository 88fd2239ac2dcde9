#include "kernels/matmul/auto_tune.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "base/error.hpp"
#include "kernels/cache.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels::matmul {

namespace {

std::mutex log_mutex;
std::vector<TuneRecord>& log_store() {
  static std::vector<TuneRecord> log;
  return log;
}

// The bytes of C's panel that a product may touch: rows 0..m-1, columns 0..n-1.
std::size_t c_extent_bytes(const Problem& p) {
  if (p.m() == 0 || p.n == 0) return 0;
  return ((p.m() - 1) * p.c.ld + p.n) * itemsize(p.precision);
}

// Saves C on construction and restores it on destruction, so timing runs (which for beta != 0
// accumulate into C) leave the caller's operands exactly as they were, even on exceptions.
class SavedPanel {
 public:
  SavedPanel(Backend& be, const Problem& p) : be_(be), p_(p), host_(c_extent_bytes(p)) {
    if (!host_.empty())
      be_.download(host_.data(), *p_.c.buf, p_.c.offset * itemsize(p_.precision), host_.size());
  }
  ~SavedPanel() {
    if (host_.empty()) return;
    be_.synchronize();
    be_.upload(*p_.c.buf, p_.c.offset * itemsize(p_.precision), host_.data(), host_.size());
    be_.synchronize();
  }
  SavedPanel(const SavedPanel&) = delete;
  SavedPanel& operator=(const SavedPanel&) = delete;

 private:
  Backend& be_;
  const Problem& p_;
  std::vector<unsigned char> host_;
};

std::string fmt_double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Everything a decision depends on. The operands' addresses are not in it: alignment is folded
// in through the offsets (a provider may decline unaligned panels).
std::string cache_key(Backend& be, const Problem& p, const std::string& mode,
                      const std::vector<std::shared_ptr<Provider>>& providers,
                      const std::string& candidate_names) {
  std::ostringstream s;
  s << "v1|" << be.name() << "|" << be.device_description() << "|" << mode << "|"
    << hex64(hash_matrix(p.a)) << "|" << fmt_double(p.alpha) << "|" << fmt_double(p.beta) << "|"
    << to_string(p.precision) << "|" << p.n << "|" << p.b.ld << "|" << p.c.ld << "|"
    << p.b.offset % 64 << "|" << p.c.offset % 64 << "|" << p.block;
  for (const auto& pr : providers) s << "|" << pr->name();
  s << "|" << candidate_names;
  std::string text = s.str();
  return "autotune/" + be.name() + "-" + hex64(fnv1a(text.data(), text.size()));
}

bool cache_enabled(const TuneOptions& opts) {
  if (!opts.use_cache) return false;
  const char* e = std::getenv("FRMINI_TUNE_CACHE");
  return !(e && std::string(e) == "0");
}

void record(Backend& be, TuneRecord rec) {
  if (be.verbose()) {
    std::ostringstream s;
    s << "frmini: matmul " << rec.problem << " [" << rec.mode << "]: " << rec.provider << "/"
      << rec.strategy;
    if (rec.from_cache)
      s << " (cached decision)";
    else {
      s << " " << rec.seconds * 1e3 << " ms;";
      for (const auto& [name, t] : rec.timings) {
        s << " " << name;
        if (t >= 0) s << "=" << t * 1e3 << "ms";
      }
    }
    std::cerr << s.str() << "\n";
  }
  std::lock_guard<std::mutex> lock(log_mutex);
  log_store().push_back(std::move(rec));
}

}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

std::unique_ptr<Kernel> pick_fastest(Backend& backend, const Problem& p,
                                     std::vector<std::unique_ptr<Kernel>> candidates,
                                     const TuneOptions& opts, TuneRecord* rec) {
  if (candidates.empty()) throw std::logic_error("pick_fastest: no candidates");
  if (candidates.size() == 1) {
    if (rec) {
      rec->provider = candidates[0]->provider();
      rec->strategy = candidates[0]->strategy();
    }
    return std::move(candidates[0]);
  }
  std::size_t best = 0;
  double best_t = 0;
  {
    SavedPanel saved(backend, p);
    // A product that will run in a cache-blocked chain is timed as it will run there.
    std::vector<std::function<void()>> once;
    for (auto& c : candidates) {
      Kernel* k = c.get();
      once.push_back(p.block ? std::function<void()>([&backend, k, &p] {
        backend.run_chain(int64_t(p.n), int64_t(p.block), {[k](int64_t b, int64_t e) {
                            k->run_columns(std::size_t(b), std::size_t(e));
                          }});
      })
                             : std::function<void()>([k] { k->run(); }));
    }
    // Round-robin: each round runs every candidate once, so a drift in the machine's speed
    // (neighbours on a VM, clock changes) reaches every candidate alike instead of favouring
    // whichever was timed in a quiet moment. Each keeps its fastest run: preemption only
    // ever adds time, so the minimum is the most reproducible estimate.
    std::vector<double> t(candidates.size(), 0.0);
    for (std::size_t i = 0; i < candidates.size(); ++i)
      t[i] = backend.time_runs(once[i], opts.warmup, 1).front();
    for (int r = 1; r < opts.nrep; ++r)
      for (std::size_t i = 0; i < candidates.size(); ++i)
        t[i] = std::min(t[i], backend.time_runs(once[i], 0, 1).front());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      Kernel* k = candidates[i].get();
      if (rec) rec->timings.emplace_back(k->provider() + "/" + k->strategy(), t[i]);
      if (i == 0 || t[i] < opts.ifac * best_t) {
        best = i;
        best_t = t[i];
      }
    }
  }
  if (rec) {
    rec->provider = candidates[best]->provider();
    rec->strategy = candidates[best]->strategy();
    rec->seconds = best_t;
  }
  return std::move(candidates[best]);
}

std::unique_ptr<Kernel> tune(Backend& backend,
                             const std::vector<std::shared_ptr<Provider>>& providers,
                             const Problem& p, const std::string& mode, const TuneOptions& opts) {
  TuneRecord rec;
  rec.problem = p.name;
  rec.mode = mode;

  // 'reference' is a test oracle, never a contender, unless it is all that was asked for.
  std::vector<std::shared_ptr<Provider>> asked;
  for (const auto& pr : providers)
    if (pr->name() != "reference" || providers.size() == 1) asked.push_back(pr);

  // Every candidate first (compilation is cached on disk, so this is cheap on a re-run): the
  // decision's key includes the candidates' names, so a new strategy invalidates old decisions.
  std::vector<std::unique_ptr<Kernel>> all;
  std::string reasons, names;
  for (const auto& pr : asked) {
    std::string why;
    auto ks = pr->candidates(p, &why);
    if (ks.empty()) {
      rec.timings.emplace_back(pr->name() + ": declined (" + why + ")", -1.0);
      reasons += (reasons.empty() ? "" : "; ") + pr->name() + ": " + (why.empty() ? "declined" : why);
    }
    for (auto& k : ks) {
      names += "|" + k->provider() + "/" + k->strategy();
      all.push_back(std::move(k));
    }
  }
  if (all.empty() && asked.size() == 1 && asked[0]->name() == mode)
    throw UserError("matmul provider '" + mode + "' declines " + p.name + ": " +
                    (reasons.size() > mode.size() + 2 ? reasons.substr(mode.size() + 2) : "no reason given"));
  if (all.empty())
    throw UserError("matmul " + p.name + ": no provider accepts this product (" + reasons + ")");

  const bool use_cache = cache_enabled(opts);
  const std::string key = cache_key(backend, p, mode, asked, names);
  if (use_cache) {
    if (auto hit = cache_read(key)) {
      std::istringstream s(*hit);
      std::string prov, strat;
      s >> prov >> strat;
      for (auto& k : all)
        if (k->provider() == prov && k->strategy() == strat) {
          rec.provider = prov;
          rec.strategy = strat;
          rec.from_cache = true;
          record(backend, rec);
          return std::move(k);
        }
    }
  }

  auto best = pick_fastest(backend, p, std::move(all), opts, &rec);
  if (use_cache) cache_write(key, rec.provider + " " + rec.strategy + "\n");
  record(backend, rec);
  return best;
}

std::vector<TuneRecord> tuning_log() {
  std::lock_guard<std::mutex> lock(log_mutex);
  return log_store();
}

void clear_tuning_log() {
  std::lock_guard<std::mutex> lock(log_mutex);
  log_store().clear();
}

}  // namespace frmini::kernels::matmul
