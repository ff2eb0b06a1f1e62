// cuBLASLt (and, where it cannot be loaded, cuBLAS' cublasGemmEx) through dlopen: the binary
// carries no link-time dependency on the libraries (600 MB that a GPU host has, but at a path we
// cannot know at build time); the types come from the toolkit's headers, the functions from the
// library the loader finds (LD_LIBRARY_PATH, the toolkit's lib64, a Python wheel's
// nvidia/cublas/lib).
//
// Lt is what frameworks call (torch's matmul): it takes a workspace, and its heuristic offers
// several algorithms; cublasGemmEx's default algorithm ran 2–4 % below torch on the H200
// (issue 22). prepare() times the heuristic's first candidates on the point's own matrices,
// outside the timed samples, and keeps the fastest.
#include "backends/cuda/cublas_gemm.hpp"

#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "backends/fastest_candidate.hpp"
#include "backends/gemm_plan_cache.hpp"
#include "backends/loaded_library.hpp"

namespace ridgeline::cuda {
namespace {

// The sonames that match the runtime this binary was built with.
std::string major_suffix() { return ".so." + std::to_string(CUDART_VERSION / 1000); }
std::string cublas_soname() { return "libcublas" + major_suffix(); }
std::string cublaslt_soname() { return "libcublasLt" + major_suffix(); }

// Spelled as info's "arch" (cuda_info.cpp): what gemm_unit decides the fp64 unit from; empty
// when the runtime could not say (gemm_unit then says "vector" for fp64).
std::string device_arch() {
  const int device = Kokkos::Cuda().cuda_device();
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess)
    return "sm_" + std::to_string(major) + std::to_string(minor);
  return "";
}

std::string version_text(long v) {
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed with cuBLAS status " +
                             std::to_string(static_cast<int>(s)));
}
void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorString(e));
}

// Types of A/B, C/D, compute and scale per GemmType (cublasLt.h's table of supported
// combinations; fp8: E4M3 inputs, bf16 C and D, fp32 compute and scale).
struct LtTypes {
  cudaDataType ab, cd, scale;
  cublasComputeType_t compute;
};
LtTypes lt_types(GemmType t) {
  switch (t) {
    case GemmType::kFp64:
      return {CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F};
    case GemmType::kFp32:
      return {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F};
    case GemmType::kTf32:
      return {CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32};
    case GemmType::kFp16:
      return {CUDA_R_16F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F};
    case GemmType::kBf16:
      return {CUDA_R_16BF, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F};
    case GemmType::kFp8E4m3:
      return {CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F};
  }
  throw std::logic_error("unknown GemmType");
}

// α = 1 and β = 0 in the scale type (fp64 for fp64, else fp32).
struct Scalars {
  double one64 = 1, zero64 = 0;
  float one32 = 1, zero32 = 0;
  const void* alpha(GemmType t) const {
    return t == GemmType::kFp64 ? static_cast<const void*>(&one64) : &one32;
  }
  const void* beta(GemmType t) const {
    return t == GemmType::kFp64 ? static_cast<const void*>(&zero64) : &zero32;
  }
};

class CublasLt final : public VendorGemm {
 public:
  // Enough for every algorithm the heuristic offers at these sizes (torch asks for 32 MiB on
  // Hopper); owned for the whole run.
  static constexpr std::size_t kWorkspaceBytes = 32u << 20;
  // Candidates asked of the heuristic, and timed runs of each (after one untimed launch).
  static constexpr int kCandidates = kLtCandidates;
  static constexpr int kTimedRuns = kLtTimedRuns;

