# frmini_embed_files(OUT <cpp> BASE <dir> NAMESPACE <ns> SYMBOL <name> FILES <f>...)
# Generates <cpp> defining
#   const ::frmini::EmbeddedFile <ns>::<name>[];  const std::size_t <ns>::<name>_count;
# with each file's path relative to BASE and its text, so the binary never reads the source
# tree at run time. The generation runs at build time and re-runs when a file changes.
function(frmini_embed_files)
  cmake_parse_arguments(E "" "OUT;BASE;NAMESPACE;SYMBOL" "FILES" ${ARGN})
  string(REPLACE ";" "|" files "${E_FILES}")
  add_custom_command(
    OUTPUT ${E_OUT}
    COMMAND ${CMAKE_COMMAND} -DOUT=${E_OUT} -DBASE=${E_BASE} -DNS=${E_NAMESPACE}
            -DSYMBOL=${E_SYMBOL} "-DFILES=${files}"
            -P ${CMAKE_SOURCE_DIR}/tools/cmake/embed_files_script.cmake
    DEPENDS ${E_FILES} ${CMAKE_SOURCE_DIR}/tools/cmake/embed_files_script.cmake
    COMMENT "Embedding ${E_SYMBOL}"
    VERBATIM)
endfunction()
