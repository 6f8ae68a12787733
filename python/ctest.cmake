# ctest registration of the Python package's tests, included by the top-level CMakeLists.txt:
#
#   include(python/ctest.cmake)      # inside its if(SPGRAPH_BUILD_TESTS) block
#
#   python.install         pip builds the package against this build's libspgraph (no kernel is
#                          compiled again: one binding file, about a minute on 2 cores, nothing
#                          after that while it is unchanged) into ${CMAKE_BINARY_DIR}/python-site,
#                          with SPGRAPH_PYTHON_BUNDLE_LIBRARY=OFF: the extension loads this build's
#                          libspgraph where it is (RPATH), instead of a 98 MB copy in python-site
#   python.<test file>     pytest on each tests/python/test_*.py, against that folder
#
# It needs a Python >= 3.11 with the modules of python/requirements-dev.txt; without them the
# tests are not registered and configuring says so (SPGRAPH_PYTHON_TESTS=ON makes that an error).
set(SPGRAPH_PYTHON_TESTS AUTO CACHE STRING "Register the Python package's tests with ctest: AUTO (where Python \
3.11+ has the modules of python/requirements-dev.txt), ON (required), OFF")
get_filename_component(spgraph_py_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
# Where libspgraph and its exported package (spgraphConfig.cmake) are: this build.
set(spgraph_py_build "${CMAKE_BINARY_DIR}")
if(SPGRAPH_PYTHON_BUILD_DIR)  # only to try this file from another project
  set(spgraph_py_build "${SPGRAPH_PYTHON_BUILD_DIR}")
endif()
if(SPGRAPH_PYTHON_TESTS AND NOT SPGRAPH_PYTHON_TESTS STREQUAL "OFF")
  get_target_property(spgraph_py_type spgraph TYPE)
  find_package(Python 3.11 COMPONENTS Interpreter)
  set(spgraph_py_missing "")
  if(NOT spgraph_py_type STREQUAL "SHARED_LIBRARY")
    set(spgraph_py_missing "libspgraph is built static (SPGRAPH_SHARED=OFF); the module links the shared one")
  elseif(NOT Python_FOUND)
    set(spgraph_py_missing "no Python 3.11 or newer found (-DPython_EXECUTABLE=...)")
  else()
    execute_process(
      COMMAND ${Python_EXECUTABLE} -c "import scikit_build_core, nanobind, numpy, scipy, networkx, pytest"
      RESULT_VARIABLE spgraph_py_rc OUTPUT_QUIET ERROR_VARIABLE spgraph_py_err)
    if(spgraph_py_rc)
      string(STRIP "${spgraph_py_err}" spgraph_py_err)
      string(REGEX REPLACE ".*\n" "" spgraph_py_err "${spgraph_py_err}")
      set(spgraph_py_missing "${Python_EXECUTABLE}: ${spgraph_py_err} (python3 -m pip install -r python/requirements-dev.txt)")
    endif()
  endif()
  if(spgraph_py_missing)
    if(SPGRAPH_PYTHON_TESTS STREQUAL "ON")
      message(FATAL_ERROR "SPGRAPH_PYTHON_TESTS=ON: ${spgraph_py_missing}")
    endif()
    message(STATUS "python tests not registered: ${spgraph_py_missing}")
  else()
    set(spgraph_py_site ${spgraph_py_build}/python-site)
    add_test(NAME python.install
      COMMAND ${Python_EXECUTABLE} -m pip install --quiet --no-build-isolation --no-deps --upgrade
              --target ${spgraph_py_site}
              -C cmake.define.SPGRAPH_BUILD_DIR=${spgraph_py_build}
              -C cmake.define.SPGRAPH_PYTHON_BUNDLE_LIBRARY=OFF
              -C build-dir=${spgraph_py_build}/python-build
              ${spgraph_py_root}/python)
    set_tests_properties(python.install PROPERTIES FIXTURES_SETUP spgraph_python TIMEOUT 900)
    file(GLOB spgraph_py_tests CONFIGURE_DEPENDS ${spgraph_py_root}/tests/python/test_*.py)
    foreach(file ${spgraph_py_tests})
      get_filename_component(name ${file} NAME_WE)
      string(REPLACE "test_" "" name ${name})
      # -rs: each skip's reason in the log; exit 5 (no test collected) counts as skipped.
      # OMP_WAIT_POLICY=passive: GraphBLAS's OpenMP threads sleep rather than spin between
      # parallel regions. On 2 cores shared with another test process (ctest -j2) the spinning
      # made these tests 8x slower (python.runtime 123 s against 15 s; PageRank on cit-HepPh
      # 1.0 s against 0.066 s a run); it changes no result.
      add_test(NAME python.${name}
        COMMAND ${Python_EXECUTABLE} -m pytest -q -rs -p no:cacheprovider ${file}
        WORKING_DIRECTORY ${spgraph_py_root}/tests/python)
      set_tests_properties(python.${name} PROPERTIES FIXTURES_REQUIRED spgraph_python TIMEOUT 900
        ENVIRONMENT "PYTHONPATH=${spgraph_py_site};SPGRAPH_BUILD_DIR=${spgraph_py_build};OMP_WAIT_POLICY=passive"
        SKIP_RETURN_CODE 5)
    endforeach()
  endif()
endif()
