#pragma once
// Kernels and verification of StreamProbe (stream_probe.hpp).
#include <cmath>
#include <string>

namespace ridgeline {

template <class Space, class T, bool G>
void StreamProbe<Space, T, G>::run() {
  ++calls_;
  // Only the path of this space's kind is instantiated: the host kernels are not compiled for
  // the device (dead kernels there, minutes of nvcc time).
  if constexpr (G)
    run_device();
  else
    run_host();
}

template <class Space, class T, bool G>
void StreamProbe<Space, T, G>::run_host() {
  const auto l = layout_;
  const int passes = passes_;
  const T q = kStreamScalar<T>;
  // Raw restrict pointers: the arrays never alias, and saying so lets host compilers vectorise.
  T* KOKKOS_RESTRICT a = a_.data();
  T* KOKKOS_RESTRICT b = b_.data();
  T* KOKKOS_RESTRICT c = c_.data();
  const Kokkos::RangePolicy<Space> items(0, l.items);
  switch (kernel_.op) {
    case StreamOp::kCopy:
      if (kernel_.nontemporal) break;  // copy_nt: after the switch
      Kokkos::parallel_for(
          "ridgeline::copy", items, KOKKOS_LAMBDA(const std::size_t item) {
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j)
                b[l.index(item, j)] = a[l.index(item, j)];
          });
      break;
    case StreamOp::kScale:
      Kokkos::parallel_for(
          "ridgeline::scale", items, KOKKOS_LAMBDA(const std::size_t item) {
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j)
                b[l.index(item, j)] = q * a[l.index(item, j)];
          });
      break;
    case StreamOp::kAdd:
      Kokkos::parallel_for(
          "ridgeline::add", items, KOKKOS_LAMBDA(const std::size_t item) {
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j) {
                const std::size_t i = l.index(item, j);
                c[i] = a[i] + b[i];
              }
          });
      break;
    case StreamOp::kTriad:
      Kokkos::parallel_for(
          "ridgeline::triad", items, KOKKOS_LAMBDA(const std::size_t item) {
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j) {
                const std::size_t i = l.index(item, j);
                c[i] = compat::fma(q, b[i], a[i]);
              }
          });
      break;
    case StreamOp::kUpdateXy: {
      // y is read before it is written, so on a write-allocate CPU the store's line is already
      // in cache: counted bytes are moved bytes.
      const T alpha = update_alpha<T>(calls_), beta = update_beta<T>(calls_);
      Kokkos::parallel_for(
          "ridgeline::update_xy", items, KOKKOS_LAMBDA(const std::size_t item) {
            const T s = alpha, t = beta;  // locals: the stores cannot alias them
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j) {
                const std::size_t i = l.index(item, j);
                b[i] = update_step(s, t, a[i], b[i]);
              }
          });
      break;
    }
    case StreamOp::kFill:
      Kokkos::parallel_for(
          "ridgeline::fill", items, KOKKOS_LAMBDA(const std::size_t item) {
            for (int p = 0; p < passes; ++p)
              for (std::size_t j = 0; j < l.per_item; ++j) a[l.index(item, j)] = q;
          });
      break;
    case StreamOp::kDot:
    case StreamOp::kRead: {
      // fp64 and fp32 read sum words (run_host_read); dot, and read of other types (the counting
      // test's), here.
      if (sums_words()) {
        run_host_read();
        break;
      }
      // W independent partial sums per item: a vectorisable reduction without reassociating.
      constexpr std::size_t W = LaunchShape<Space>::template lanes<T>();
      const bool dot = kernel_.op == StreamOp::kDot;
      Kokkos::parallel_reduce(
          dot ? "ridgeline::dot" : "ridgeline::read", items,
          KOKKOS_LAMBDA(const std::size_t item, T& total) {
            T acc[W] = {};
            for (int p = 0; p < passes; ++p) {
              // kSumsWords<T>: read never comes here, and its adds are not compiled.
              if (dot || kSumsWords<T>) {
                for (std::size_t j = 0; j < l.per_item; j += W)
                  for (std::size_t w = 0; w < W; ++w)
                    acc[w] = compat::fma(a[l.index(item, j + w)], b[l.index(item, j + w)], acc[w]);
              } else {
                for (std::size_t j = 0; j < l.per_item; j += W)
                  for (std::size_t w = 0; w < W; ++w) acc[w] += a[l.index(item, j + w)];
              }
            }
            for (std::size_t w = 0; w < W; ++w) total += acc[w];
          },
          result_);
      break;
    }
  }
  // copy_nt, each item's contiguous run with streaming stores. Its lambda comes last in the
  // source, so the others keep the numbers scripts/check-hot-loops knows them by.
  if (kernel_.op == StreamOp::kCopy && kernel_.nontemporal)
    Kokkos::parallel_for(
        kernel_label(), items, KOKKOS_LAMBDA(const std::size_t item) {
          for (int p = 0; p < passes; ++p)
            copy_streaming(a + l.index(item, 0), b + l.index(item, 0), l.per_item);
        });
}

