// Renders a pointwise Spec as complete kernel source in one backend's dialect (dialect.hpp;
// the sections below describe the three this repository has). The body and
// helper functions are pasted unchanged except that, in single precision, floating literals
// get an 'f' suffix (so "0.5*x" stays float arithmetic on every backend).
//
// Calling convention: the rendered kernel takes (begin, end) then one parameter per *slot*,
// in the order slots() lists them; each argument of the spec expands to these slots:
//   field  -> fp_buffer (base, offset already applied), int64 (ld)
//   view   -> fp_buffer (arena base), idx_buffer (ix), [idx_buffer (rstride) if A > 1]
//   array  -> fp_buffer, int64 (ld)
//   scalar -> fp_scalar;   index -> int64
// C (cpu):   void NAME(int64_t begin, int64_t end, const frmini_arg_t* slots)
//            (frmini_arg_t = union { void* p; int64_t i; double d; }), serial over the range:
//            the cpu backend splits ranges over OpenMP threads and cache blocks itself.
//            A points kernel with views takes one more slot after them (c_fast_chunks):
//            a record of c_chunk_record bytes per chunk of SOA_S points: its kind, then one
//            split point k per view (in argument order). Kind 1: every view's offsets in the
//            chunk are consecutive (ix[j0 + l] = ix[j0] + l) and its row strides equal;
//            3: every view's are consecutive for l < k and from k on (two pieces, k = SOA_S
//            for one), row strides equal; 2: those of every near view (not Arg::far) are
//            consecutive but a far view's are not; 0: none of these (gathers).
// OpenCL:    __kernel void NAME(long begin, long end, <slots>), element_points launched over
//            an (elements, NPTS) range, points over a 1-D range; extra work-items return.
//            Every buffer slot is passed as two parameters, the cl_mem and a long offset in
//            elements of its type (cl_mem objects cannot be offset on the host).
//            Block vectors (`blocks`, for CPU devices), where the spec allows them
//            (Spec::block_vectors): fpdtype_t is the vector type of SOA_S lanes (fpscal_t
//            the scalar that memory holds). An element kernel runs one work-item per (SoA
//            block, point) over an (element blocks, NPTS) range, each value one
//            vload/vstore (the range's blocks whole, padding lanes included, as on cpu); a
//            points kernel one work-item per chunk of SOA_S points, a view's values vloads
//            where the chunk's offsets run on, else gathered lane by lane. PoCL runs the
//            one-lane kernels' physics on scalars; on vectors it is vector code as written.
// CUDA:      extern "C" __global__ void NAME(long long begin, long long end, <slots>),
//            x over elements/points, y over NPTS.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/pointwise/dialect.hpp"
#include "kernels/pointwise/spec.hpp"
#include "kernels/precision.hpp"

namespace frmini::kernels::pointwise {

enum class SlotType { fp_buffer, idx_buffer, int64, fp_scalar };

struct Slot {
  SlotType type;
  std::string name;  // e.g. "u_p", "u_ld"
  std::size_t arg;   // index of the spec argument it belongs to
};

std::vector<Slot> slots(const Spec& spec);

// Whether the C rendering of `spec` takes the chunk table after its slots (see above).
bool c_fast_chunks(const Spec& spec);
// Bytes per chunk in that table: 1 + the number of views.
std::size_t c_chunk_record(const Spec& spec);

// Renders block vectors when `blocks` asks for them and the spec and width allow it (an
// OpenCL kernel that says block_vectors, SOA_S a vector width: 2, 4, 8 or 16); the backend
// launches what renders_block_vectors says was rendered.
std::string render(const Spec& spec, const Dialect& dialect, Precision precision,
                   std::size_t soa_width, bool blocks = false);
bool renders_block_vectors(const Spec& spec, const Dialect& dialect, std::size_t soa_width, bool blocks);

// Appends 'f' to the floating literals of C source text (identifiers and integer literals
// are left alone).
std::string single_literals(const std::string& src);

// Checks a spec for mistakes a physics author can make (duplicate names, a field in a
// points kernel, shapes with zero extent); throws std::logic_error: specs are code, not input.
void validate(const Spec& spec);

}  // namespace frmini::kernels::pointwise
