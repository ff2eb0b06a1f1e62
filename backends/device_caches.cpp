#include "backends/device_caches.hpp"

namespace ridgeline {

namespace {

// One row per compute capability of the CUDA C++ Programming Guide's tables (technical
// specifications per compute capability, and the tuning guides' unified L1/shared size); 0 where a
// figure is not known here.
struct SmFacts {
  int cc;                    // 10 × major + minor
  std::uint64_t l1_kib;      // unified L1 + shared memory per SM
  std::uint64_t shared_kib;  // shared memory per SM at most (sharedMemPerMultiprocessor)
  int max_threads;           // maxThreadsPerMultiProcessor
  int max_blocks;            // maxBlocksPerMultiProcessor
};
constexpr SmFacts kSms[] = {
    {70, 128, 96, 2048, 32},   {72, 128, 96, 2048, 32},  {75, 96, 64, 1024, 16},
    {80, 192, 164, 2048, 32},  {86, 128, 100, 1536, 16}, {87, 192, 164, 1536, 16},
    {89, 128, 100, 1536, 24},  {90, 256, 228, 2048, 32}, {100, 256, 228, 2048, 32},
    {103, 256, 228, 2048, 32}, {120, 128, 100, 1536, 0},
};

const SmFacts* sm_facts(int major, int minor) {
  for (const SmFacts& f : kSms)
    if (f.cc == major * 10 + minor) return &f;
  return nullptr;
}

}  // namespace

std::uint64_t cuda_l1_bytes_per_sm(int major, int minor) {
  const SmFacts* f = sm_facts(major, minor);
  return f ? f->l1_kib * 1024 : 0;
}

int cuda_max_threads_per_sm(int major, int minor) {
  const SmFacts* f = sm_facts(major, minor);
  return f ? f->max_threads : 0;
}

std::uint64_t cuda_shared_bytes_per_sm(int major, int minor) {
  const SmFacts* f = sm_facts(major, minor);
  return f ? f->shared_kib * 1024 : 0;
}

int cuda_max_blocks_per_sm(int major, int minor) {
  const SmFacts* f = sm_facts(major, minor);
  return f ? f->max_blocks : 0;
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
