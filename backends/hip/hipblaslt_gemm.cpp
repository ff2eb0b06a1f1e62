// hipBLASLt's hipblasLtMatmul through dlopen, for MI300's tf32 (xf32) and fp8 (E4M3 FNUZ)
// GEMMs: the binary carries no link-time dependency on libhipblaslt (a ROCm host has it, with its
// Tensile kernels, at a path we cannot know at build time), and its declarations are written out
// in hipblaslt_abi.hpp (Debian has no hipBLASLt). As on cuBLASLt (cuda/cublas_gemm.cpp),
// prepare() times the heuristic's first candidates on the point's own matrices, outside the timed
// samples, and keeps the fastest. Compiled, not run.
#include "backends/hip/hipblaslt_gemm.hpp"

#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "backends/fastest_candidate.hpp"
#include "backends/gemm_plan_cache.hpp"
#include "backends/hip/hip_check.hpp"
#include "backends/hip/hipblaslt_abi.hpp"
#include "backends/loaded_library.hpp"

namespace ridgeline::hip {
namespace {

namespace lt = hipblaslt;

void check(lt::Status s, const char* what) {
  if (s != lt::kSuccess)
    throw std::runtime_error(std::string(what) + " failed with hipBLASLt status " +
                             std::to_string(s));
}

class HipblasLt final : public VendorGemm {
 public:
  // As on cuBLASLt: enough for what the heuristic offers at these sizes; owned for the run.
  static constexpr std::size_t kWorkspaceBytes = 32u << 20;
  static constexpr int kCandidates = kLtCandidates;
  static constexpr int kTimedRuns = kLtTimedRuns;

  // Throws with the reason when the library cannot be used (a missing symbol, an old version).
  HipblasLt(const LoadedLibrary& lib, hipStream_t stream, const std::string& arch)
      : stream_(stream), arch_(arch) {
    create_ = lib.symbol<lt::Create>("hipblasLtCreate");
    destroy_ = lib.symbol<lt::Destroy>("hipblasLtDestroy");
    const auto get_version = lib.symbol<lt::GetVersion>("hipblasLtGetVersion");
    desc_create_ = lib.symbol<lt::DescCreate>("hipblasLtMatmulDescCreate");
    desc_destroy_ = lib.symbol<lt::DescDestroy>("hipblasLtMatmulDescDestroy");
    desc_set_ = lib.symbol<lt::DescSetAttribute>("hipblasLtMatmulDescSetAttribute");
    layout_create_ = lib.symbol<lt::LayoutCreate>("hipblasLtMatrixLayoutCreate");
    layout_destroy_ = lib.symbol<lt::LayoutDestroy>("hipblasLtMatrixLayoutDestroy");
    pref_create_ = lib.symbol<lt::PrefCreate>("hipblasLtMatmulPreferenceCreate");
    pref_destroy_ = lib.symbol<lt::PrefDestroy>("hipblasLtMatmulPreferenceDestroy");
    pref_set_ = lib.symbol<lt::PrefSetAttribute>("hipblasLtMatmulPreferenceSetAttribute");
    heuristic_ = lib.symbol<lt::AlgoGetHeuristic>("hipblasLtMatmulAlgoGetHeuristic");
    matmul_ = lib.symbol<lt::Matmul>("hipblasLtMatmul");
    check(create_(&handle_), "hipblasLtCreate");
    int version = 0;
    check(get_version(handle_, &version), "hipblasLtGetVersion");
    if (const std::string refused = lt::version_refused(version); !refused.empty()) {
      free_owned();
      throw std::runtime_error(refused);
    }
    library_ =
        "hipBLASLt " + lt::version_text(version) + " (" + lib.soname() + ", hipblasLtMatmul)";
    try {
      RIDGELINE_HIP_CHECK(hipMalloc(&workspace_, kWorkspaceBytes));
      // The per-tensor scale of fp8's A and B: 1, in the compute type, on the device.
      RIDGELINE_HIP_CHECK(hipMalloc(&scale_one_, sizeof(float)));
      const float one = 1;
      RIDGELINE_HIP_CHECK(hipMemcpy(scale_one_, &one, sizeof one, hipMemcpyHostToDevice));
    } catch (...) {
      free_owned();  // a constructor that throws runs no destructor
      throw;
    }
  }
  ~HipblasLt() override {
    plans_.release_all([this](Plan& p) { release(p); });
    free_owned();
  }
  // Owns the handle, descriptors and device buffers: a copy would free them twice.
  HipblasLt(const HipblasLt&) = delete;
  HipblasLt& operator=(const HipblasLt&) = delete;