// The words of a as 32-bit unsigned integers (word_sum.hpp, xor3_pass), each item's contiguous
// run into W lanes per pass: W words are 8 vector registers of them (kHostIsa.accumulator_vectors),
// so the hot loop loads 16 vectors and updates each register once with two of them (one vpternlogd
// per two vectors on AVX-512). Each pass starts from zeroed lanes and adds their sum into the
// item's total. An item's run of per_item elements is a whole number of W words (per_item is a
// multiple of lanes<T>(): the same 8 registers' bytes).
template <class Space, class T, bool G>
void StreamProbe<Space, T, G>::run_host_read() {
  // Host layouts of fp64 and fp32 only: no dead kernel for a device space or another type.
  if constexpr (!G && kSumsWords<T>) {
    constexpr std::size_t R = kWordsPerElement<T>;
    constexpr std::size_t W = LaunchShape<Space>::template lanes<SumWord>();
    static_assert(LaunchShape<Space>::template lanes<T>() * R % W == 0,
                  "whole rows of accumulators");
    const auto l = layout_;
    const int passes = passes_;
    // The array's own pointer is captured, and cast inside: a captured AliasWord pointer is a
    // template argument of nvcc's extended lambda, where GCC drops may_alias
    // (-Wignored-attributes).
    const T* KOKKOS_RESTRICT a = a_.data();
    Kokkos::parallel_reduce(
        "ridgeline::read", Kokkos::RangePolicy<Space>(0, l.items),
        KOKKOS_LAMBDA(const std::size_t item, SumWord& total) {
          const AliasWord* KOKKOS_RESTRICT w =
              reinterpret_cast<const AliasWord*>(a + l.index(item, 0));
          const std::size_t n = l.per_item * R;
          total += xor3_read<W>(w, n, passes);
        },
        words_result_);
  }
}

template <class Space, class T, bool G>
void StreamProbe<Space, T, G>::run_device() {
  switch (kernel_.op) {
    case StreamOp::kCopy:
      return run_device_op<StreamOp::kCopy>();
    case StreamOp::kScale:
      return run_device_op<StreamOp::kScale>();
    case StreamOp::kAdd:
      return run_device_op<StreamOp::kAdd>();
    case StreamOp::kTriad:
      return run_device_op<StreamOp::kTriad>();
    case StreamOp::kDot:
      return run_device_op<StreamOp::kDot>();
    case StreamOp::kRead:
      return run_device_op<StreamOp::kRead>();
    case StreamOp::kFill:
      return run_device_op<StreamOp::kFill>();
    case StreamOp::kUpdateXy:
      return run_device_op<StreamOp::kUpdateXy>();
  }
}

// The element a non-reducing operation stores, from its inputs; `r` is update_xy's β (its α is
// `q`).
template <StreamOp Op, class T>
KOKKOS_FORCEINLINE_FUNCTION T stream_value(T q, T r, T a, T b) {
  if constexpr (Op == StreamOp::kCopy) return a;
  if constexpr (Op == StreamOp::kScale) return q * a;
  if constexpr (Op == StreamOp::kAdd) return a + b;
  if constexpr (Op == StreamOp::kTriad) return compat::fma(q, b, a);
  if constexpr (Op == StreamOp::kUpdateXy) return update_step(q, r, a, b);
  (void)r;
  return q;  // fill
}

