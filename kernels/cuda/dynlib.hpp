// Opening the CUDA libraries at run time (dlopen), so that one frmini binary runs on machines
// without a GPU, a driver or a toolkit: the cuda backend then reports a clear UserError.
#pragma once

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace frmini::kernels::cuda {

// The first of `names` that dlopen accepts; nullptr with the dlerror() of each try in `why`.
inline void* open_first(const std::vector<std::string>& names, std::string* why) {
  std::string errs;
  for (const auto& n : names) {
    if (void* h = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
    const char* e = dlerror();
    errs += (errs.empty() ? "" : "; ") + std::string(e ? e : n + ": not found");
  }
  if (why) *why = errs;
  return nullptr;
}

// A toolkit library: by soname (LD_LIBRARY_PATH, ld.so.cache), then under $FRMINI_CUDA_ROOT and
// /usr/local/cuda. `base` is e.g. "libnvrtc.so", `major` "13".
inline std::vector<std::string> toolkit_candidates(const std::string& base,
                                                   const std::string& major) {
  std::vector<std::string> out{base + "." + major, base};
  std::vector<std::string> roots;
  if (const char* r = std::getenv("FRMINI_CUDA_ROOT"); r && *r) roots.push_back(r);
  if (const char* r = std::getenv("CUDA_HOME"); r && *r) roots.push_back(r);
  roots.push_back("/usr/local/cuda");
  for (const auto& r : roots)
    for (const char* lib : {"/lib64/", "/lib/", "/targets/x86_64-linux/lib/"}) {
      out.push_back(r + lib + base + "." + major);
      out.push_back(r + lib + base);
    }
  return out;
}

// Resolves `name` into the function pointer `fn`; false if absent.
template <class F>
bool resolve(void* handle, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  return fn != nullptr;
}

}  // namespace frmini::kernels::cuda