  std::string library() const override { return library_; }
  std::string arch() const override { return arch_; }
  bool lt() const override { return true; }
  std::string math(GemmType type) const override { return lt::gemm_math(type); }
  Fp8Encoding fp8_encoding() const override { return Fp8Encoding::kFnuz; }

  GemmChoice prepare(GemmType type, const GemmShape& s, const void* a, const void* b,
                     void* c) override {
    return plan(type, s, a, b, c).choice;
  }

  void gemm(GemmType type, const GemmShape& s, const void* a, const void* b, void* c) override {
    const Plan& p = plan(type, s, a, b, c);
    check(launch(p, p.algo, a, b, c), "hipblasLtMatmul");
  }

 private:
  using Plan = LtPlan<lt::MatmulDesc, lt::MatrixLayout, lt::MatmulAlgo>;

  Plan& plan(GemmType type, const GemmShape& s, const void* a, const void* b, void* c) {
    return plans_.get(
        type, s, [&] { return describe(type, s); }, [&](Plan& p) { choose(p, type, a, b, c); },
        [this](Plan& p) { release(p); });
  }

  // The layouts of vendor_gemm.hpp: C (m×n, ld m) = op(A)·B (k×n, ld k); A is m×k (ld m), or
  // for fp8 stored k×m (ld k) and transposed.
  Plan describe(GemmType type, const GemmShape& s) {
    const lt::Types t = lt::gemm_types(type);
    Plan p;
    try {
      check(desc_create_(&p.desc, t.compute, t.scale), "hipblasLtMatmulDescCreate");
      const std::int32_t op_a = a_transposed(type) ? lt::kOpT : lt::kOpN, op_b = lt::kOpN;
      check(desc_set_(p.desc, lt::kDescTransA, &op_a, sizeof op_a), "TRANSA");
      check(desc_set_(p.desc, lt::kDescTransB, &op_b, sizeof op_b), "TRANSB");
      if (type == GemmType::kFp8E4m3) {
        // Per-tensor scales, as an fp8 model is stored (and as the CUDA side passes them).
        const void* scale = scale_one_;
        check(desc_set_(p.desc, lt::kDescAScalePointer, &scale, sizeof scale), "A_SCALE_POINTER");
        check(desc_set_(p.desc, lt::kDescBScalePointer, &scale, sizeof scale), "B_SCALE_POINTER");
      }
      const bool at = a_transposed(type);
      check(
          layout_create_(&p.a, t.ab, at ? s.k : s.m, at ? s.m : s.k, std::int64_t(at ? s.k : s.m)),
          "hipblasLtMatrixLayoutCreate (A)");
      check(layout_create_(&p.b, t.ab, s.k, s.n, std::int64_t(s.k)),
            "hipblasLtMatrixLayoutCreate (B)");
      check(layout_create_(&p.c, t.cd, s.m, s.n, std::int64_t(s.m)),
            "hipblasLtMatrixLayoutCreate (C)");
    } catch (...) {
      release(p);
      throw;
    }
    return p;
  }

