#pragma once
// Kokkos lives for one subcommand. Arguments that are Kokkos' own (--kokkos-*) are forwarded,
// and --threads is translated to the flag this Kokkos version reads.
#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

#include "harness/compat/kokkos_compat.hpp"

namespace ridgeline {

class KokkosSession {
 public:
  KokkosSession(const std::vector<std::string>& kokkos_args, int threads) {
    args_.push_back("ridgeline");
    if (threads > 0)
      args_.push_back(std::string(compat::threads_flag()) + "=" + std::to_string(threads));
    args_.insert(args_.end(), kokkos_args.begin(), kokkos_args.end());
    for (auto& a : args_) argv_.push_back(a.data());
    int argc = static_cast<int>(argv_.size());
    Kokkos::initialize(argc, argv_.data());
  }
  ~KokkosSession() { Kokkos::finalize(); }
  // Kokkos may be initialised once per process: a session is neither copied nor moved.
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;

 private:
  std::vector<std::string> args_;
  std::vector<char*> argv_;
};

}  // namespace ridgeline
