// A plugin's CSV history (forces, integrals, timings) written as the run goes, so that a run
// can be watched while it lasts and a kill loses only the last few rows:
//  - the file is (re)written with its header and any kept rows at the first flush, which the
//    runner asks for once every plugin has started, then appended to; rows wait in memory until flush(), which writes them with one write(2), so
//    the file only ever grows by whole rows;
//  - step() flushes every `flushsteps` steps; the runner asks every plugin to flush at each
//    solution output and checkpoint, on SIGINT/SIGTERM and on failure; finish() at the end;
//  - a restart keeps the rows up to the restart step (the first column of every history is
//    the step, an exact integer, then t), drops those after it and any partial last row, and
//    appends from there: restarting twice from the same file gives the same history. A file
//    with another header is another history: it is left alone and the run stops (UserError).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace frmini::solver {

class HistoryFile {
 public:
  HistoryFile() = default;
  HistoryFile(const HistoryFile&) = delete;
  HistoryFile& operator=(const HistoryFile&) = delete;
  ~HistoryFile();  // flushes what is pending (errors ignored: the run is already ending)

  // `header` without its newline. A fresh run (restart_step < 0) replaces any file at `path`;
  // a restart from step n keeps the file's rows of step <= n. `where` opens error messages
  // (the config section).
  void open(const std::filesystem::path& path, const std::string& header, int64_t restart_step,
            int64_t flushsteps, const std::string& where);
  bool is_open() const { return opened_; }
  const std::filesystem::path& path() const { return path_; }

  // The rows kept from the earlier run (each without its newline), oldest first.
  const std::vector<std::string>& kept() const { return kept_; }
  bool has_row_at(int64_t step) const;

  // One whole row, without its newline.
  void append(const std::string& row);
  // After each step: flushes when flushsteps steps have passed since the last flush.
  void step(int64_t nsteps);
  void flush();  // the first one creates the file
  void close();  // flush, then close the file

 private:
  void create();
  std::filesystem::path path_;
  std::string where_, pending_, initial_;
  bool opened_ = false;
  std::vector<std::string> kept_;
  int fd_ = -1;
  int64_t flushsteps_ = 500, last_flush_ = 0;
};

// The step of a history row (its first field), or -1 when the row does not start with one.
int64_t history_row_step(const std::string& row);
// The value of a row's field `i` (0-based), or NaN when absent or empty.
double history_row_field(const std::string& row, std::size_t i);

}  // namespace frmini::solver