  // The heuristic's first kCandidates algorithms (those within the workspace), chosen between by
  // fastest_candidate.hpp with events on the space's stream. Blocking.
  void choose(Plan& p, GemmType type, const void* a, const void* b, void* c) {
    lt::Preference pref = nullptr;
    check(pref_create_(&pref), "hipblasLtMatmulPreferenceCreate");
    std::vector<lt::HeuristicResult> found(kCandidates);
    int returned = 0;
    const std::uint64_t workspace = kWorkspaceBytes;
    lt::Status st = pref_set_(pref, lt::kPrefMaxWorkspaceBytes, &workspace, sizeof workspace);
    if (st == lt::kSuccess)
      st = heuristic_(handle_, p.desc, p.a, p.b, p.c, p.c, pref, kCandidates, found.data(),
                      &returned);
    pref_destroy_(pref);
    check(st, "hipblasLtMatmulAlgoGetHeuristic");
    if (returned == 0)
      throw std::runtime_error("hipblasLtMatmulAlgoGetHeuristic offered no algorithm for " +
                               std::string(gemm_type_info(type).dtype) + " on " + arch_);
    hipEvent_t start = nullptr, stop = nullptr;
    RIDGELINE_HIP_CHECK(hipEventCreate(&start));
    RIDGELINE_HIP_CHECK(hipEventCreate(&stop));
    p.choice = {};
    p.choice.api = "hipblasLtMatmul";
    const auto usable = [&](int r) {
      return found[r].state == lt::kSuccess && found[r].workspace_size <= kWorkspaceBytes;
    };
    const auto warm = [&](int r) {
      if (launch(p, found[r].algo, a, b, c) == lt::kSuccess &&
          hipStreamSynchronize(stream_) == hipSuccess)
        return true;
      (void)hipGetLastError();  // a candidate that cannot run is not an error of the point
      return false;
    };
    const auto timed = [&](int r) {
      (void)hipEventRecord(start, stream_);
      const lt::Status ran = launch(p, found[r].algo, a, b, c);
      (void)hipEventRecord(stop, stream_);
      float ms = 0;
      if (ran != lt::kSuccess || hipEventSynchronize(stop) != hipSuccess ||
          hipEventElapsedTime(&ms, start, stop) != hipSuccess)
        return 0.0;
      return ms * 1e-3;
    };
    int kept = -1;
    try {
      kept = fastest_candidate(std::min(returned, kCandidates), kTimedRuns, usable, warm, timed,
                               p.choice, "hipblasLtMatmulAlgoGetHeuristic");
    } catch (...) {
      (void)hipEventDestroy(start);
      (void)hipEventDestroy(stop);
      throw;
    }
    (void)hipEventDestroy(start);
    (void)hipEventDestroy(stop);
    p.algo = found[kept].algo;
    p.choice.algorithm = algorithm_text(p.algo);
  }

  lt::Status launch(const Plan& p, const lt::MatmulAlgo& algo, const void* a, const void* b,
                    void* c) const {
    // α = 1 and β = 0 in the scale type (fp32 for both types run here), on the host.
    return matmul_(handle_, p.desc, &one_, a, p.a, b, p.b, &zero_, c, p.c, c, p.c, &algo,
                   workspace_, kWorkspaceBytes, stream_);
  }

  // "solution 1234": the index hipBLASLt keeps in the algorithm's first four bytes (its
  // hipblaslt_ext::getIndexFromAlgo), for the record.
  static std::string algorithm_text(const lt::MatmulAlgo& algo) {
    std::int32_t index = -1;
    std::memcpy(&index, algo.data, sizeof index);
    return index >= 0 ? "solution " + std::to_string(index) : "solution ?";
  }

  void free_owned() {
    if (handle_) destroy_(handle_);
    handle_ = nullptr;
    if (workspace_) (void)hipFree(workspace_);
    if (scale_one_) (void)hipFree(scale_one_);
    workspace_ = scale_one_ = nullptr;
  }

  void release(Plan& p) const { p.release(layout_destroy_, desc_destroy_); }

  hipStream_t stream_;
  std::string arch_;
  lt::Create create_ = nullptr;
  lt::Destroy destroy_ = nullptr;
  lt::DescCreate desc_create_ = nullptr;
  lt::DescDestroy desc_destroy_ = nullptr;
  lt::DescSetAttribute desc_set_ = nullptr;
  lt::LayoutCreate layout_create_ = nullptr;
  lt::LayoutDestroy layout_destroy_ = nullptr;
  lt::PrefCreate pref_create_ = nullptr;
  lt::PrefDestroy pref_destroy_ = nullptr;
  lt::PrefSetAttribute pref_set_ = nullptr;
  lt::AlgoGetHeuristic heuristic_ = nullptr;
  lt::Matmul matmul_ = nullptr;
  lt::Handle handle_ = nullptr;
  void* workspace_ = nullptr;
  void* scale_one_ = nullptr;
  float one_ = 1, zero_ = 0;
  GemmPlanCache<Plan> plans_;
  std::string library_;
};

}  // namespace

std::unique_ptr<VendorGemm> open_hipblaslt(ihipStream_t* stream, const std::string& arch,
                                           std::string& why_not) {
  std::vector<std::string> errors;
  const std::optional<LoadedLibrary> lib = open_first(lt::kSonames, errors);
  if (!lib) {
    why_not = lt::unavailable(errors);
    return nullptr;
  }
  try {
    return std::make_unique<HipblasLt>(*lib, stream, arch);
  } catch (const std::exception& e) {
    why_not = lib->soname() + ": " + e.what();
    return nullptr;
  }
}

}  // namespace ridgeline::hip
