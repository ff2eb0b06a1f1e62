// An independent reference for ridgeline's host probes: hand-written vector intrinsics and
// OpenMP, no Kokkos, for the widest ISA the compiler targets (-march=native): AVX-512 (16 zmm FMA
// chains) or AVX2 with FMA (12 ymm chains, which with the two constants fit the 16 registers).
// Prints "isa <name>", then one line per kernel, "<kernel> <median> <best> <unit>", the median
// and the best of the timed runs (compare like with like: median with median, best with best).
//   peak_fp64 / peak_fp32: independent FMA chains per thread, register-only
//   update_inplace: x[i] = x[i]*a + b over one array, in place (ERT's kernel): 16 bytes per
//                   element, read and written back, so counted bytes are moved bytes
//   triad_nt:       a[i] = b[i] + q*c[i] with non-temporal stores: 24 bytes per element, no
//                   write-allocate
//   triad:          the same with plain stores (STREAM's convention: 24 counted, 32 moved)
//   read4:          sum of r[i] with 4 accumulators: 8 bytes per element
// Working sets: argv[1] bytes for each kernel, split like ridgeline's probes (one array for update
// and read, three for the triads).
// Build: g++ -O3 -march=native -fopenmp host_reference.cpp -o host_reference
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

#if defined(__AVX512F__)
constexpr const char* kIsa = "avx512";
constexpr int kChains = 16;
using vd = __m512d;
using vs = __m512;
inline vd set1(double x) { return _mm512_set1_pd(x); }
inline vs set1(float x) { return _mm512_set1_ps(x); }
inline vd fma(vd a, vd b, vd c) { return _mm512_fmadd_pd(a, b, c); }
inline vs fma(vs a, vs b, vs c) { return _mm512_fmadd_ps(a, b, c); }
inline vd load(const double* p) { return _mm512_load_pd(p); }
inline void store(double* p, vd v) { _mm512_store_pd(p, v); }
inline void stream(double* p, vd v) { _mm512_stream_pd(p, v); }
inline vd add(vd a, vd b) { return _mm512_add_pd(a, b); }
inline vd zero() { return _mm512_setzero_pd(); }
inline double sum(vd v) { return _mm512_reduce_add_pd(v); }
inline float sum(vs v) { return _mm512_reduce_add_ps(v); }
#elif defined(__AVX2__) && defined(__FMA__)
constexpr const char* kIsa = "avx2";
constexpr int kChains = 12;
using vd = __m256d;
using vs = __m256;
inline vd set1(double x) { return _mm256_set1_pd(x); }
inline vs set1(float x) { return _mm256_set1_ps(x); }
inline vd fma(vd a, vd b, vd c) { return _mm256_fmadd_pd(a, b, c); }
inline vs fma(vs a, vs b, vs c) { return _mm256_fmadd_ps(a, b, c); }
inline vd load(const double* p) { return _mm256_load_pd(p); }
inline void store(double* p, vd v) { _mm256_store_pd(p, v); }
inline void stream(double* p, vd v) { _mm256_stream_pd(p, v); }
inline vd add(vd a, vd b) { return _mm256_add_pd(a, b); }
inline vd zero() { return _mm256_setzero_pd(); }
inline double sum(vd v) {
  alignas(32) double x[4];
  _mm256_store_pd(x, v);
  return x[0] + x[1] + x[2] + x[3];
}
inline float sum(vs v) {
  alignas(32) float x[8];
  _mm256_store_ps(x, v);
  float s = 0;
  for (float e : x) s += e;
  return s;
}
#else
#error "host_reference needs AVX-512 or AVX2 with FMA (-march=native on such a CPU)"
#endif
// Elements per vector.
constexpr int kLanesD = sizeof(vd) / sizeof(double), kLanesS = sizeof(vs) / sizeof(float);

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Times {
  double median, best;
};

template <class F>
Times time_runs(F&& f, int runs) {
  std::vector<double> t;
  f();  // warm-up
  for (int r = 0; r < runs; ++r) {
    const double t0 = now();
    f();
    t.push_back(now() - t0);
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front()};
}

void print(const char* kernel, double amount, Times t, const char* unit) {
  std::printf("%s %.4g %.4g %s\n", kernel, amount / t.median / 1e9, amount / t.best / 1e9, unit);
}

volatile double sink;

double* array(long n) {
  return static_cast<double*>(std::aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64));
}

