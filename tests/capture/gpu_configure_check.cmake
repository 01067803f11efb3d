# SPDX-License-Identifier: MIT
# cmake -DSOURCE=... -DBUILD=... -DNVCC=... -DGENERATOR=... -P gpu_configure_check.cmake
# Configures the tree as tests/gpu/run_gpu_checks.sh does (GAPSCOPE_COLLECTOR_ONLY=ON, no tests) and
# compiles the collector and the CUDA test client, so that a CPU-only machine with nvcc catches what would
# stop the GPU checks before they start: a dependency the GPU machine lacks, a C++ standard nvcc cannot
# take, warning flags meant for g++.
file(REMOVE_RECURSE ${BUILD})
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BUILD} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
          -DGAPSCOPE_COLLECTOR_ONLY=ON -DGAPSCOPE_BUILD_TESTS=OFF -DCMAKE_CUDA_COMPILER=${NVCC}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "configuring the GPU targets failed:\n${out}\n${err}")
endif()
if(out MATCHES "no CUDA compiler" OR NOT out MATCHES "with CUPTI found: building the collector only")
  message(FATAL_ERROR "the CUDA client was not configured:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} --target gapscope_inject gapscope_cuda_client
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "compiling the CUDA test client failed:\n${out}\n${err}")
endif()
string(REGEX MATCHALL "warning" warnings "${out}${err}")
list(LENGTH warnings count)
if(count GREATER 0)
  message(FATAL_ERROR "compiling the CUDA test client gave ${count} warnings:\n${out}\n${err}")
endif()
file(REMOVE_RECURSE ${BUILD})
message(STATUS "the GPU targets configure and the CUDA client compiles without warnings")
