#include "meshes/h5util.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/atomic_file.hpp"
#include "base/error.hpp"

namespace frmini::meshes::h5 {

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    if (id_ >= 0 && close_) close_(id_);
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = -1;
  }
  return *this;
}

Handle::~Handle() {
  if (id_ >= 0 && close_) close_(id_);
}

void silence_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

namespace {

[[noreturn]] void fail(const std::string& file, const std::string& what) {
  throw UserError(file + ": " + what);
}


// HDF5's innermost error message ("truncated file: eof = ...", "addr overflow"), for the
// messages of calls that failed: the user learns why, not only where. Walked upwards, the
// first entry is the deepest one, where the fault was detected; the outer ones only say
// "unable to open file".
std::string reason() {
  std::string out;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD,
           [](unsigned n, const H5E_error2_t* e, void* data) -> herr_t {
             if (n == 0 && e->desc) *static_cast<std::string*>(data) = e->desc;
             return 0;
           },
           &out);
  // A failed system call carries the system's words inside HDF5's own ("..., errno = 28, error
  // message = 'No space left on device', ..."), across lines: those words are the reason.
  const std::string key = "error message = '";
  if (const auto a = out.find(key); a != std::string::npos)
    if (const auto b = out.find('\'', a + key.size()); b != std::string::npos)
      out = out.substr(a + key.size(), b - a - key.size());
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out.empty() ? "" : " (" + out + ")";
}

// `id` is the result of an HDF5 call; a negative one fails with `what` and HDF5's reason. The
// reason is read here, after the call, since the order in which a caller's arguments are
// evaluated is unspecified.
hid_t check(hid_t id, const std::string& file, const std::string& what) {
  if (id < 0) fail(file, what + reason());
  return id;
}

void write_any(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
               hid_t filetype, hid_t memtype, const void* data, const std::string& file) {
  silence_errors();
  Handle space(check(H5Screate_simple(int(dims.size()), dims.data(), nullptr), file,
                     "cannot create dataspace for " + name),
               H5Sclose);
  Handle ds(check(H5Dcreate2(loc, name.c_str(), filetype, space.id(), H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT),
                  file, "cannot create dataset " + name),
            H5Dclose);
  bool empty = false;
  for (auto d : dims) empty = empty || d == 0;
  if (!empty && H5Dwrite(ds.id(), memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    fail(file, "cannot write dataset " + name + reason());
}

// The dataset's path in the file ("/eles/hex/nodes"), for messages: `name` alone is often
// relative to a group.
std::string path_of(hid_t loc, const std::string& name) {
  ssize_t n = H5Iget_name(loc, nullptr, 0);
  std::string s(n > 0 ? size_t(n) + 1 : 1, '\0');
  if (n > 0) H5Iget_name(loc, s.data(), s.size());
  s.resize(n > 0 ? size_t(n) : 0);
  if (!name.empty() && name[0] == '/') return name;
  return (s == "/" || s.empty() ? "/" : s + "/") + name;
}

const char* class_name(H5T_class_t c) {
  switch (c) {
    case H5T_INTEGER: return "integer";
    case H5T_FLOAT: return "float";
    case H5T_STRING: return "string";
    case H5T_COMPOUND: return "compound";
    case H5T_ARRAY: return "array";
    default: return "non-numeric";
  }
}

// Reads a whole numeric dataset of class `want` (float or integer). HDF5 would convert an
// integer dataset to doubles silently and fail obscurely on strings, so the class is checked
// first; the element count is computed without overflow and checked against the bytes stored,
// so a truncated or forged header cannot make frmini allocate or read more than the file holds.
template <class T>
std::vector<T> read_any(hid_t loc, const std::string& name, std::vector<hsize_t>& dims,
                        hid_t memtype, H5T_class_t want, const std::string& file) {
  silence_errors();
  const std::string where = "dataset " + path_of(loc, name);
  Handle ds(check(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), file,
                  "incomplete file: no " + where),
            H5Dclose);
  Handle ftype(check(H5Dget_type(ds.id()), file, "cannot read the type of " + where),
               H5Tclose);
  const H5T_class_t cls = H5Tget_class(ftype.id());
  if (cls != want)
    fail(file, where + " holds " + class_name(cls) + " values, expected " + class_name(want));
  Handle space(check(H5Dget_space(ds.id()), file, "cannot read " + where), H5Sclose);
  int rank = H5Sget_simple_extent_ndims(space.id());
  if (rank < 0) fail(file, "cannot read the shape of " + where + reason());
  dims.assign(size_t(rank), 0);
  H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr);
  size_t n = 1;
  for (auto d : dims)
    if (__builtin_mul_overflow(n, size_t(d), &n)) fail(file, where + " has an impossible shape");
  const size_t fsize = H5Tget_size(ftype.id());
  const hsize_t stored = H5Dget_storage_size(ds.id());
  Handle dcpl(H5Dget_create_plist(ds.id()), H5Pclose);
  const bool contiguous = dcpl.valid() && H5Pget_layout(dcpl.id()) == H5D_CONTIGUOUS;
  size_t need = 0;
  // Chunked data may be compressed: only a ratio no filter reaches (1024) is refused.
  if (n && (__builtin_mul_overflow(n, fsize, &need) ||
            (contiguous ? stored < need : need / 1024 > stored)))
    fail(file, where + " is truncated or its shape is corrupt (" + std::to_string(stored) +
                   " bytes stored for " + std::to_string(n) + " values)");
  // A file cut short whose superblock was rewritten to match (or a forged data address): the
  // data would end past the end of the file. HDF5 would say only "addr overflow".
  if (n && contiguous) {
    const haddr_t at = H5Dget_offset(ds.id());
    Handle fid(H5Iget_file_id(ds.id()), H5Fclose);
    hsize_t fbytes = 0;
    haddr_t end = 0;
    if (at != HADDR_UNDEF && fid.valid() && H5Fget_filesize(fid.id(), &fbytes) >= 0 &&
        (__builtin_add_overflow(at, haddr_t(need), &end) || end > fbytes))
      fail(file, where + " is truncated (its " + std::to_string(need) + " bytes from byte " +
                     std::to_string(at) + " run past the end of the file, " +
                     std::to_string(fbytes) + " bytes)");
  }
  std::vector<T> out(n);
  if (n && H5Dread(ds.id(), memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
    fail(file, "cannot read " + where + " (truncated or corrupt file?)" + reason());
  return out;
}

// An attribute must hold exactly one value: reading an array attribute into one value would
// write past it.
Handle open_scalar_attr(hid_t loc, const std::string& name, const std::string& file) {
  Handle a(check(H5Aopen(loc, name.c_str(), H5P_DEFAULT), file,
                 "incomplete file: no attribute " + name),
           H5Aclose);
  Handle space(check(H5Aget_space(a.id()), file, "cannot read attribute " + name),
               H5Sclose);
  if (H5Sget_simple_extent_npoints(space.id()) != 1)
    fail(file, "attribute " + name + " holds " +
                   std::to_string(H5Sget_simple_extent_npoints(space.id())) +
                   " values, expected one");
  return a;
}

}  // namespace

Handle create_file(const std::string& path, const std::string& file) {
  silence_errors();
  // In memory (the core driver, no backing store): HDF5 never meets a failing disk, which
  // the library does not survive (a file whose close failed crashes it at exit).
  Handle fapl(check(H5Pcreate(H5P_FILE_ACCESS), file, "cannot create a file access list"), H5Pclose);
  check(H5Pset_fapl_core(fapl.id(), 1 << 20, 0), file, "cannot set up an in-memory file");
  return Handle(check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.id()), file,
                      "cannot create HDF5 file"),
                H5Fclose);
}