// Keeps a round's loads of two arrays ahead of its arithmetic on AMD GPUs: one empty asm statement
// takes every loaded vector as an operand it may change, so each load is issued before it and no
// arithmetic on them before it. Left alone, clang 15 (gfx90a) paired each vector of the first
// array with its partner, added them and waited for both (vmcnt(0)) before it issued the next
// pair's loads: add fp64 kept 96, add/triad fp32 32 and dot fp32 64 of a round's 128 bytes in
// flight (scripts/check-gpu-codegen). A scheduling barrier (__builtin_amdgcn_sched_barrier) fixed
// fp64 only: it orders machine instructions, and the SLP vectorizer had already moved the fp32
// loads and adds together in the IR. ptxas keeps CUDA's rounds together without it. Rounds of U
// vectors only (U = 4: eight 16-byte operands); the leftover single vectors stay as they are.
template <class T, std::size_t N>
KOKKOS_FORCEINLINE_FUNCTION void hold_round(Vector16<T> (&ra)[N], Vector16<T> (&rb)[N]) {
#if defined(__HIP_DEVICE_COMPILE__)
  if constexpr (N == 4) {
    using Raw = unsigned __attribute__((ext_vector_type(4)));  // one 16-byte VGPR quad
    static_assert(sizeof(Raw) == sizeof(Vector16<T>), "a vector is one VGPR quad");
    Raw r[2 * N];
    for (std::size_t u = 0; u < N; ++u) {
      __builtin_memcpy(&r[u], &ra[u], sizeof(Raw));
      __builtin_memcpy(&r[N + u], &rb[u], sizeof(Raw));
    }
    asm volatile(""
                 : "+v"(r[0]), "+v"(r[1]), "+v"(r[2]), "+v"(r[3]), "+v"(r[4]), "+v"(r[5]),
                   "+v"(r[6]), "+v"(r[7]));
    for (std::size_t u = 0; u < N; ++u) {
      __builtin_memcpy(&ra[u], &r[u], sizeof(Raw));
      __builtin_memcpy(&rb[u], &r[N + u], sizeof(Raw));
    }
  }
#else
  (void)ra;
  (void)rb;
#endif
}

// N vectors of a non-reducing operation: every load of the N vectors, then the stores.
template <StreamOp Op, class T, std::size_t N>
KOKKOS_FORCEINLINE_FUNCTION void stream_vectors(const T* a, const T* b, T* out, T q, T r,
                                                const std::size_t (&first)[N]) {
  using Vec = Vector16<T>;
  constexpr bool kReads = Op != StreamOp::kFill;
  constexpr bool kReadsB = stream_reads_b(Op);
  // update_xy loads y through `out`, the pointer it stores through: b and out are the same array,
  // which the compiler cannot know, and one address per vector instead of two kept update_xy fp32
  // within gfx908's 64 VGPRs (through b it took 62 VGPRs and spilled into 4 AGPRs).
  const T* const in_b = Op == StreamOp::kUpdateXy ? out : b;
  [[maybe_unused]] Vec ra[N], rb[N];
  for (std::size_t u = 0; u < N; ++u) {
    if constexpr (kReads) ra[u] = *reinterpret_cast<const Vec*>(a + first[u]);
    if constexpr (kReadsB) rb[u] = *reinterpret_cast<const Vec*>(in_b + first[u]);
  }
  if constexpr (kReadsB) hold_round(ra, rb);
  for (std::size_t u = 0; u < N; ++u) {
    Vec v;
    for (std::size_t j = 0; j < Vec::kLanes; ++j) {
      if constexpr (kReadsB)
        v.lane[j] = stream_value<Op>(q, r, ra[u].lane[j], rb[u].lane[j]);
      else if constexpr (kReads)
        v.lane[j] = stream_value<Op>(q, r, ra[u].lane[j], T(0));
      else
        v.lane[j] = q;
    }
    *reinterpret_cast<Vec*>(out + first[u]) = v;
  }
}

