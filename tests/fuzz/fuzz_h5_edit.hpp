// Structure-aware input for the HDF5 targets: the fuzzer's bytes are a program of edits made
// through the HDF5 API to a copy of a valid file that frmini wrote (tests/fuzz/templates).
//
// Why not the file's bytes: libhdf5 1.10 (Debian 12) reads out of bounds or after free while it
// decodes corrupt object headers and attribute messages (known upstream, e.g. HDFGroup/hdf5
// issue 1368, fixed in later releases); byte-level fuzzing finds those within seconds, under
// ASan, and frmini cannot fix them. Here every file is well-formed HDF5, so each finding is
// frmini's own: datasets of any class, rank, shape and values, attributes of any type and
// value, objects deleted or added. FRMINI_FUZZ_RAW=1 in the environment makes the targets take
// the bytes as the file again, to look at libhdf5 itself.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "meshes/h5util.hpp"
#include "tests/fuzz/fuzz_common.hpp"

namespace frmini::fuzz {

namespace h5 = meshes::h5;

// Reads the input front to back; past its end every value is 0.
class Bytes {
 public:
  Bytes(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  bool empty() const { return n_ == 0; }
  uint8_t u8() { return n_ ? (--n_, *p_++) : 0; }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(u8()) << (8 * i);
    return v;
  }
  void fill(void* out, size_t n) {
    auto* o = static_cast<uint8_t*>(out);
    for (size_t i = 0; i < n; ++i) o[i] = u8();
  }