void write_image(hid_t file_id, const std::string& to, const std::string& file) {
  if (H5Fflush(file_id, H5F_SCOPE_GLOBAL) < 0) fail(file, "cannot write" + reason());
  const ssize_t n = H5Fget_file_image(file_id, nullptr, 0);
  if (n < 0) fail(file, "cannot write" + reason());
  std::vector<char> image(static_cast<std::size_t>(n));
  if (H5Fget_file_image(file_id, image.data(), image.size()) != n) fail(file, "cannot write" + reason());
  const int fd = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(file, std::string("cannot write (") + std::strerror(errno) + ")");
  std::string why;
  if (write_fully(fd, image.data(), image.size(), why) < image.size()) {
    ::close(fd);
    fail(file, "cannot write (" + why + ")");
  }
  if (::close(fd) != 0) fail(file, std::string("cannot write (") + std::strerror(errno) + ")");
}

Handle open_file(const std::string& path, const std::string& file) {
  silence_errors();
  if (H5Fis_hdf5(path.c_str()) <= 0) fail(file, "not an HDF5 file (expected a frmini mesh .h5)");
  return Handle(check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), file,
                      "cannot open HDF5 file, truncated or corrupt"),
                H5Fclose);
}

Handle create_group(hid_t loc, const std::string& name, const std::string& file) {
  return Handle(check(H5Gcreate2(loc, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), file,
                      "cannot create group " + name),
                H5Gclose);
}

Handle open_group(hid_t loc, const std::string& name, const std::string& file) {
  return Handle(check(H5Gopen2(loc, name.c_str(), H5P_DEFAULT), file,
                      "incomplete file: no group " + name),
                H5Gclose);
}

bool exists(hid_t loc, const std::string& name) {
  return H5Lexists(loc, name.c_str(), H5P_DEFAULT) > 0;
}

