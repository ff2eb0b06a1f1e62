#pragma once
// The execution space and device a Kokkos kernel ran on, decoded from the devID argument of
// kokkosp_begin_parallel_*. Both Kokkos generations put the space's type in the top 8 bits
// (Serial 0, OpenMP 1, Cuda 2, HIP 3, OpenMPTarget 4, HPX 5, Threads 6, SYCL 7, OpenACC 8);
// below it, Kokkos 3.4.01 (interface 20210225, Kokkos_Profiling_Interface.hpp: 8 + 24 bits) has
// only the instance, while 4.x (num_device_bits 7, num_instance_bits 17) has the device in
// bits 17-23 and the instance below.
#include <cstdint>
#include <string>

namespace ridgeline::kp {

// The last interface version whose devID holds no device bits (Kokkos 3.4.x).
inline constexpr std::uint64_t kLastInterfaceWithoutDeviceBits = 20210225;

struct ExecutionPlace {
  std::string space;  // "Serial", "OpenMP", "Cuda", ... ; "Unknown(<n>)" for a type not listed
  std::uint32_t device = 0;
  std::uint32_t instance = 0;
};

ExecutionPlace decode_device_id(std::uint32_t dev_id, std::uint64_t interface_version);

}  // namespace ridgeline::kp
