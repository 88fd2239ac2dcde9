// What the cpu backend needs to know about the host: its model (for cache keys), its vector
// width and its last-level cache, all read from the machine rather than hard-coded.
#pragma once

#include <cstddef>
#include <string>

namespace frmini::kernels::cpu {

std::string cpu_model();          // "model name" of /proc/cpuinfo
std::string cpu_flags_hash();     // hash of the ISA flags: -march=native code depends on them
std::size_t llc_bytes();          // largest cache level's size (sysfs, then sysconf); 0 = unknown
std::size_t l2_bytes();           // a core's level-2 data cache (sysfs, then sysconf); 0 = unknown
std::size_t simd_bytes();         // 64 with AVX-512, 32 with AVX2, else 16
int max_threads();                // OpenMP threads a parallel region gets

}  // namespace frmini::kernels::cpu
