#include "backends/device_caches.hpp"

namespace ridgeline {

std::uint64_t cuda_l1_bytes_per_sm(int major, int minor) {
  constexpr std::uint64_t KiB = 1024;
  switch (major * 10 + minor) {
    case 70:
    case 72:
      return 128 * KiB;
    case 75:
      return 96 * KiB;
    case 80:
    case 87:
      return 192 * KiB;
    case 86:
    case 89:
      return 128 * KiB;
    case 90:
    case 100:
    case 103:
      return 256 * KiB;
    case 120:
      return 128 * KiB;
    default:
      return 0;
  }
}

int cuda_max_threads_per_sm(int major, int minor) {
  switch (major * 10 + minor) {
    case 70:
    case 72:
    case 80:
    case 90:
    case 100:
    case 103:
      return 2048;
    case 75:
      return 1024;
    case 86:
    case 87:
    case 89:
    case 120:
      return 1536;
    default:
      return 0;
  }
}

std::uint64_t cuda_shared_bytes_per_sm(int major, int minor) {
  constexpr std::uint64_t KiB = 1024;
  switch (major * 10 + minor) {
    case 70:
    case 72:
      return 96 * KiB;
    case 75:
      return 64 * KiB;
    case 80:
    case 87:
      return 164 * KiB;
    case 86:
    case 89:
    case 120:
      return 100 * KiB;
    case 90:
    case 100:
    case 103:
      return 228 * KiB;
    default:
      return 0;
  }
}

int cuda_max_blocks_per_sm(int major, int minor) {
  switch (major * 10 + minor) {
    case 70:
    case 72:
    case 80:
    case 90:
    case 100:
    case 103:
      return 32;
    case 75:
    case 86:
    case 87:
      return 16;
    case 89:
      return 24;
    default:
      return 0;
  }
}

std::uint64_t cuda_reserved_shared_bytes_per_block(int major, int /*minor*/) {
  return major >= 8 ? 1024 : 0;
}

std::uint64_t hip_l1_bytes_per_cu(const std::string& gfx_arch) {
  const std::string arch = gfx_arch.substr(0, gfx_arch.find(':'));
  if (arch == "gfx90a") return 16 * 1024;
  if (arch == "gfx940" || arch == "gfx941" || arch == "gfx942") return 32 * 1024;
  return 0;
}

}  // namespace ridgeline
