# Finds frmini's dependencies. Required: a C++20 compiler, OpenMP, HDF5, toml11, CLI11.
# Everything else is optional and switches a feature on; the summary at the end of the
# configure step says what is on and off, and commands that need a missing feature say
# "built without X" at run time.
find_package(PkgConfig REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS C CXX)
find_package(Threads REQUIRED)

# HDF5: the serial library. pkg-config first (Debian's hdf5-serial), CMake's module second.
pkg_check_modules(FRMINI_HDF5 IMPORTED_TARGET hdf5-serial)
if(FRMINI_HDF5_FOUND)
  add_library(frmini::hdf5 ALIAS PkgConfig::FRMINI_HDF5)
else()
  set(HDF5_PREFER_PARALLEL OFF)
  find_package(HDF5 REQUIRED COMPONENTS C)
  add_library(frmini_hdf5_iface INTERFACE)
  target_link_libraries(frmini_hdf5_iface INTERFACE HDF5::HDF5)
  add_library(frmini::hdf5 ALIAS frmini_hdf5_iface)
endif()

find_package(toml11 REQUIRED)
find_package(CLI11 REQUIRED CONFIG)  # Debian 12: libcli11-dev 2.1

# --- optional -----------------------------------------------------------------------------
# FRMINI_WITHOUT leaves optional parts out even where they are installed, e.g.
# -DFRMINI_WITHOUT="gmsh;vtk;mpi;opencl;openblas;xsmm;metis" for the binary that travels to a
# bare GPU node (tools/gpu-bundle): fewer shared libraries to carry, and each command that
# needs a part left out says "built without X" as it does on a machine that lacks it.
set(FRMINI_WITHOUT "" CACHE STRING
    "optional parts to leave out (list of: openblas xsmm opencl clblast cuda gmsh metis mpi vtk)")
set(_frmini_optional openblas xsmm opencl clblast cuda gmsh metis mpi vtk)
foreach(_w IN LISTS FRMINI_WITHOUT)
  if(NOT _w IN_LIST _frmini_optional)
    message(FATAL_ERROR "FRMINI_WITHOUT: unknown part '${_w}' (one of: ${_frmini_optional})")
  endif()
endforeach()
# Each optional part is looked for only if not left out; its FRMINI_HAVE_* stays OFF otherwise.
macro(frmini_wanted part out)
  if(${part} IN_LIST FRMINI_WITHOUT)
    set(${out} OFF)
  else()
    set(${out} ON)
  endif()
endmacro()

find_package(Catch2 QUIET)  # Debian 12 ships Catch2 2.13; 3.x works too

foreach(_f OPENBLAS XSMM OPENCL CLBLAST CUDA GMSH METIS MPI VTK)
  set(FRMINI_HAVE_${_f} OFF)
endforeach()

frmini_wanted(openblas _want)
if(_want)
  pkg_check_modules(FRMINI_OPENBLAS QUIET IMPORTED_TARGET openblas)
  set(FRMINI_HAVE_OPENBLAS ${FRMINI_OPENBLAS_FOUND})
endif()

frmini_wanted(xsmm _want)
if(_want)
  pkg_check_modules(FRMINI_XSMM QUIET IMPORTED_TARGET libxsmmnoblas)
  set(FRMINI_HAVE_XSMM ${FRMINI_XSMM_FOUND})
endif()

frmini_wanted(opencl _want)
if(_want)
  find_package(OpenCL QUIET)
  set(FRMINI_HAVE_OPENCL ${OpenCL_FOUND})
  frmini_wanted(clblast _want)
  if(_want AND OpenCL_FOUND)
    find_package(CLBlast QUIET)
    if(CLBlast_FOUND)
      set(FRMINI_HAVE_CLBLAST ON)
    endif()
  endif()
endif()

# CUDA: only the headers are needed at build time. libcuda, libnvrtc and libcublas are
# opened at run time, so one binary runs with or without a GPU (and without the toolkit).
set(FRMINI_CUDA_ROOT "/usr/local/cuda" CACHE PATH "CUDA toolkit root")
frmini_wanted(cuda _want)
if(_want)
  find_path(FRMINI_CUDA_INCLUDE_DIR cuda.h HINTS ${FRMINI_CUDA_ROOT}/include)
  find_path(FRMINI_NVRTC_INCLUDE_DIR nvrtc.h HINTS ${FRMINI_CUDA_ROOT}/include)
  if(FRMINI_CUDA_INCLUDE_DIR AND FRMINI_NVRTC_INCLUDE_DIR)
    set(FRMINI_HAVE_CUDA ON)
  endif()
endif()

frmini_wanted(gmsh _want)
if(_want)
  find_path(FRMINI_GMSH_INCLUDE_DIR gmsh.h)
  find_library(FRMINI_GMSH_LIBRARY gmsh)
  if(FRMINI_GMSH_INCLUDE_DIR AND FRMINI_GMSH_LIBRARY)
    set(FRMINI_HAVE_GMSH ON)
  endif()
endif()

frmini_wanted(metis _want)
if(_want)
  find_path(FRMINI_METIS_INCLUDE_DIR metis.h)
  find_library(FRMINI_METIS_LIBRARY metis)
  if(FRMINI_METIS_INCLUDE_DIR AND FRMINI_METIS_LIBRARY)
    set(FRMINI_HAVE_METIS ON)
  endif()
endif()

frmini_wanted(mpi _want)
if(_want)
  find_package(MPI QUIET COMPONENTS C)
  set(FRMINI_HAVE_MPI ${MPI_C_FOUND})
endif()

frmini_wanted(vtk _want)
if(_want)
  find_package(VTK QUIET COMPONENTS CommonCore CommonDataModel IOXML FiltersCore FiltersGeneral
               RenderingCore RenderingOpenGL2 RenderingFreeType RenderingAnnotation  # colour bars
               InteractionStyle IOImage)
  set(FRMINI_HAVE_VTK ${VTK_FOUND})
endif()

function(frmini_onoff var out)
  if(${var})
    set(${out} "on" PARENT_SCOPE)
  else()
    set(${out} "off" PARENT_SCOPE)
  endif()
endfunction()

function(frmini_print_summary)
  message(STATUS "")
  message(STATUS "frmini ${PROJECT_VERSION} configuration")
  message(STATUS "  build type     ${CMAKE_BUILD_TYPE}   sanitizers ${FRMINI_SANITIZE}")
  foreach(f OPENBLAS XSMM OPENCL CLBLAST CUDA GMSH METIS MPI VTK)
    frmini_onoff(FRMINI_HAVE_${f} s)
    string(TOLOWER ${f} name)
    message(STATUS "  ${name}\t${s}")
  endforeach()
  if(TARGET Catch2::Catch2WithMain)
    message(STATUS "  tests\ton (Catch2 ${Catch2_VERSION})")
  else()
    message(STATUS "  tests\toff (Catch2 not found)")
  endif()
  message(STATUS "")
endfunction()
