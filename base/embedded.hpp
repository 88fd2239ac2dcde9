// A file compiled into the binary by tools/cmake/FrminiEmbed.cmake (kernel-language sources,
// data tables): the binary never reads the source tree at run time.
#pragma once

namespace frmini {

struct EmbeddedFile {
  const char* name;  // path relative to the embedding folder, e.g. "euler/flux.kern"
  const char* text;
};

}  // namespace frmini