 private:
  const uint8_t* p_;
  size_t n_;
};

inline bool raw_mode() {
  const char* e = std::getenv("FRMINI_FUZZ_RAW");
  return e && std::strcmp(e, "1") == 0;
}

struct Object {
  std::string path;
  bool dataset;
};

// Every group and dataset below `group`, by path (walked by hand: H5Ovisit's signature differs
// between HDF5 1.10 and 1.12).
inline void objects(hid_t file, const std::string& group, std::vector<Object>& out, int depth = 0) {
  h5::Handle g(H5Gopen2(file, group.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.valid() || depth > 4) return;
  for (const auto& name : h5::children(g.id(), "fuzz")) {
    const std::string path = (group == "/" ? "/" : group + "/") + name;
    h5::Handle d(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose);
    out.push_back({path, d.valid()});
    if (!d.valid()) objects(file, path, out, depth + 1);
  }
}

// A new dataset `name` under `loc`: class, rank (0 = scalar) and extents from the input, as
// are its contents.
inline void create_dataset(hid_t loc, const std::string& name, Bytes& in) {
  static const hid_t* types[] = {&H5T_STD_I8LE_g,   &H5T_STD_U8LE_g,    &H5T_STD_I32LE_g,
                                 &H5T_STD_I64LE_g,  &H5T_IEEE_F32LE_g,  &H5T_IEEE_F64LE_g};
  const unsigned pick = in.u8() % 7;
  h5::Handle type(pick < 6 ? H5Tcopy(*types[pick]) : H5Tcopy(H5T_C_S1), H5Tclose);
  if (pick == 6) H5Tset_size(type.id(), 4);
  const int rank = in.u8() % 4;
  hsize_t dims[3] = {0, 0, 0};
  size_t n = 1;
  for (int i = 0; i < rank; ++i) n *= (dims[i] = in.u8() % 10);  // at most 729 values
  h5::Handle space(rank ? H5Screate_simple(rank, dims, nullptr) : H5Screate(H5S_SCALAR), H5Sclose);
  h5::Handle ds(H5Dcreate2(loc, name.c_str(), type.id(), space.id(), H5P_DEFAULT, H5P_DEFAULT,
                           H5P_DEFAULT),
                H5Dclose);
  if (!ds.valid() || n == 0) return;
  std::vector<uint8_t> data(n * H5Tget_size(type.id()));
  in.fill(data.data(), data.size());
  H5Dwrite(ds.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
}

// Overwrites a few values of an existing dataset with any bit patterns (NaN, huge, negative).
inline void poke_values(hid_t ds, Bytes& in) {
  h5::Handle type(H5Dget_type(ds), H5Tclose);
  h5::Handle space(H5Dget_space(ds), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.id());
  if (n <= 0 || n > (1 << 20)) return;
  const bool flt = H5Tget_class(type.id()) == H5T_FLOAT;
  if (!flt && H5Tget_class(type.id()) != H5T_INTEGER) return;
  const hid_t mem = flt ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
  std::vector<uint64_t> v(static_cast<size_t>(n));  // 8 bytes either way
  if (H5Dread(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0) return;
  for (int k = 1 + in.u8() % 4; k > 0; --k) {
    const size_t at = size_t(in.u64() % uint64_t(n));
    const uint8_t how = in.u8() % 3;
    if (how == 0) {
      v[at] = in.u64();  // any bits: NaN, infinities, huge or negative integers
    } else if (how == 1) {
      v[at] += uint64_t(int8_t(in.u8()));  // near the old value (an index off by a few)
    } else {  // a small whole number, positive or negative
      const int64_t i = int8_t(in.u8());
      const double d = double(i);
      if (flt) std::memcpy(&v[at], &d, 8);
      else std::memcpy(&v[at], &i, 8);
    }
  }
  H5Dwrite(ds, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
}

// Replaces (or adds) attribute `name` of `loc` by an integer, a float, a string or an array.
inline void set_attr(hid_t loc, const std::string& name, Bytes& in) {
  if (H5Aexists(loc, name.c_str()) > 0) H5Adelete(loc, name.c_str());
  const unsigned how = in.u8() % 5;
  if (how == 0) {
    h5::write_attr(loc, name, int64_t(in.u64()), "fuzz");
  } else if (how == 1) {  // a small integer, the likeliest to pass the first checks
    h5::write_attr(loc, name, int64_t(int8_t(in.u8())), "fuzz");
  } else if (how == 2) {
    std::string s(in.u8() % 24, '\0');
    in.fill(s.data(), s.size());
    h5::write_attr(loc, name, s, "fuzz");
  } else {
    hsize_t n = how == 3 ? 1 : 1 + in.u8() % 4;
    h5::Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
    const hid_t type = how == 3 ? H5T_IEEE_F64LE : H5T_STD_I64LE;
    h5::Handle a(H5Acreate2(loc, name.c_str(), type, space.id(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    std::vector<uint64_t> v(n);
    for (auto& x : v) x = in.u64();
    if (a.valid()) H5Awrite(a.id(), how == 3 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64, v.data());
  }
}

// The template's bytes, read once. Why not std::filesystem::copy_file for every input: it
// uses copy_file_range/sendfile, which libFuzzer's timeout alarm interrupts (EINTR), and
// copy_file throws on that instead of retrying; the streams retry.
inline const std::string& template_bytes(const std::string& templ) {
  static std::map<std::string, std::string> read;
  auto [it, fresh] = read.try_emplace(templ);
  if (fresh) {
    std::ifstream f(templ, std::ios::binary);
    it->second.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (!f && !f.eof()) throw std::runtime_error("cannot read fuzz template " + templ);
  }
  return it->second;
}

// Copies `templ` to `path` and applies the edits the input describes. HDF5 calls that fail
// (an object already deleted) are skipped: the next edit goes on.
inline void edit_copy(const std::string& templ, const std::string& path, Bytes& in,
                      const std::vector<std::string>& attr_names,
                      const std::vector<std::string>& new_names) {
  const std::string& bytes = template_bytes(templ);
  write_file(path, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  h5::silence_errors();
  h5::Handle f(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
  if (!f.valid()) return;
  for (int nedits = 0; !in.empty() && nedits < 8; ++nedits) {
    std::vector<Object> objs{{"/", false}};
    objects(f.id(), "/", objs);
    const uint8_t op = in.u8() % 6;
    const Object& obj = objs[in.u8() % objs.size()];
    if (op == 0 && obj.dataset) {
      h5::Handle ds(H5Dopen2(f.id(), obj.path.c_str(), H5P_DEFAULT), H5Dclose);
      if (ds.valid()) poke_values(ds.id(), in);
    } else if (op == 1 && obj.dataset) {  // the same name, anything else
      if (H5Ldelete(f.id(), obj.path.c_str(), H5P_DEFAULT) >= 0) create_dataset(f.id(), obj.path, in);
    } else if (op == 2 && obj.path != "/") {
      H5Ldelete(f.id(), obj.path.c_str(), H5P_DEFAULT);
    } else if (op == 3 || op == 4) {
      h5::Handle o(H5Oopen(f.id(), obj.path.c_str(), H5P_DEFAULT), H5Oclose);
      const std::string& name = attr_names[in.u8() % attr_names.size()];
      if (!o.valid()) continue;
      if (op == 3) set_attr(o.id(), name, in);
      else H5Adelete(o.id(), name.c_str());
    } else if (op == 5 && !obj.dataset) {  // a new dataset in a group
      h5::Handle g(H5Gopen2(f.id(), obj.path.c_str(), H5P_DEFAULT), H5Gclose);
      if (g.valid()) create_dataset(g.id(), new_names[in.u8() % new_names.size()], in);
    }
  }
}

// The file a target reads for one input: the input itself (FRMINI_FUZZ_RAW=1), or a copy of
// one of `templates` (chosen by the first byte) edited as the rest of the input says.
inline std::string input_file(const uint8_t* data, size_t size,
                              const std::vector<std::string>& templates,
                              const std::vector<std::string>& attr_names,
                              const std::vector<std::string>& new_names) {
  if (raw_mode()) return write_temp(data, size, ".h5");
  const std::string path = temp_path(".h5");
  Bytes in(data, size);
  try {
    edit_copy(templates[in.u8() % templates.size()], path, in, attr_names, new_names);
  } catch (const UserError&) {  // an edit HDF5 refused: read what was written
  }
  return path;
}

}  // namespace frmini::fuzz
