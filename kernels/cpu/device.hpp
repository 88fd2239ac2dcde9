// What the cpu backend needs to know about the host: its model (for cache keys), the
// instruction set the generated kernels target, and its caches, all read from the machine
// rather than hard-coded.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace frmini::kernels::cpu {

std::string cpu_model();          // "model name" of /proc/cpuinfo
std::string cpu_flags_hash();     // hash of the ISA flags: -march=native code depends on them
std::size_t llc_bytes();          // largest cache level's size (sysfs, then sysconf); 0 = unknown
std::size_t l2_bytes();           // a core's level-2 data cache (sysfs, then sysconf); 0 = unknown
// The part of the last-level cache `threads` threads can count on: llc_bytes(), but at most
// 16 MiB a thread. Under a hypervisor sysfs reports the host's whole L3 (480 MiB on a 2-vCPU
// Intel Xeon VM), most of which serves other guests. x86 parts give a core 1.5-5 MiB of L3,
// 12 MiB with 3D V-cache; on the few with more (EPYCs with one or two cores per CCD) frmini
// only counts less than it could. Cache blocks and streaming stores are sized from this.
// 0 = unknown.
std::size_t usable_llc_bytes(int threads);
int max_threads();                // OpenMP threads a parallel region gets
// Subnormal numbers flushed to zero (on: FTZ and DAZ set in MXCSR) or kept (IEEE gradual
// underflow), on this thread and every OpenMP thread; threads made later inherit it. x86 only
// (MXCSR): elsewhere subnormals are kept.
void set_flush_denormals(bool on);

// The instruction set the run-time compiled kernels (and libxsmm's JIT) target. Chosen by
// $FRMINI_CPU_ISA: "native" (the default: -march=native, the vector width of this CPU), or
// "avx512", "avx2", "generic" (x86-64-v4, x86-64-v3, x86-64 baseline SSE2), so that a machine
// with AVX-512 can run and test the code paths of machines without it. Asking for an ISA this
// CPU lacks is a user error (the kernels would die of SIGILL).
struct IsaTarget {
  std::string name;                 // "native", "avx512", "avx2", "generic"
  std::size_t simd_bytes = 16;      // vector width of the target: 64, 32 or 16
  std::vector<std::string> cflags;  // -march/-mtune for the C compiler
  std::string xsmm_arch;            // libxsmm_set_target_arch() name; "" = libxsmm's own choice
};
const IsaTarget& isa_target();      // read once; throws UserError for a bad $FRMINI_CPU_ISA
// The target for an ISA name, checked against this CPU (for tests and the error message).
IsaTarget make_isa_target(const std::string& name);
std::size_t simd_bytes();         // isa_target().simd_bytes

}  // namespace frmini::kernels::cpu
