// The on-disk cache shared by every backend: compiled kernels (by a hash of source, flags,
// compiler and device), bandwidth probes (by device) and auto-tuning decisions.
// Location: $FRMINI_CACHE_DIR, else $XDG_CACHE_HOME/frmini, else ~/.cache/frmini.
// Entries are written atomically (temp + rename), so concurrent runs never see half a file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace frmini::kernels {

std::filesystem::path cache_dir();  // created on first use

// Small text entries ("bandwidth/<device-hash>", "autotune/<key>").
std::optional<std::string> cache_read(const std::string& key);
void cache_write(const std::string& key, const std::string& value);

}  // namespace frmini::kernels
