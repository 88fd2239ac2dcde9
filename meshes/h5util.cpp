#include "meshes/h5util.hpp"

#include "operators/error.hpp"

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

hid_t check(hid_t id, const std::string& file, const std::string& what) {
  if (id < 0) fail(file, what);
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
    fail(file, "cannot write dataset " + name);
}

template <class T>
std::vector<T> read_any(hid_t loc, const std::string& name, std::vector<hsize_t>& dims,
                        hid_t memtype, const std::string& file) {
  silence_errors();
  Handle ds(check(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), file,
                  "not a frmini mesh file (no dataset " + name + ")"),
            H5Dclose);
  Handle space(check(H5Dget_space(ds.id()), file, "cannot read " + name), H5Sclose);
  int rank = H5Sget_simple_extent_ndims(space.id());
  if (rank < 0) fail(file, "cannot read " + name);
  dims.assign(size_t(rank), 0);
  H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr);
  size_t n = 1;
  for (auto d : dims) n *= size_t(d);
  std::vector<T> out(n);
  if (n && H5Dread(ds.id(), memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
    fail(file, "cannot read dataset " + name + " (corrupt file?)");
  return out;
}

}  // namespace

Handle create_file(const std::string& path, const std::string& file) {
  silence_errors();
  return Handle(check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), file,
                      "cannot create HDF5 file"),
                H5Fclose);
}

Handle open_file(const std::string& path, const std::string& file) {
  silence_errors();
  if (H5Fis_hdf5(path.c_str()) <= 0) fail(file, "not an HDF5 file (expected a frmini mesh .h5)");
  return Handle(check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), file,
                      "cannot open HDF5 file"),
                H5Fclose);
}

Handle create_group(hid_t loc, const std::string& name, const std::string& file) {
  return Handle(check(H5Gcreate2(loc, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), file,
                      "cannot create group " + name),
                H5Gclose);
}

Handle open_group(hid_t loc, const std::string& name, const std::string& file) {
  return Handle(check(H5Gopen2(loc, name.c_str(), H5P_DEFAULT), file,
                      "not a frmini mesh file (no group " + name + ")"),
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
  return read_any<double>(loc, name, dims, H5T_NATIVE_DOUBLE, file);
}
std::vector<int32_t> read_ints(hid_t loc, const std::string& name, std::vector<hsize_t>& dims,
                               const std::string& file) {
  return read_any<int32_t>(loc, name, dims, H5T_NATIVE_INT32, file);
}
std::vector<uint8_t> read_bytes(hid_t loc, const std::string& name, std::vector<hsize_t>& dims,
                                const std::string& file) {
  return read_any<uint8_t>(loc, name, dims, H5T_NATIVE_UINT8, file);
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
  Handle a(check(H5Aopen(loc, name.c_str(), H5P_DEFAULT), file,
                 "not a frmini mesh file (no attribute " + name + ")"),
           H5Aclose);
  Handle ftype(H5Aget_type(a.id()), H5Tclose);
  if (H5Tget_class(ftype.id()) != H5T_STRING || H5Tis_variable_str(ftype.id()) > 0)
    fail(file, "attribute " + name + " is not a fixed-length string");
  size_t n = H5Tget_size(ftype.id());
  Handle mtype(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(mtype.id(), n);
  std::string s(n, '\0');
  if (H5Aread(a.id(), mtype.id(), s.data()) < 0) fail(file, "cannot read attribute " + name);
  s.resize(s.find('\0') == std::string::npos ? n : s.find('\0'));
  return s;
}

int64_t read_attr_int(hid_t loc, const std::string& name, const std::string& file) {
  silence_errors();
  Handle a(check(H5Aopen(loc, name.c_str(), H5P_DEFAULT), file,
                 "not a frmini mesh file (no attribute " + name + ")"),
           H5Aclose);
  int64_t v = 0;
  if (H5Aread(a.id(), H5T_NATIVE_INT64, &v) < 0) fail(file, "cannot read attribute " + name);
  return v;
}

}  // namespace frmini::meshes::h5
