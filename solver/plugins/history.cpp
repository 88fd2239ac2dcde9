#include "solver/plugins/history.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/error.hpp"

namespace frmini::solver {

int64_t history_row_step(const std::string& row) {
  if (row.empty() || row[0] < '0' || row[0] > '9') return -1;
  char* end = nullptr;
  const long long n = std::strtoll(row.c_str(), &end, 10);
  return (*end == ',' || *end == 0) ? int64_t(n) : -1;
}

double history_row_field(const std::string& row, std::size_t i) {
  std::size_t b = 0;
  for (std::size_t k = 0; k < i; ++k) {
    b = row.find(',', b);
    if (b == std::string::npos) return std::nan("");
    ++b;
  }
  const char* s = row.c_str() + b;
  char* end = nullptr;
  const double x = std::strtod(s, &end);
  return (end == s || (*end != ',' && *end != 0)) ? std::nan("") : x;
}

HistoryFile::~HistoryFile() {
  try {
    if (fd_ >= 0) close();  // never created: the run stopped before its first step
  } catch (...) {
    // A full disk at the end of a run that is failing anyway: the file keeps its whole rows.
  }
}

void HistoryFile::open(const std::filesystem::path& path, const std::string& header,
                       int64_t restart_step, int64_t flushsteps, const std::string& where) {
  close();
  path_ = path, where_ = where, flushsteps_ = flushsteps > 0 ? flushsteps : 1;
  kept_.clear(), pending_.clear();
  std::string text = header + "\n";
  if (restart_step >= 0) {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::stringstream ss;
      ss << in.rdbuf();
      const std::string old = ss.str();
      const std::size_t eol = old.find('\n');
      const std::string got = old.substr(0, eol);
      if (got != header)
        throw UserError(where + ": " + path.string() + " holds another history (header '" + got +
                        "', this run writes '" + header + "'); it is left as it is: move it " +
                        "away, or name another file, to restart");
      // Whole rows only: a kill between two writes of a row is dropped here.
      for (std::size_t b = eol == std::string::npos ? old.size() : eol + 1; b < old.size();) {
        const std::size_t e = old.find('\n', b);
        if (e == std::string::npos) break;
        std::string row = old.substr(b, e - b);
        b = e + 1;
        const int64_t s = history_row_step(row);
        if (s >= 0 && s <= restart_step) kept_.push_back(std::move(row));
      }
      for (const auto& r : kept_) text += r + "\n";
    }
  }
  // Written at the first flush (the runner flushes once every plugin has started): a run
  // refused before its first step, by this history or another plugin, changes no file.
  initial_ = std::move(text);
  opened_ = true;
  last_flush_ = restart_step > 0 ? restart_step : 0;
}

void HistoryFile::create() {
  // Header and kept rows replace the file in one rename: a kill here leaves the old file.
  std::error_code ec;
  if (!path_.parent_path().empty()) std::filesystem::create_directories(path_.parent_path(), ec);
  try {
    write_text_atomically(path_, initial_);
  } catch (const std::exception& e) {
    throw UserError(where_ + ": cannot write " + path_.string() + " (" + e.what() + ")");
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0)
    throw UserError(where_ + ": cannot open " + path_.string() + " (" + std::strerror(errno) + ")");
  initial_.clear();
}

bool HistoryFile::has_row_at(int64_t step) const {
  return !kept_.empty() && history_row_step(kept_.back()) == step;
}

void HistoryFile::append(const std::string& row) { pending_ += row + "\n"; }

void HistoryFile::step(int64_t nsteps) {
  if (nsteps - last_flush_ < flushsteps_) return;
  flush();
  last_flush_ = nsteps;
}

void HistoryFile::flush() {
  if (!opened_) return;
  if (fd_ < 0) create();
  if (pending_.empty()) return;
  // One write of whole rows (retried where the kernel wrote less): a reader never sees half a
  // row except for the instant of a write, and a row cut by a kill is dropped on restart.
  // A write that fails part way (a full disk) is cut back to the last whole row written
  // before it, so the file holds whole rows only.
  const off_t before = ::lseek(fd_, 0, SEEK_END);
  std::string why;
  const std::size_t done = write_fully(fd_, pending_.data(), pending_.size(), why);
  if (done < pending_.size()) {
    const std::size_t whole = pending_.rfind('\n', done == 0 ? 0 : done - 1);
    const std::size_t keep = done == 0 || whole == std::string::npos ? 0 : whole + 1;
    if (before >= 0 && ::ftruncate(fd_, before + off_t(keep)) == 0) pending_.erase(0, keep);
    throw UserError(where_ + ": cannot write " + path_.string() + " (" + why + ")");
  }
  pending_.clear();
}

void HistoryFile::close() {
  if (!opened_) return;
  try {
    flush();
  } catch (...) {
    opened_ = false;
    if (fd_ >= 0) ::close(fd_), fd_ = -1;
    throw;
  }
  opened_ = false;
  ::close(fd_), fd_ = -1;
}

}  // namespace frmini::solver