// N vectors of read or dot into the accumulators acc[u mod M][lane]. GPUs read in the element
// type's adds, not the hosts' integer words (word_sum.hpp): on NVIDIA a 32-bit integer add runs on
// the INT32 pipe at half FADD's rate (64 against 128 lanes per clock per SM, sm_89 and sm_90
// sheets) and shares it with the loop's index arithmetic, so sm_89's cache_read<fp32> round of 8
// vectors (37 int32, 32 FADD: 210 B/clk per SM, issue-bound, 1.64 × L1) would carry 69 int32,
// 64 × 128 / 69 = 119 B/clk, under L1's 128; on AMD an integer add is a VALU instruction as an
// fp32 add is, with no packed 32-bit form to match v_pk_add_f32 (gfx90a). fp32 passes
// scripts/check-gpu-codegen on every arch; the GPU profiles plan no fp64 pyramid.
template <StreamOp Op, class T, std::size_t N, std::size_t M, std::size_t L>
KOKKOS_FORCEINLINE_FUNCTION void reduce_vectors(const T* a, const T* b, T (&acc)[M][L],
                                                const std::size_t (&first)[N]) {
  using Vec = Vector16<T>;
  static_assert(L == Vec::kLanes, "one accumulator per lane of a vector");
  [[maybe_unused]] Vec ra[N], rb[N];
  for (std::size_t u = 0; u < N; ++u) {
    ra[u] = *reinterpret_cast<const Vec*>(a + first[u]);
    if constexpr (Op == StreamOp::kDot) rb[u] = *reinterpret_cast<const Vec*>(b + first[u]);
  }
  if constexpr (Op == StreamOp::kDot) hold_round(ra, rb);
  for (std::size_t u = 0; u < N; ++u)
    for (std::size_t j = 0; j < L; ++j) {
      if constexpr (Op == StreamOp::kDot)
        acc[u % M][j] = compat::fma(ra[u].lane[j], rb[u].lane[j], acc[u % M][j]);
      else
        acc[u % M][j] += ra[u].lane[j];
    }
}

// One kernel per operation on the resident grid (GridStride, DeviceSweep): per pass, rounds of
// U 16-byte vectors per array (all loads of a round before its stores), then the thread's
// leftover vectors and its tail element; the pass start moves by `rotation`.
template <class Space, class T, bool G>
template <StreamOp Op>
void StreamProbe<Space, T, G>::run_device_op() {
  constexpr std::size_t U = Grid::kRound, V = Grid::kVector, kReduceRows = Grid::kReduceRows;
  const Grid g = grid_;
  const DeviceSweep sweep = sweep_;
  const std::size_t vectors = g.vectors();
  const int passes = passes_;
  // update_xy's α and β of this call; q alone for the others.
  const T q = Op == StreamOp::kUpdateXy ? update_alpha<T>(calls_) : kStreamScalar<T>;
  const T r = update_beta<T>(calls_);
  const T* const a = a_.data();
  const T* const b = b_.data();  // update_xy: also `out`, which its loads of a round precede
  T* const out = Op == StreamOp::kFill ? a_.data()
                 : (Op == StreamOp::kCopy || Op == StreamOp::kScale || Op == StreamOp::kUpdateXy)
                     ? b_.data()
                     : c_.data();
  if constexpr (Op == StreamOp::kDot || Op == StreamOp::kRead) {
    // Kokkos' reduction with 256-thread blocks and at most 64 registers (4 blocks, 1024 threads
    // per SM on sm_90; a cap at 32 registers spilled the fp64 dot to local memory on the first
    // H200 run: 35 LDL/STL, 0.85 of the device copy). Kokkos fixes the reduction's own grid and
    // folds several of the R logical threads into one when R exceeds it. Two rows of V
    // accumulators: one per loaded vector (4 rows) spilled the fp32 dot on sm_90 (8 LDL/STL).
    const Kokkos::RangePolicy<Space, Kokkos::LaunchBounds<256, 4>> threads(0, sweep.threads);
    Kokkos::parallel_reduce(
        kernel_label(), threads,
        KOKKOS_LAMBDA(const std::size_t t, T& total) {
          T acc[kReduceRows][V] = {};
          // The tail's own sum: added into acc[0][0], that one lane was kept apart and clang paired
          // the others (1, 2) and (3, 0) for v_pk_add_f32 on gfx90a, a v_mov per lane of every
          // vector of row 0 (8 of the read loop's 49 vector ALU instructions).
          T tail = 0;
          std::size_t offset = 0;
          for (int p = 0; p < passes; ++p) {
            g.template pass<Op == StreamOp::kDot>(
                t, sweep.span, offset, sweep.step,
                [&](const std::size_t(&first)[U]) { reduce_vectors<Op>(a, b, acc, first); },
                [&](const std::size_t first) {
                  const std::size_t one[1] = {first};
                  reduce_vectors<Op>(a, b, acc, one);
                });
            g.for_tail(t, [&](const std::size_t i) {
              tail = Op == StreamOp::kDot ? compat::fma(a[i], b[i], tail) : tail + a[i];
            });
            offset += sweep.rotation;
            if (offset >= vectors) offset -= vectors;
          }
          for (std::size_t r = 0; r < kReduceRows; ++r)
            for (std::size_t j = 0; j < V; ++j) total += acc[r][j];
          total += tail;
        },
        result_);
  } else {
    const typename LaunchShape<Space>::StreamPolicy threads(0, sweep.threads);
    Kokkos::parallel_for(
        kernel_label(), threads, KOKKOS_LAMBDA(const std::size_t t) {
          std::size_t offset = 0;
          for (int p = 0; p < passes; ++p) {
            g.pass(
                t, sweep.span, offset, sweep.step,
                [&](const std::size_t(&first)[U]) { stream_vectors<Op>(a, b, out, q, r, first); },
                [&](const std::size_t first) {
                  const std::size_t one[1] = {first};
                  stream_vectors<Op>(a, b, out, q, r, one);
                });
            g.for_tail(t, [&](const std::size_t i) {
              out[i] = stream_value<Op>(q, r, Op == StreamOp::kFill ? q : a[i],
                                        stream_reads_b(Op) ? b[i] : T(0));
            });
            offset += sweep.rotation;
            if (offset >= vectors) offset -= vectors;
          }
        });
  }
}

