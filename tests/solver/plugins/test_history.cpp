// The append-only history file of the plugins (solver/plugins/history.hpp): rows reach the
// file only at a flush, a restart keeps the rows up to its step and drops a partial last row,
// and a file with another header is refused and left as it was.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "base/error.hpp"
#include "solver/plugins/history.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/scratch_dir.hpp"

using frmini::UserError;
using frmini::solver::HistoryFile;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
fs::path scratch(const char* name) {
  return frmini::test::scratch_dir("frmini-history") / name;
}
}  // namespace

TEST_CASE("history rows reach the file at flushes, every flushsteps steps", "[history]") {
  const auto p = scratch("a.csv");
  put(p, "old,file\n1,2\n");
  {
    // A run refused before its first flush (another plugin's start failed) changes nothing.
    HistoryFile h;
    h.open(p, "step,t,x", -1, 3, "test");
  }
  CHECK(slurp(p) == "old,file\n1,2\n");
  HistoryFile h;
  h.open(p, "step,t,x", -1, 3, "test");
  h.flush();  // the runner's, once every plugin has started
  CHECK(slurp(p) == "step,t,x\n");  // a fresh run replaces the file
  for (int n = 1; n <= 4; ++n) {
    h.append(std::to_string(n) + ",0.5,1");
    h.step(n);
    if (n == 2) CHECK(slurp(p) == "step,t,x\n");
  }
  CHECK(slurp(p) == "step,t,x\n1,0.5,1\n2,0.5,1\n3,0.5,1\n");
  h.close();
  CHECK(slurp(p) == "step,t,x\n1,0.5,1\n2,0.5,1\n3,0.5,1\n4,0.5,1\n");
  fs::remove(p);
}

TEST_CASE("a restart keeps the rows up to its step and drops a partial last row", "[history]") {
  const auto p = scratch("b.csv");
  put(p, "step,t,x\n0,0,1\n5,0.1,2\n10,0.2,3\n15,0.3,4\n20,0.4");
  for (int twice = 0; twice < 2; ++twice) {
    HistoryFile h;
    h.open(p, "step,t,x", 10, 500, "test");
    CHECK(h.kept().size() == 3);
    CHECK(h.has_row_at(10));
    CHECK_FALSE(h.has_row_at(15));
    h.append("15,0.3,9");
    h.close();
    CHECK(slurp(p) == "step,t,x\n0,0,1\n5,0.1,2\n10,0.2,3\n15,0.3,9\n");
  }
  // Partial last row, from a kill: dropped even below the restart step.
  put(p, "step,t,x\n0,0,1\n5,0.1,2\n10,0.");
  HistoryFile h;
  h.open(p, "step,t,x", 100, 500, "test");
  CHECK(h.kept().size() == 2);
  h.close();
  CHECK(slurp(p) == "step,t,x\n0,0,1\n5,0.1,2\n");
  CHECK(frmini::solver::history_row_field("5,0.1,2", 1) == 0.1);
  fs::remove(p);
}

TEST_CASE("a restart refuses a history with another header and leaves it", "[history]") {
  const auto p = scratch("c.csv");
  put(p, "step,t,y\n0,0,1\n");
  HistoryFile h;
  CHECK_THROWS_AS(h.open(p, "step,t,x", 0, 500, "test"), UserError);
  CHECK(slurp(p) == "step,t,y\n0,0,1\n");
  // A restart with no file yet starts one.
  fs::remove(p);
  h.open(p, "step,t,x", 7, 500, "test");
  h.close();
  CHECK(slurp(p) == "step,t,x\n");
}
