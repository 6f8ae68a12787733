#pragma once
// The one check apps and tests use before touching the GPU, and the device's properties.
#include <array>
#include <cstddef>
#include <mutex>
#include <string>

namespace spgraph::device {

// True when a CUDA device is present and usable by this build (driver loads, the device's
// architecture matches a compiled one). Otherwise false and *why says what is missing.
bool gpu_available(std::string* why = nullptr);

// "NVIDIA H200 (sm_90, 139.8 GiB)" for the current device.
std::string device_description();

// The current device (cudaGetDevice).
int current_device();

// A value of a device, computed on its first use on that device and kept: properties kernels
// read on every launch, which differ between devices (a process may cudaSetDevice to another).
// compute(device) runs at most once per device id (again after it throws); thread-safe.
template <class T>
class PerDevice {
 public:
  template <class Compute>
  T get(Compute compute) { return get(current_device(), compute); }
  template <class Compute>
  T get(int device, Compute compute) {
    if (device < 0 || device >= kMaxDevices) return compute(device);  // not kept: beyond the table
    Slot& s = slots_[static_cast<std::size_t>(device)];
    std::call_once(s.once, [&] { s.value = compute(device); });
    return s.value;
  }

 private:
  static constexpr int kMaxDevices = 64;
  struct Slot {
    std::once_flag once;
    T value{};
  };
  std::array<Slot, kMaxDevices> slots_;
};

// Of the current device, asked once per device: kernels size their grids and tiles by them on
// every launch.
int multiprocessor_count();
std::size_t l2_cache_bytes();
// Whether a kernel may be launched as a programmatic dependent of the one before it
// (dependent_launch.hpp): compute capability 9.0 and later.
bool dependent_launch_supported();

}  // namespace spgraph::device
