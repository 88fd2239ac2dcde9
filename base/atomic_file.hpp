// Writing user-visible files safely: everything is written to "<path>.tmp-<pid>" and renamed
// over <path> only once complete, so a failed or interrupted write never leaves a truncated
// file and never destroys the previous one.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>

namespace frmini {

// Calls write(tmp_path) and renames tmp_path to path on success. On any exception the
// temporary is removed and the exception propagates.
void write_atomically(const std::filesystem::path& path,
                      const std::function<void(const std::filesystem::path& tmp)>& write);

// Writes n bytes to fd, retrying short and interrupted writes. Returns how many were written;
// when fewer than n, `why` says why (the system's words, e.g. "No space left on device").
std::size_t write_fully(int fd, const char* data, std::size_t n, std::string& why);

// Convenience: writes a text string atomically.
void write_text_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace frmini
