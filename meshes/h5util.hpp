// A thin RAII layer over the HDF5 C API for the mesh file: handles that close themselves,
// whole-dataset reads and writes, string and integer attributes. HDF5's own error printing is
// switched off; every failure becomes a UserError naming the file.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace frmini::meshes::h5 {

class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*closer)(hid_t)) : id_(id), close_(closer) {}
  Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();
  hid_t id() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

void silence_errors();

// `file` is used in error messages. The file is made in memory: write_image writes it out.
Handle create_file(const std::string& path, const std::string& file);
// Files are created in memory (create_file); write_image writes a finished one's bytes to
// `to` with plain, checked writes, throwing UserError naming `file` when they fail (a full
// disk, a file-size limit). Every writer calls it last, inside write_atomically, so a file
// whose writes failed is never renamed into place.
void write_image(hid_t file_id, const std::string& to, const std::string& file);
Handle open_file(const std::string& path, const std::string& file);  // read-only
Handle create_group(hid_t loc, const std::string& name, const std::string& file);
Handle open_group(hid_t loc, const std::string& name, const std::string& file);
bool exists(hid_t loc, const std::string& name);
std::vector<std::string> children(hid_t group, const std::string& file);

void write_doubles(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
                   const double* data, const std::string& file);
void write_ints(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
                const int32_t* data, const std::string& file);
void write_bytes(hid_t loc, const std::string& name, const std::vector<hsize_t>& dims,
                 const uint8_t* data, const std::string& file);

// Reads a whole dataset; dims receives its shape.
std::vector<double> read_doubles(hid_t loc, const std::string& name, std::vector<hsize_t>& dims,
                                 const std::string& file);
std::vector<int32_t> read_ints(hid_t loc, const std::string& name, std::vector<hsize_t>& dims,
                               const std::string& file);
std::vector<uint8_t> read_bytes(hid_t loc, const std::string& name, std::vector<hsize_t>& dims,
                                const std::string& file);

void write_attr(hid_t loc, const std::string& name, const std::string& value, const std::string& file);
void write_attr(hid_t loc, const std::string& name, int64_t value, const std::string& file);
std::string read_attr_string(hid_t loc, const std::string& name, const std::string& file);
int64_t read_attr_int(hid_t loc, const std::string& name, const std::string& file);

}  // namespace frmini::meshes::h5
