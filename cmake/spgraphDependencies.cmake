# SuiteSparse:GraphBLAS as an imported target, for the build and for installed users alike.
# Debian 12 ships libgraphblas-dev 7.4 with GraphBLAS.h in /usr/include.
if(NOT TARGET GraphBLAS::GraphBLAS)
  find_path(GraphBLAS_INCLUDE_DIR GraphBLAS.h PATH_SUFFIXES suitesparse)
  find_library(GraphBLAS_LIBRARY NAMES graphblas)
  if(NOT GraphBLAS_INCLUDE_DIR OR NOT GraphBLAS_LIBRARY)
    message(FATAL_ERROR "SuiteSparse:GraphBLAS not found: install libgraphblas-dev (scripts/install-deps.sh does)")
  endif()
  add_library(GraphBLAS::GraphBLAS UNKNOWN IMPORTED)
  set_target_properties(GraphBLAS::GraphBLAS PROPERTIES
    IMPORTED_LOCATION ${GraphBLAS_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${GraphBLAS_INCLUDE_DIR})
endif()