  explicit CublasLt(const LoadedLibrary& lib) : lib_(lib) {
    create_ = lib.symbol<decltype(&cublasLtCreate)>("cublasLtCreate");
    destroy_ = lib.symbol<decltype(&cublasLtDestroy)>("cublasLtDestroy");
    desc_create_ = lib.symbol<decltype(&cublasLtMatmulDescCreate)>("cublasLtMatmulDescCreate");
    desc_destroy_ = lib.symbol<decltype(&cublasLtMatmulDescDestroy)>("cublasLtMatmulDescDestroy");
    desc_set_ =
        lib.symbol<decltype(&cublasLtMatmulDescSetAttribute)>("cublasLtMatmulDescSetAttribute");
    layout_create_ =
        lib.symbol<decltype(&cublasLtMatrixLayoutCreate)>("cublasLtMatrixLayoutCreate");
    layout_destroy_ =
        lib.symbol<decltype(&cublasLtMatrixLayoutDestroy)>("cublasLtMatrixLayoutDestroy");
    pref_create_ =
        lib.symbol<decltype(&cublasLtMatmulPreferenceCreate)>("cublasLtMatmulPreferenceCreate");
    pref_destroy_ =
        lib.symbol<decltype(&cublasLtMatmulPreferenceDestroy)>("cublasLtMatmulPreferenceDestroy");
    pref_set_ = lib.symbol<decltype(&cublasLtMatmulPreferenceSetAttribute)>(
        "cublasLtMatmulPreferenceSetAttribute");
    heuristic_ =
        lib.symbol<decltype(&cublasLtMatmulAlgoGetHeuristic)>("cublasLtMatmulAlgoGetHeuristic");
    algo_get_ = lib.symbol<decltype(&cublasLtMatmulAlgoConfigGetAttribute)>(
        "cublasLtMatmulAlgoConfigGetAttribute");
    matmul_ = lib.symbol<decltype(&cublasLtMatmul)>("cublasLtMatmul");
    const auto get_version = lib.symbol<decltype(&cublasLtGetVersion)>("cublasLtGetVersion");
    check(create_(&handle_), "cublasLtCreate");
    library_ =
        "cuBLASLt " + version_text(long(get_version())) + " (" + lib.soname() + ", cublasLtMatmul)";
    arch_ = device_arch();
    stream_ = Kokkos::Cuda().cuda_stream();
    check_cuda(cudaMalloc(&workspace_, kWorkspaceBytes), "cudaMalloc (cuBLASLt workspace)");
    // The per-tensor scale of fp8's A and B: 1, on the device as cuBLASLt reads it.
    check_cuda(cudaMalloc(&scale_one_, sizeof(float)), "cudaMalloc (fp8 scale)");
    const float one = 1;
    check_cuda(cudaMemcpy(scale_one_, &one, sizeof one, cudaMemcpyHostToDevice),
               "cudaMemcpy (fp8 scale)");
  }
  ~CublasLt() override {
    plans_.release_all([this](Plan& p) { release(p); });
    if (handle_) destroy_(handle_);
    cudaFree(workspace_);
    cudaFree(scale_one_);
  }
  // Owns the handle, descriptors and device buffers: a copy would free them twice.
  CublasLt(const CublasLt&) = delete;
  CublasLt& operator=(const CublasLt&) = delete;

  std::string library() const override { return library_; }
  std::string arch() const override { return arch_; }
  bool lt() const override { return true; }

  GemmChoice prepare(GemmType type, const GemmShape& s, const void* a, const void* b,
                     void* c) override {
    return plan(type, s, a, b, c).choice;
  }

  void gemm(GemmType type, const GemmShape& s, const void* a, const void* b, void* c) override {
    const Plan& p = plan(type, s, a, b, c);
    check(launch(p, type, p.algo, a, b, c), "cublasLtMatmul");
  }

 private:
  using Plan = LtPlan<cublasLtMatmulDesc_t, cublasLtMatrixLayout_t, cublasLtMatmulAlgo_t>;

  Plan& plan(GemmType type, const GemmShape& s, const void* a, const void* b, void* c) {
    return plans_.get(
        type, s, [&] { return describe(type, s); }, [&](Plan& p) { choose(p, type, a, b, c); },
        [this](Plan& p) { release(p); });
  }

