// `frmini bench scaling`: strong scaling of a case over MPI ranks. Each rank count runs the case
// as `mpirun -np N frmini run CASE --steps S --no-plugins` (one rank: frmini alone), in a
// scratch folder, and the run report gives the median time per step (whole synchronised steps
// after the first) and, over several ranks, what each rank's halo exchange sent per step and
// how long it waited for it (timing.cpp). Rounds alternate the order of the rank counts, so the
// load of a shared machine falls on all alike; the table gives medians over the rounds.
// Parallel efficiency is t(1) / (N t(N)) against the first rank count's time scaled to one rank.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "solver/case/case.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/bench.hpp"
#include "solver/comm/comm.hpp"

namespace frmini::cli {

namespace {

namespace fs = std::filesystem;

// What one run's report says.
struct Measure {
  double s_per_step = 0;
  double mb_mean = 0, mb_max = 0, messages = 0, neighbours = 0, elements = 0, wait_ms = 0,
         wait_ms_max = 0;
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string tail(const std::string& text, std::size_t lines) {
  std::size_t pos = text.size();
  for (std::size_t n = 0; n <= lines && pos > 0; ++n) pos = text.rfind('\n', pos - 1);
  return pos == std::string::npos ? text : text.substr(pos + 1);
}

// Runs argv with `env` added, stdout and stderr into `log`, in folder `dir`; the exit status.
int spawn(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
          const fs::path& dir, const fs::path& log) {
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("bench scaling: fork failed");
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::chdir(dir.c_str()) != 0) ::_exit(127);
    ::dup2(fd, 1), ::dup2(fd, 2);
    for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "cannot start %s\n", args[0]);
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Measure parse_report(const std::string& log, int ranks, const std::string& what) {
  Measure m;
  std::smatch s;
  static const std::regex step(R"(time per step   median ([0-9.eE+-]+) s)");
  if (!std::regex_search(log, s, step))
    throw UserError("bench scaling: " + what + ": no time per step in its report:\n" + tail(log, 20));
  m.s_per_step = std::stod(s[1]);
  if (ranks > 1) {
    static const std::regex halo(
        R"(halo exchange   ([0-9.eE+-]+) MB sent per step per rank \(mean; max ([0-9.eE+-]+) MB\), )"
        R"(([0-9.eE+-]+) messages per step per rank, up to ([0-9]+) neighbours, ([0-9]+) elements )"
        R"(per rank \(max\); waited ([0-9.eE+-]+) ms per step \(mean; max ([0-9.eE+-]+) ms\))");
    if (!std::regex_search(log, s, halo))
      throw UserError("bench scaling: " + what + ": no halo exchange line in its report:\n" + tail(log, 20));
    m.mb_mean = std::stod(s[1]), m.mb_max = std::stod(s[2]), m.messages = std::stod(s[3]);
    m.neighbours = std::stod(s[4]), m.elements = std::stod(s[5]);
    m.wait_ms = std::stod(s[6]), m.wait_ms_max = std::stod(s[7]);
  }
  return m;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int bench_scaling(const std::vector<std::string>& argv) {
  ArgParser p("bench scaling",
              "Strong scaling of a case over MPI ranks: time per step, speedup and parallel "
              "efficiency, and the bytes each rank's halo exchange sends per step, for each "
              "rank count (mpirun -np N frmini run CASE --steps S --no-plugins).");
  p.option("case", "FILE.toml", "the case to time (its plugins are left out)")
      .option("ranks", "LIST", "rank counts, e.g. 1,2,4 (more than the cores: oversubscribed)", "1,2")
      .option("steps", "N", "steps per run (the first, with compilation, is left out)", "20")
      .option("repeats", "N", "rounds, each running every rank count, in alternating order", "3")
      .option("threads", "N", "OpenMP threads per rank (OMP_NUM_THREADS)", "1")
      .option("backend", "NAME", "cpu, opencl or cuda (overrides the case's)")
      .option("matmul", "NAME", "matmul provider (overrides the case's)")
      .option("precision", "P", "single or double (overrides the case's)")
      .option("order", "P", "polynomial order (overrides the case's)")
      .option("mpirun", "CMD", "the MPI launcher and its options (default: the one found at build "
                               "time, with --oversubscribe)")
      .option("csv", "FILE", "also write the table as CSV (tools/scaling-model reads it)")
      .flag("allow-run-as-root", "pass --allow-run-as-root to Open MPI's launcher (CI, containers)")
      .epilog("The halo bytes are counted by the runs themselves on the case's METIS parts, so they\n"
              "hold for any machine; the times hold for this one. tools/scaling-model extrapolates\n"
              "the table to many nodes (docs/performance.md, Strong scaling).");
  Args a = p.parse(argv);
  if (!a.given("case")) throw UserError("bench scaling: --case FILE.toml is required");
  const fs::path casefile = fs::absolute(a.get("case"));
  auto ranks = a.get_int_list("ranks", 1, 4096);
  if (ranks.empty()) throw UserError("bench scaling: --ranks: no rank count");
  const long steps = a.get_int("steps", 2, 1000000);
  const long repeats = a.get_int("repeats", 1, 1000);
  const long threads = a.get_int("threads", 1, 4096);
  auto k = solver::load_case(casefile.string());  // a bad case is refused before any run

  std::vector<std::string> launcher;
  {
    std::string cmd = a.given("mpirun") ? a.get("mpirun") : std::string(FRMINI_MPIEXEC);
    if (!a.given("mpirun") && !cmd.empty()) cmd += " --oversubscribe";
    std::istringstream in(cmd);
    for (std::string w; in >> w;) launcher.push_back(w);
    if (a.given("allow-run-as-root")) launcher.push_back("--allow-run-as-root");
  }
  const bool multi = std::any_of(ranks.begin(), ranks.end(), [](long n) { return n > 1; });
  if (multi && (solver::comm::description() == "no MPI in this build" || launcher.empty()))
    throw UserError("bench scaling: built without MPI (" + solver::comm::description() +
                    "): only --ranks 1 can run");

  const std::string self = fs::read_symlink("/proc/self/exe").string();
  std::vector<std::string> run_args = {self, "run", casefile.string(), "--steps",
                                       std::to_string(steps), "--no-plugins", "--quiet"};
  for (const char* o : {"backend", "matmul", "precision", "order"})
    if (a.given(o)) run_args.insert(run_args.end(), {std::string("--") + o, a.get(o)});
  const std::map<std::string, std::string> env = {{"OMP_NUM_THREADS", std::to_string(threads)}};

  const fs::path scratch = fs::temp_directory_path() / ("frmini-scaling-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{scratch};

  std::printf("%s: %s, %lld elements, order %s, %s; %ld steps a run, %ld rounds, %ld OpenMP "
              "thread(s) a rank, %u hardware threads here\n",
              casefile.filename().c_str(), k.mesh_source.c_str(), (long long)k.mesh.total_elements(),
              a.given("order") ? a.get("order").c_str() : std::to_string(k.sys.order).c_str(),
              a.given("backend") ? a.get("backend").c_str() : k.backend.c_str(), steps, repeats,
              threads, std::thread::hardware_concurrency());
  std::fflush(stdout);
  std::map<long, std::vector<Measure>> got;
  for (long r = 0; r < repeats; ++r)
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const long n = ranks[r % 2 ? ranks.size() - 1 - i : i];
      const fs::path dir = scratch / ("np" + std::to_string(n) + "-" + std::to_string(r));
      fs::create_directories(dir);
      std::vector<std::string> cmd;
      if (n > 1) {
        cmd = launcher;
        cmd.insert(cmd.end(), {"-np", std::to_string(n)});
      }
      cmd.insert(cmd.end(), run_args.begin(), run_args.end());
      const std::string what = std::to_string(n) + " rank" + (n > 1 ? "s" : "");
      const int rc = spawn(cmd, env, dir, dir / "log");
      const std::string log = read_text(dir / "log");
      if (rc != 0)
        throw UserError("bench scaling: the run on " + what + " exited with status " +
                        std::to_string(rc) + ":\n" + tail(log, 20));
      got[n].push_back(parse_report(log, int(n), "the run on " + what));
      std::printf("  round %ld, %4ld rank(s): %.4g s/step\n", r + 1, n, got[n].back().s_per_step);
      std::fflush(stdout);
    }

  // Medians over the rounds; speedup and efficiency against the first rank count.
  auto med = [&](long n, double Measure::*f) {
    std::vector<double> v;
    for (const auto& m : got[n]) v.push_back(m.*f);
    return median(v);
  };
  const long n0 = ranks.front();
  const double t0 = med(n0, &Measure::s_per_step);
  std::printf("\n%6s %10s %12s %9s %11s %13s %13s %9s %11s %12s\n", "ranks", "elements", "s/step",
              "speedup", "efficiency", "halo MB/step", "(max rank)", "messages", "neighbours",
              "wait ms/step");
  std::string csv = "ranks,threads_per_rank,elements_per_rank_max,total_elements,s_per_step,speedup,"
                    "efficiency,halo_mb_per_step_per_rank,halo_mb_per_step_max_rank,messages_per_step,"
                    "neighbours_max,wait_ms_per_step\n";
  for (long n : ranks) {
    const double t = med(n, &Measure::s_per_step);
    const double speedup = t0 / t * 1.0, eff = t0 * double(n0) / (t * double(n));
    const double elems = n > 1 ? med(n, &Measure::elements) : double(k.mesh.total_elements());
    std::printf("%6ld %10.0f %12.4g %8.2fx %10.0f%% %13.4g %13.4g %9.3g %11.0f %12.4g\n", n, elems,
                t, speedup, 100 * eff, med(n, &Measure::mb_mean), med(n, &Measure::mb_max),
                med(n, &Measure::messages), med(n, &Measure::neighbours), med(n, &Measure::wait_ms));
    char b[400];
    std::snprintf(b, sizeof b, "%ld,%ld,%.0f,%lld,%.6e,%.4f,%.4f,%.6g,%.6g,%.4g,%.0f,%.6g\n", n,
                  threads, elems, (long long)k.mesh.total_elements(), t, speedup, eff,
                  med(n, &Measure::mb_mean), med(n, &Measure::mb_max), med(n, &Measure::messages),
                  med(n, &Measure::neighbours), med(n, &Measure::wait_ms));
    csv += b;
  }
  if (std::any_of(ranks.begin(), ranks.end(),
                  [&](long n) { return unsigned(n * threads) > std::thread::hardware_concurrency(); }))
    std::printf("(rank counts times threads beyond the %u hardware threads are oversubscribed: their "
                "times measure sharing, their halo bytes hold on any machine)\n",
                std::thread::hardware_concurrency());
  if (a.given("csv")) write_text_atomically(a.get("csv"), csv);
  return 0;
}

}  // namespace

static const bool registered = register_bench(
    {"scaling", "strong scaling of a case over MPI ranks: s/step, efficiency, halo bytes per rank",
     bench_scaling});

}  // namespace frmini::cli
