# Configures and builds the library and the apps without the GPU backend (SPGRAPH_GPU=OFF, as
# CMake chooses where no CUDA toolkit is found) and without MPI (as where libopenmpi-dev is not
# installed: the apps then run as one process), proves nothing goes through nvcc, and runs
# pagerank on a bundled graph: it must run on the CPU and say the build has no GPU backend.
foreach(var BUILD_DIR SOURCE_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "${var} not set")
  endif()
endforeach()
set(cpu ${BUILD_DIR}/_cpu_only)
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${cpu} -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPGRAPH_GPU=OFF
    -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
file(READ ${cpu}/build.ninja ninja)
if(ninja MATCHES "nvcc")
  message(FATAL_ERROR "the CPU-only build runs nvcc")
endif()
run(${CMAKE_COMMAND} --build ${cpu} --target spgraph_apps)
run(${cpu}/pagerank ${SOURCE_DIR}/datasets/small/karate.mtx --top 1)
if(NOT out MATCHES "backend: cpu [^\n]*this build of spgraph has no GPU backend" OR NOT out MATCHES "\n34\t0.1009")
  message(FATAL_ERROR "pagerank on the CPU-only build printed:\n${out}")
endif()
execute_process(COMMAND ${cpu}/pagerank ${SOURCE_DIR}/datasets/small/karate.mtx --backend gpu
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(rc EQUAL 0 OR NOT err MATCHES "no GPU backend")
  message(FATAL_ERROR "--backend gpu on the CPU-only build: exit ${rc}, ${err}")
endif()
file(REMOVE_RECURSE ${cpu})