  // The operation and layouts: C (m×n, ld m) = op(A)·B (k×n, ld k); A is m×k (ld m), or for
  // fp8 stored k×m (ld k) and transposed.
  Plan describe(GemmType type, const GemmShape& s) {
    const LtTypes t = lt_types(type);
    Plan p;
    try {
      check(desc_create_(&p.desc, t.compute, t.scale), "cublasLtMatmulDescCreate");
      const cublasOperation_t op_a = a_transposed(type) ? CUBLAS_OP_T : CUBLAS_OP_N;
      const cublasOperation_t op_b = CUBLAS_OP_N;
      check(desc_set_(p.desc, CUBLASLT_MATMUL_DESC_TRANSA, &op_a, sizeof op_a), "TRANSA");
      check(desc_set_(p.desc, CUBLASLT_MATMUL_DESC_TRANSB, &op_b, sizeof op_b), "TRANSB");
      if (type == GemmType::kFp8E4m3) {
        // Per-tensor scales are how an fp8 model is stored; passing them keeps the kernel the
        // one such a model runs. Fast accumulation off: partial sums are promoted to fp32
        // (verify()'s tolerance assumes it).
        const void* scale = scale_one_;
        const std::int8_t fast_accum = 0;
        check(desc_set_(p.desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale, sizeof scale),
              "A_SCALE_POINTER");
        check(desc_set_(p.desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale, sizeof scale),
              "B_SCALE_POINTER");
        check(desc_set_(p.desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast_accum, sizeof fast_accum),
              "FAST_ACCUM");
      }
      const bool at = a_transposed(type);
      check(
          layout_create_(&p.a, t.ab, at ? s.k : s.m, at ? s.m : s.k, std::int64_t(at ? s.k : s.m)),
          "cublasLtMatrixLayoutCreate (A)");
      check(layout_create_(&p.b, t.ab, s.k, s.n, std::int64_t(s.k)),
            "cublasLtMatrixLayoutCreate (B)");
      check(layout_create_(&p.c, t.cd, s.m, s.n, std::int64_t(s.m)),
            "cublasLtMatrixLayoutCreate (C)");
    } catch (...) {
      release(p);
      throw;
    }
    return p;
  }

