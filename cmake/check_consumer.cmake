# Installs this build into a temporary prefix, then configures, builds and runs
# examples/consumer against it: proves find_package(spgraph) works for a user's project.
foreach(var BUILD_DIR SOURCE_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "${var} not set")
  endif()
endforeach()
set(prefix ${BUILD_DIR}/_consumer/install)
set(cbuild ${BUILD_DIR}/_consumer/build)
file(REMOVE_RECURSE ${BUILD_DIR}/_consumer)
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
# The installed headers are the public API alone: no kernel implementation or detail header.
file(GLOB_RECURSE internal ${prefix}/include/*.cuh ${prefix}/include/*_impl.hpp ${prefix}/include/*detail*)
if(internal)
  message(FATAL_ERROR "internal headers installed: ${internal}")
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/consumer -B ${cbuild} -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${cbuild})
run(${cbuild}/consumer)
# The install tree holds copies of the apps; left in the build folder, they would be found
# next to the real ones by anything that collects the build's executables.
file(REMOVE_RECURSE ${BUILD_DIR}/_consumer)
