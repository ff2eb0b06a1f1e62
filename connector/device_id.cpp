#include "connector/device_id.hpp"

namespace ridgeline::kp {

ExecutionPlace decode_device_id(std::uint32_t dev_id, std::uint64_t interface_version) {
  static const char* const kSpaces[] = {"Serial", "OpenMP",  "Cuda", "HIP",    "OpenMPTarget",
                                        "HPX",    "Threads", "SYCL", "OpenACC"};
  const std::uint32_t type = dev_id >> 24;
  ExecutionPlace p;
  p.space = type < sizeof kSpaces / sizeof kSpaces[0] ? kSpaces[type]
                                                      : "Unknown(" + std::to_string(type) + ")";
  if (interface_version <= kLastInterfaceWithoutDeviceBits) {
    p.instance = dev_id & 0xffffffu;
  } else {
    p.device = (dev_id >> 17) & 0x7fu;
    p.instance = dev_id & 0x1ffffu;
  }
  return p;
}

}  // namespace ridgeline::kp