  // The heuristic's first kCandidates algorithms, chosen between by fastest_candidate.hpp with
  // events on the space's stream. Blocking.
  void choose(Plan& p, GemmType type, const void* a, const void* b, void* c) {
    cublasLtMatmulPreference_t pref = nullptr;
    check(pref_create_(&pref), "cublasLtMatmulPreferenceCreate");
    std::vector<cublasLtMatmulHeuristicResult_t> found(kCandidates);
    int returned = 0;
    const std::size_t workspace = kWorkspaceBytes;
    cublasStatus_t st =
        pref_set_(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace);
    if (st == CUBLAS_STATUS_SUCCESS)
      st = heuristic_(handle_, p.desc, p.a, p.b, p.c, p.c, pref, kCandidates, found.data(),
                      &returned);
    pref_destroy_(pref);
    check(st, "cublasLtMatmulAlgoGetHeuristic");
    if (returned == 0)
      throw std::runtime_error("cublasLtMatmulAlgoGetHeuristic offered no algorithm");
    cudaEvent_t start = nullptr, stop = nullptr;
    check_cuda(cudaEventCreate(&start), "cudaEventCreate");
    check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
    p.choice = {};
    p.choice.api = "cublasLtMatmul";
    const auto warm = [&](int r) {
      if (launch(p, type, found[r].algo, a, b, c) == CUBLAS_STATUS_SUCCESS &&
          cudaStreamSynchronize(stream_) == cudaSuccess)
        return true;
      cudaGetLastError();  // a candidate that cannot run is not an error of the point
      return false;
    };
    const auto timed = [&](int r) {
      cudaEventRecord(start, stream_);
      const cublasStatus_t ran = launch(p, type, found[r].algo, a, b, c);
      cudaEventRecord(stop, stream_);
      float ms = 0;
      if (ran != CUBLAS_STATUS_SUCCESS || cudaEventSynchronize(stop) != cudaSuccess ||
          cudaEventElapsedTime(&ms, start, stop) != cudaSuccess)
        return 0.0;
      return ms * 1e-3;
    };
    int kept = -1;
    try {
      kept = fastest_candidate(
          returned, kTimedRuns, [&](int r) { return found[r].state == CUBLAS_STATUS_SUCCESS; },
          warm, timed, p.choice, "cublasLtMatmulAlgoGetHeuristic");
    } catch (...) {
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
      throw;
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    p.algo = found[kept].algo;
    p.choice.algorithm = algorithm_text(p.algo);
  }

  cublasStatus_t launch(const Plan& p, GemmType type, const cublasLtMatmulAlgo_t& algo,
                        const void* a, const void* b, void* c) const {
    return matmul_(handle_, p.desc, scalars_.alpha(type), a, p.a, b, p.b, scalars_.beta(type), c,
                   p.c, c, p.c, &algo, workspace_, kWorkspaceBytes, stream_);
  }

  // "id 66, tile 20, stages 14, split-k 1": the library's own enumerations, for the record.
  std::string algorithm_text(const cublasLtMatmulAlgo_t& algo) const {
    const auto get = [&](cublasLtMatmulAlgoConfigAttributes_t attr) -> std::string {
      std::uint32_t v = 0;  // id and split-k are int32, tile and stages uint32: same width
      std::size_t written = 0;
      if (algo_get_(&algo, attr, &v, sizeof v, &written) != CUBLAS_STATUS_SUCCESS) return "?";
      return std::to_string(static_cast<std::int32_t>(v));
    };
    return "id " + get(CUBLASLT_ALGO_CONFIG_ID) + ", tile " + get(CUBLASLT_ALGO_CONFIG_TILE_ID) +
           ", stages " + get(CUBLASLT_ALGO_CONFIG_STAGES_ID) + ", split-k " +
           get(CUBLASLT_ALGO_CONFIG_SPLITK_NUM);
  }

  void release(Plan& p) const { p.release(layout_destroy_, desc_destroy_); }

  LoadedLibrary lib_;
  decltype(&cublasLtCreate) create_ = nullptr;
  decltype(&cublasLtDestroy) destroy_ = nullptr;
  decltype(&cublasLtMatmulDescCreate) desc_create_ = nullptr;
  decltype(&cublasLtMatmulDescDestroy) desc_destroy_ = nullptr;
  decltype(&cublasLtMatmulDescSetAttribute) desc_set_ = nullptr;
  decltype(&cublasLtMatrixLayoutCreate) layout_create_ = nullptr;
  decltype(&cublasLtMatrixLayoutDestroy) layout_destroy_ = nullptr;
  decltype(&cublasLtMatmulPreferenceCreate) pref_create_ = nullptr;
  decltype(&cublasLtMatmulPreferenceDestroy) pref_destroy_ = nullptr;
  decltype(&cublasLtMatmulPreferenceSetAttribute) pref_set_ = nullptr;
  decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic_ = nullptr;
  decltype(&cublasLtMatmulAlgoConfigGetAttribute) algo_get_ = nullptr;
  decltype(&cublasLtMatmul) matmul_ = nullptr;
  cublasLtHandle_t handle_ = nullptr;
  cudaStream_t stream_ = nullptr;
  void* workspace_ = nullptr;
  void* scale_one_ = nullptr;
  Scalars scalars_;
  GemmPlanCache<Plan> plans_;
  std::string library_;
  std::string arch_;
};

// The fallback where cuBLASLt cannot be loaded: cublasGemmEx with its default algorithm, no fp8.
class Cublas final : public VendorGemm {
 public:
  using Create = cublasStatus_t (*)(cublasHandle_t*);
  using Destroy = cublasStatus_t (*)(cublasHandle_t);
  using SetStream = cublasStatus_t (*)(cublasHandle_t, cudaStream_t);
  using GetVersion = cublasStatus_t (*)(cublasHandle_t, int*);
  using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                    int, const void*, const void*, cudaDataType, int, const void*,
                                    cudaDataType, int, const void*, void*, cudaDataType, int,
                                    cublasComputeType_t, cublasGemmAlgo_t);