double peak_fp64(long steps) {
  double total = 0;
#pragma omp parallel reduction(+ : total)
  {
    vd v[kChains];
    for (int c = 0; c < kChains; ++c) v[c] = set1(0.25 + c / 64.0 + omp_get_thread_num());
    const vd a = set1(1.0 - 1.0 / 65536), b = set1(1.0 / 65536);
    for (long s = 0; s < steps; ++s)
      for (int c = 0; c < kChains; ++c) v[c] = fma(v[c], a, b);
    for (int c = 0; c < kChains; ++c) total += sum(v[c]);
  }
  return total;
}

float peak_fp32(long steps) {
  float total = 0;
#pragma omp parallel reduction(+ : total)
  {
    vs v[kChains];
    for (int c = 0; c < kChains; ++c) v[c] = set1(0.25f + c / 64.0f + omp_get_thread_num());
    const vs a = set1(1.0f - 1.0f / 65536), b = set1(1.0f / 65536);
    for (long s = 0; s < steps; ++s)
      for (int c = 0; c < kChains; ++c) v[c] = fma(v[c], a, b);
    for (int c = 0; c < kChains; ++c) total += sum(v[c]);
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const long bytes = argc > 1 ? std::atol(argv[1]) : (1L << 30);
  const int runs = argc > 2 ? std::atoi(argv[2]) : 10;
  const int threads = omp_get_max_threads();
  const long steps = 1L << 22;

  std::printf("isa %s\n", kIsa);
  Times t = time_runs([&] { sink = peak_fp64(steps); }, runs);
  print("peak_fp64", threads * steps * double(kChains) * kLanesD * 2, t, "GFLOP/s");
  t = time_runs([&] { sink = peak_fp32(steps); }, runs);
  print("peak_fp32", threads * steps * double(kChains) * kLanesS * 2, t, "GFLOP/s");

  // In place: one array; each thread updates its contiguous share (first touch the same way).
  const long n = bytes / 8 / 64 * 64;
  double* x = array(n);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) x[i] = 1.0 + (i % 7) * 0.125;
  // Pointers and constants are locals of each thread: stores through the arrays cannot alias
  // them, so the loops do not reload them per line (shared captures made them do so).
  t = time_runs(
      [x, n] {
#pragma omp parallel
        {
          double* const p = x;
          const vd a = set1(1.0 - 1.0 / 65536), b = set1(1.0 / 65536);
#pragma omp for schedule(static)
          for (long i = 0; i < n; i += kLanesD) store(p + i, fma(load(p + i), a, b));
        }
      },
      runs);
  print("update_inplace", 16.0 * n, t, "GB/s");

  // Read with 4 accumulators, over the same one-array working set.
  t = time_runs(
      [&] {
        double s = 0;
#pragma omp parallel reduction(+ : s)
        {
          const long per = n / omp_get_num_threads() / 32 * 32;
          const long begin = per * omp_get_thread_num();
          vd acc[4];
          for (int k = 0; k < 4; ++k) acc[k] = zero();
          for (long i = begin; i < begin + per; i += 4 * kLanesD)
            for (int k = 0; k < 4; ++k) acc[k] = add(acc[k], load(x + i + kLanesD * k));
          for (int k = 1; k < 4; ++k) acc[0] = add(acc[0], acc[k]);
          s += sum(acc[0]);
        }
        sink = s;
      },
      runs);
  print("read4", 8.0 * (n / threads / 32 * 32 * threads), t, "GB/s");
  std::free(x);

  // Triads over three arrays that together make the working set.
  const long m = bytes / 24 / 64 * 64;
  double* ta = array(m);
  double* tb = array(m);
  double* tc = array(m);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < m; ++i) {
    ta[i] = 0;
    tb[i] = 1.0 + (i % 7) * 0.125;
    tc[i] = 2.0;
  }
  t = time_runs(
      [ta, tb, tc, m] {
#pragma omp parallel
        {
          double* const a = ta;
          const double *const b = tb, *const c = tc;
          const vd q = set1(0.375);
#pragma omp for schedule(static) nowait
          for (long i = 0; i < m; i += kLanesD) stream(a + i, fma(q, load(c + i), load(b + i)));
          _mm_sfence();  // each thread's streaming stores complete before the call ends
        }
      },
      runs);
  print("triad_nt", 24.0 * m, t, "GB/s");
  t = time_runs(
      [ta, tb, tc, m] {
#pragma omp parallel
        {
          double* const a = ta;
          const double *const b = tb, *const c = tc;
          const vd q = set1(0.375);
#pragma omp for schedule(static)
          for (long i = 0; i < m; i += kLanesD) store(a + i, fma(q, load(c + i), load(b + i)));
        }
      },
      runs);
  print("triad", 24.0 * m, t, "GB/s");
  std::free(ta);
  std::free(tb);
  std::free(tc);
  return 0;
}
