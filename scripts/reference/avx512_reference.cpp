// An independent reference for ridgeline's host probes: hand-written AVX-512 intrinsics and
// OpenMP, no Kokkos. Prints one line per kernel: "<kernel> <value> <unit>" (median of the runs).
//   peak_fp64 / peak_fp32: 16 independent zmm FMA chains per thread, register-only
//   triad_fp64: a[i] = b[i] + q*c[i], 24 bytes per element counted (no write-allocate)
//   read_fp64:  sum of r[i] with 8 accumulators, 8 bytes per element; r has 3n elements, the same
//               working set as triad's three arrays (and as ridgeline's read in the bench profile)
// Build: g++ -O3 -march=native -fopenmp avx512_reference.cpp -o avx512_reference
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F>
double median_seconds(F&& f, int runs) {
  std::vector<double> t;
  f();  // warm-up
  for (int r = 0; r < runs; ++r) {
    const double t0 = now();
    f();
    t.push_back(now() - t0);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

volatile double sink;

double peak_fp64(long steps) {
  double total = 0;
#pragma omp parallel reduction(+ : total)
  {
    __m512d v[16];
    for (int c = 0; c < 16; ++c) v[c] = _mm512_set1_pd(0.25 + c / 64.0 + omp_get_thread_num());
    const __m512d a = _mm512_set1_pd(1.0 - 1.0 / 65536), b = _mm512_set1_pd(1.0 / 65536);
    for (long s = 0; s < steps; ++s)
      for (int c = 0; c < 16; ++c) v[c] = _mm512_fmadd_pd(v[c], a, b);
    for (int c = 0; c < 16; ++c) total += _mm512_reduce_add_pd(v[c]);
  }
  return total;
}

float peak_fp32(long steps) {
  float total = 0;
#pragma omp parallel reduction(+ : total)
  {
    __m512 v[16];
    for (int c = 0; c < 16; ++c) v[c] = _mm512_set1_ps(0.25f + c / 64.0f + omp_get_thread_num());
    const __m512 a = _mm512_set1_ps(1.0f - 1.0f / 65536), b = _mm512_set1_ps(1.0f / 65536);
    for (long s = 0; s < steps; ++s)
      for (int c = 0; c < 16; ++c) v[c] = _mm512_fmadd_ps(v[c], a, b);
    for (int c = 0; c < 16; ++c) total += _mm512_reduce_add_ps(v[c]);
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : (1L << 25);  // elements per array
  const int runs = argc > 2 ? std::atoi(argv[2]) : 10;
  const int threads = omp_get_max_threads();
  const long steps = 1L << 22;

  double t = median_seconds([&] { sink = peak_fp64(steps); }, runs);
  std::printf("peak_fp64 %.4g GFLOP/s\n", threads * steps * 16.0 * 8 * 2 / t / 1e9);
  t = median_seconds([&] { sink = peak_fp32(steps); }, runs);
  std::printf("peak_fp32 %.4g GFLOP/s\n", threads * steps * 16.0 * 16 * 2 / t / 1e9);

  double* a = static_cast<double*>(std::aligned_alloc(64, n * sizeof(double)));
  double* b = static_cast<double*>(std::aligned_alloc(64, n * sizeof(double)));
  double* c = static_cast<double*>(std::aligned_alloc(64, n * sizeof(double)));
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    a[i] = 0;
    b[i] = 1.0 + (i % 7) * 0.125;
    c[i] = 2.0;
  }
  const __m512d q = _mm512_set1_pd(0.375);
  t = median_seconds(
      [&] {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i += 8)
          _mm512_store_pd(a + i, _mm512_fmadd_pd(q, _mm512_load_pd(c + i), _mm512_load_pd(b + i)));
      },
      runs);
  std::printf("triad_fp64 %.4g GB/s\n", 24.0 * n / t / 1e9);
  std::free(a);
  std::free(c);
  const long rn = 3 * n;
  double* r = static_cast<double*>(std::aligned_alloc(64, rn * sizeof(double)));
#pragma omp parallel for schedule(static)
  for (long i = 0; i < rn; ++i) r[i] = 1.0 + (i % 7) * 0.125;
  std::free(b);
  t = median_seconds(
      [&] {
        double s = 0;
#pragma omp parallel reduction(+ : s)
        {
          // Each thread sums its contiguous share with 8 independent accumulators.
          const long per = rn / omp_get_num_threads() / 64 * 64;
          const long begin = per * omp_get_thread_num();
          __m512d acc[8];
          for (int k = 0; k < 8; ++k) acc[k] = _mm512_setzero_pd();
          for (long i = begin; i < begin + per; i += 64)
            for (int k = 0; k < 8; ++k)
              acc[k] = _mm512_add_pd(acc[k], _mm512_load_pd(r + i + 8 * k));
          for (int k = 1; k < 8; ++k) acc[0] = _mm512_add_pd(acc[0], acc[k]);
          s += _mm512_reduce_add_pd(acc[0]);
        }
        sink = s;
      },
      runs);
  std::printf("read_fp64 %.4g GB/s\n", 8.0 * rn / t / 1e9);
  std::free(r);
  return 0;
}