std::vector<std::string> children(hid_t group, const std::string& file) {
  H5G_info_t info;
  if (H5Gget_info(group, &info) < 0) fail(file, "cannot list group");
  std::vector<std::string> out;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    ssize_t n = H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (n < 0) fail(file, "cannot list group");
    std::string s(size_t(n) + 1, '\0');
    H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, s.data(), s.size(), H5P_DEFAULT);
    s.resize(size_t(n));
    out.push_back(s);
  }
  return out;
}

void write_doubles(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
                   const double* data, const std::string& file) {
  write_any(loc, name, dims, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data, file);
}
void write_ints(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
                const int32_t* data, const std::string& file) {
  write_any(loc, name, dims, H5T_STD_I32LE, H5T_NATIVE_INT32, data, file);
}
void write_bytes(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
                 const uint8_t* data, const std::string& file) {
  write_any(loc, name, dims, H5T_STD_U8LE, H5T_NATIVE_UINT8, data, file);
}

std::vector<double> read_doubles(hid_t loc, const std::string& name, std::vector<hsize_t>& dims,
                                 const std::string& file) {
  return read_any<double>(loc, name, dims, H5T_NATIVE_DOUBLE, H5T_FLOAT, file);
}
std::vector<int32_t> read_ints(hid_t loc, const std::string& name, std::vector<hsize_t>& dims,
                               const std::string& file) {
  return read_any<int32_t>(loc, name, dims, H5T_NATIVE_INT32, H5T_INTEGER, file);
}
std::vector<uint8_t> read_bytes(hid_t loc, const std::string& name, std::vector<hsize_t>& dims,
                                const std::string& file) {
  return read_any<uint8_t>(loc, name, dims, H5T_NATIVE_UINT8, H5T_INTEGER, file);
}

void write_attr(hid_t loc, const std::string& name, const std::string& value, const std::string& file) {
  // Fixed-length, null-terminated strings: what h5dump shows most plainly.
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.id(), value.size() + 1);
  H5Tset_strpad(type.id(), H5T_STR_NULLTERM);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle a(check(H5Acreate2(loc, name.c_str(), type.id(), space.id(), H5P_DEFAULT, H5P_DEFAULT),
                 file, "cannot write attribute " + name),
           H5Aclose);
  if (H5Awrite(a.id(), type.id(), value.c_str()) < 0) fail(file, "cannot write attribute " + name);
}

void write_attr(hid_t loc, const std::string& name, int64_t value, const std::string& file) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle a(check(H5Acreate2(loc, name.c_str(), H5T_STD_I64LE, space.id(), H5P_DEFAULT, H5P_DEFAULT),
                 file, "cannot write attribute " + name),
           H5Aclose);
  if (H5Awrite(a.id(), H5T_NATIVE_INT64, &value) < 0) fail(file, "cannot write attribute " + name);
}

std::string read_attr_string(hid_t loc, const std::string& name, const std::string& file) {
  silence_errors();
  Handle a = open_scalar_attr(loc, name, file);
  Handle ftype(check(H5Aget_type(a.id()), file, "cannot read attribute " + name),
               H5Tclose);
  if (H5Tget_class(ftype.id()) != H5T_STRING || H5Tis_variable_str(ftype.id()) > 0)
    fail(file, "attribute " + name + " is not a fixed-length string");
  // The type's size comes from the file: a forged one must not become a huge allocation.
  size_t n = H5Tget_size(ftype.id());
  if (n == 0 || n > (size_t(1) << 26) || H5Aget_storage_size(a.id()) < n)
    fail(file, "attribute " + name + " is truncated or corrupt (a string of " +
                   std::to_string(n) + " bytes, " + std::to_string(H5Aget_storage_size(a.id())) +
                   " stored)");
  Handle mtype(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(mtype.id(), n);
  std::string s(n, '\0');
  if (H5Aread(a.id(), mtype.id(), s.data()) < 0) fail(file, "cannot read attribute " + name);
  s.resize(s.find('\0') == std::string::npos ? n : s.find('\0'));
  return s;
}

int64_t read_attr_int(hid_t loc, const std::string& name, const std::string& file) {
  silence_errors();
  Handle a = open_scalar_attr(loc, name, file);
  Handle ftype(check(H5Aget_type(a.id()), file, "cannot read attribute " + name),
               H5Tclose);
  if (H5Tget_class(ftype.id()) != H5T_INTEGER)
    fail(file, "attribute " + name + " holds a " + class_name(H5Tget_class(ftype.id())) +
                   ", expected an integer");
  int64_t v = 0;
  if (H5Aread(a.id(), H5T_NATIVE_INT64, &v) < 0) fail(file, "cannot read attribute " + name);
  return v;
}

}  // namespace frmini::meshes::h5