  Cublas(const LoadedLibrary& lib, const std::string& why_no_lt) {
    create_ = lib.symbol<Create>("cublasCreate_v2");
    destroy_ = lib.symbol<Destroy>("cublasDestroy_v2");
    const auto set_stream = lib.symbol<SetStream>("cublasSetStream_v2");
    gemm_ex_ = lib.symbol<GemmEx>("cublasGemmEx");
    const auto get_version = lib.symbol<GetVersion>("cublasGetVersion_v2");
    check(create_(&handle_), "cublasCreate");
    check(set_stream(handle_, Kokkos::Cuda().cuda_stream()), "cublasSetStream");
    int v = 0;
    check(get_version(handle_, &v), "cublasGetVersion");
    library_ = "cuBLAS " + version_text(v) + " (" + lib.soname() +
               ", cublasGemmEx; cuBLASLt not used: " + why_no_lt + ")";
    arch_ = device_arch();
  }
  ~Cublas() override {
    if (handle_) destroy_(handle_);
  }
  // Owns the handle: a copy would destroy it twice.
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;

  std::string library() const override { return library_; }
  std::string arch() const override { return arch_; }
  bool lt() const override { return false; }

  GemmChoice prepare(GemmType, const GemmShape&, const void*, const void*, void*) override {
    GemmChoice c;
    c.api = "cublasGemmEx";
    c.algorithm = "CUBLAS_GEMM_DEFAULT";
    return c;
  }

  void gemm(GemmType type, const GemmShape& s, const void* a, const void* b, void* c) override {
    if (type == GemmType::kFp8E4m3)
      throw std::logic_error("cublasGemmEx has no fp8 path (the plan skips it)");
    const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
    const LtTypes t = lt_types(type);
    check(gemm_ex_(handle_, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, scalars_.alpha(type), a, t.ab, m, b,
                   t.ab, k, scalars_.beta(type), c, t.cd, m, t.compute, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  }

 private:
  cublasHandle_t handle_ = nullptr;
  Create create_ = nullptr;
  Destroy destroy_ = nullptr;
  GemmEx gemm_ex_ = nullptr;
  Scalars scalars_;
  std::string library_;
  std::string arch_;
};

}  // namespace

std::unique_ptr<VendorGemm> open_cublas(std::string& why_not) {
  std::string why_no_lt;
  if (void* lt = dlopen(cublaslt_soname().c_str(), RTLD_NOW | RTLD_LOCAL)) {
    try {
      return std::make_unique<CublasLt>(LoadedLibrary(lt, cublaslt_soname()));
    } catch (const std::exception& e) {
      why_no_lt = e.what();
    }
  } else {
    why_no_lt = cublaslt_soname() + " could not be loaded (" +
                dlopen_error(cublaslt_soname().c_str()) + ")";
  }
  void* lib = dlopen(cublas_soname().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    why_not = "no vendor gemm: " + why_no_lt + ", and " + cublas_soname() +
              " could not be loaded (" + dlopen_error(cublas_soname().c_str()) +
              "); put their folder on LD_LIBRARY_PATH (scripts/gpu-run finds it)";
    return nullptr;
  }
  try {
    return std::make_unique<Cublas>(LoadedLibrary(lib, cublas_soname()), why_no_lt);
  } catch (const std::exception& e) {
    why_not = std::string("no vendor gemm: ") + why_no_lt + "; cuBLAS: " + e.what();
    return nullptr;
  }
}

}  // namespace ridgeline::cuda