template <class Space, class T, bool G>
Verification StreamProbe<Space, T, G>::verify() {
  const std::size_t n = info_.elements;
  if (sums_words()) return verify_words();
  if (kernel_.reduces) {
    // The inputs repeat with period 35 (i mod 7 and i mod 5): sum one period per residue class.
    long double gold = 0;
    for (std::size_t r = 0; r < kStreamPeriod && r < n; ++r) {
      const long double count = (long double)(n / kStreamPeriod + (r < n % kStreamPeriod ? 1 : 0));
      const long double a = stream_init_a<T>(r);
      gold += count * (kernel_.op == StreamOp::kDot ? a * (long double)stream_init_b<T>(r) : a);
    }
    // Every element is read passes × reads_per_pass times per call (device: whole vectors
    // replicated, the tail once per pass; host: once per pass).
    const long double reads = G ? double(sweep_.reads_per_pass(grid_.vectors())) : 1.0;
    long double tail_gold = 0;
    if constexpr (G)
      for (std::size_t i = grid_.vectors() * Grid::kVector; i < n; ++i)
        tail_gold += kernel_.op == StreamOp::kDot
                         ? (long double)stream_init_a<T>(i) * (long double)stream_init_b<T>(i)
                         : (long double)stream_init_a<T>(i);
    gold = double(passes_) * ((gold - tail_gold) * reads + tail_gold);
    const long double result = read_result();
    // Worst-case rounding of the longest chain of dependent additions. Host: each accumulator's
    // run, then the W accumulators, then the items. Device: each accumulator's slots over the
    // passes, the logical threads a reduction thread folds in sequence (Kokkos launches at
    // least 1024 of them), the U·V accumulators, and a tree. Values are multiples of 1/32, so
    // small sums are exact and the bound is rarely approached.
    constexpr std::size_t W = LaunchShape<Space>::template lanes<T>();
    const double chain =
        G ? double(passes_) *
                    (double(sweep_.span) / double(std::max<std::size_t>(sweep_.threads, 1)) + 2) +
                std::ceil(double(sweep_.threads) / 1024) +
                double(Grid::kReduceRows * Grid::kVector) + 64
          : double(layout_.per_item) * passes_ / W + W + double(layout_.items);
    const long double tol = chain * epsilon<T>() * std::fabs(gold);
    if (!(std::fabs(result - gold) <= tol))
      return {false, std::string(kernel_.name) + ": sum " + std::to_string((double)result) +
                         ", expected " + std::to_string((double)gold)};
    return {};
  }
  const Kokkos::Array<T, kStreamPeriod> want = expected_period();
  const T rel = tolerance();
  if constexpr (kIsDeviceSpace<Space>) return verify_on_device(want, rel);
  const auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), output());
  for (std::size_t i = 0; i < n; ++i) {
    const T w = want[i % kStreamPeriod];
    if (!(std::fabs(out(i) - w) <= rel * std::fabs(w))) return {false, error_at(i, out(i), w)};
  }
  return {};
}

