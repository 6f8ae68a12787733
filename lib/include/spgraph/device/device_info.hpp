#pragma once
// The one check apps and tests use before touching the GPU.
#include <cstddef>
#include <string>

namespace spgraph::device {

// True when a CUDA device is present and usable by this build (driver loads, the device's
// architecture matches a compiled one). Otherwise false and *why says what is missing.
bool gpu_available(std::string* why = nullptr);

// "NVIDIA H200 (sm_90, 139.8 GiB)" for the current device.
std::string device_description();

// Of the device current at the first call, asked once per process: kernels size their grids
// and tiles by them on every launch, and spgraph runs on one device.
int multiprocessor_count();
std::size_t l2_cache_bytes();
// Whether a kernel may be launched as a programmatic dependent of the one before it
// (dependent_launch.hpp): compute capability 9.0 and later.
bool dependent_launch_supported();

}  // namespace spgraph::device