// The words' XOR sum against the host's, exactly (word_sum.hpp, xor3_pass): passes × the sum over
// items and lanes of each lane's XOR. Lane k of an item holds the words at offsets k mod W of its
// run: word h of the elements c + L·t (c = k / R, h = k % R, L = W / R elements, t < per_item / L).
// The inputs repeat with period 7 and L is a power of two, so element c + L·t holds the same
// value as c + L·(t mod 7): the lane is the XOR of those of the first 7 (t < 7) that occur an odd
// number of times. O(items × W × 7), whatever the array's size.
//
// What it sees: a missed or extra pass or item changes the total by that item's pass sum, and a
// kernel that read nothing leaves 0. Blind spots: fp64's low words are 0 (1 + r/8 has no low
// mantissa bits), so those words are read but not checked (as in an add of the words); an item
// whose pass sum is 0 mod 2^32 could skip or repeat passes unseen (the lanes' sum is not 0 at
// the profiles' sizes: tests/harness/probe_verification_test.cpp holds them); and where the
// expected total is 0 a kernel that read nothing would match, so the check says it cannot verify
// (a failed check) rather than pass.
template <class Space, class T, bool G>
Verification StreamProbe<Space, T, G>::verify_words() {
  if constexpr (kSumsWords<T> && !G) {
    constexpr std::size_t W = LaunchShape<Space>::template lanes<SumWord>();
    constexpr std::size_t R = kWordsPerElement<T>, L = W / R;
    static_assert(W % R == 0 && L % 7 != 0, "whole elements per row of lanes, prime to 7");
    const auto l = layout_;
    const std::size_t per_lane = l.per_item / L;  // per_item is a multiple of lanes<T>() = L
    SumWord pass = 0;                             // one pass over every item
    for (std::size_t item = 0; item < l.items; ++item)
      for (std::size_t c = 0; c < L; ++c)
        for (std::size_t h = 0; h < R; ++h) {
          SumWord lane = 0;
          for (std::size_t t = 0; t < 7 && t < per_lane; ++t)
            if ((per_lane / 7 + (t < per_lane % 7 ? 1 : 0)) % 2)
              lane ^= element_word(stream_init_a<T>(l.index(item, c + L * t)), h);
          pass += lane;
        }
    const SumWord gold = pass * SumWord(passes_);
    const SumWord got = read_words_result();
    const std::string name = kernel_.name;
    if (gold == 0)
      return {false, name + ": cannot verify: the expected XOR sum of 32-bit words is 0 at " +
                         std::to_string(l.per_item) + " elements per item and " +
                         std::to_string(passes_) + " passes (a kernel that read nothing matches)"};
    if (got != gold)
      return {false, name + ": XOR sum of 32-bit words " + std::to_string(got) + ", expected " +
                         std::to_string(gold)};
  }
  return {};
}

// Device arrays are gigabytes: every element is checked where it lives, and only the first wrong
// one (if any) comes to the host.
template <class Space, class T, bool G>
Verification StreamProbe<Space, T, G>::verify_on_device(const Kokkos::Array<T, kStreamPeriod>& want,
                                                        const T rel) {
  const std::size_t n = info_.elements;
  const View out = output();
  const Kokkos::Array<T, kStreamPeriod> w = want;  // by value into the kernel
  std::size_t first_bad = n;  // Min's identity is the largest size_t: >= n means none
  Kokkos::parallel_reduce(
      "ridgeline::stream_verify", Kokkos::RangePolicy<Space>(0, n),
      KOKKOS_LAMBDA(const std::size_t i, std::size_t& bad) {
        const T expected = w[i % kStreamPeriod];
        const T diff = out(i) - expected, tol = rel * (expected < 0 ? -expected : expected);
        if (!(diff <= tol && -diff <= tol) && i < bad) bad = i;
      },
      Kokkos::Min<std::size_t>(first_bad));
  if (first_bad >= n) return {};
  T got{};
  Kokkos::deep_copy(got, Kokkos::subview(out, first_bad));
  return {false, error_at(first_bad, got, want[first_bad % kStreamPeriod])};
}

}  // namespace ridgeline
