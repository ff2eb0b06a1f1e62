// Checks the hipBLASLt declarations written out in backends/hip/hipblaslt_abi.hpp against the
// real headers: every value, size, offset and function type ridgeline relies on. Not part of any
// build (Debian has no hipBLASLt); run it against each release's headers, e.g. from the `fetch`
// mirrors of ROCm/hipBLASLt (library/include), ROCm/hipBLAS (library/include/hipblas.h, with
// one-line hipblas-export.h / hipblas-version.h stand-ins), ROCm/hipBLAS-common and ROCm/HIP
// (include/hip/library_types.h, put before Debian's), plus stand-ins for the generated
// hipblaslt/hipblaslt-export.h and hipblaslt-version.h:
//
//   g++ -std=c++17 -fsyntax-only -D__HIP_PLATFORM_AMD__ -DHIPBLAS_V2 -I<overlay>
//       -I<hipblaslt/library/include> -I<ridgeline> tools/hip/hipblaslt_abi_check.cpp
//
// Passed (exit 0) at hipBLASLt rocm-6.0.0 (0.6.0, with hipBLAS and HIP rocm-6.0.0) and at commit
// 7d9fb683 (0.11.0, with hipBLAS and HIP rocm-6.2.0 and hipBLAS-common's newest); a planted wrong
// value and a wrong function type each fail it.
#include <hipblaslt.h>
#include <cstddef>
#include <type_traits>
#include "backends/hip/hipblaslt_abi.hpp"
namespace lt = ridgeline::hip::hipblaslt;
static_assert(int(lt::kSuccess) == int(HIPBLAS_STATUS_SUCCESS));
static_assert(int(lt::kOpN) == int(HIPBLAS_OP_N) && int(lt::kOpT) == int(HIPBLAS_OP_T));
static_assert(int(lt::kR32F) == int(HIP_R_32F) && int(lt::kR64F) == int(HIP_R_64F) &&
              int(lt::kR16F) == int(HIP_R_16F) && int(lt::kR16BF) == int(HIP_R_16BF) &&
              int(lt::kR8FE4m3Fnuz) == int(HIP_R_8F_E4M3_FNUZ));
static_assert(int(lt::kCompute32F) == int(HIPBLAS_COMPUTE_32F) &&
              int(lt::kCompute32FFastTf32) == int(HIPBLAS_COMPUTE_32F_FAST_TF32) &&
              int(lt::kCompute64F) == int(HIPBLAS_COMPUTE_64F));
static_assert(int(lt::kDescTransA) == int(HIPBLASLT_MATMUL_DESC_TRANSA) &&
              int(lt::kDescTransB) == int(HIPBLASLT_MATMUL_DESC_TRANSB) &&
              int(lt::kDescAScalePointer) == int(HIPBLASLT_MATMUL_DESC_A_SCALE_POINTER) &&
              int(lt::kDescBScalePointer) == int(HIPBLASLT_MATMUL_DESC_B_SCALE_POINTER));
static_assert(int(lt::kPrefMaxWorkspaceBytes) == int(HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES));
static_assert(sizeof(hipblasStatus_t) == sizeof(lt::Status));
static_assert(sizeof(hipblasComputeType_t) == sizeof(int) && sizeof(hipDataType) == sizeof(int));
static_assert(sizeof(hipblasLtMatmulAlgo_t) == sizeof(lt::MatmulAlgo));
static_assert(offsetof(hipblasLtMatmulAlgo_t, max_workspace_bytes) ==
              offsetof(lt::MatmulAlgo, max_workspace_bytes));
static_assert(sizeof(hipblasLtMatmulHeuristicResult_t) == sizeof(lt::HeuristicResult));
static_assert(offsetof(hipblasLtMatmulHeuristicResult_t, workspaceSize) ==
              offsetof(lt::HeuristicResult, workspace_size));
static_assert(offsetof(hipblasLtMatmulHeuristicResult_t, state) ==
              offsetof(lt::HeuristicResult, state));
static_assert(offsetof(hipblasLtMatmulHeuristicResult_t, wavesCount) ==
              offsetof(lt::HeuristicResult, waves_count));
static_assert(sizeof(hipblasLtHandle_t) == sizeof(lt::Handle));
// The function types, parameter by parameter: the real ones with every enum as int and every
// opaque pointer as ours must be what we call.
template <class T>
struct As {
  using type = T;
};
template <>
struct As<hipblasStatus_t> {
  using type = int;
};
template <>
struct As<hipblasComputeType_t> {
  using type = int;
};
template <>
struct As<hipDataType> {
  using type = int;
};
template <>
struct As<hipblasLtMatmulDescAttributes_t> {
  using type = int;
};
template <>
struct As<hipblasLtMatmulPreferenceAttributes_t> {
  using type = int;
};
template <>
struct As<hipblasLtHandle_t> {
  using type = lt::Handle;
};
template <>
struct As<hipblasLtHandle_t*> {
  using type = lt::Handle*;
};
template <>
struct As<const hipblasLtHandle_t> {
  using type = lt::Handle;
};
template <>
struct As<hipblasLtMatmulDesc_t> {
  using type = lt::MatmulDesc;
};
template <>
struct As<hipblasLtMatmulDesc_t*> {
  using type = lt::MatmulDesc*;
};
template <>
struct As<const hipblasLtMatmulDesc_t> {
  using type = lt::MatmulDesc;
};
template <>
struct As<hipblasLtMatrixLayout_t> {
  using type = lt::MatrixLayout;
};
template <>
struct As<hipblasLtMatrixLayout_t*> {
  using type = lt::MatrixLayout*;
};
template <>
struct As<const hipblasLtMatrixLayout_t> {
  using type = lt::MatrixLayout;
};
template <>
struct As<hipblasLtMatmulPreference_t> {
  using type = lt::Preference;
};
template <>
struct As<hipblasLtMatmulPreference_t*> {
  using type = lt::Preference*;
};
template <>
struct As<const hipblasLtMatmulPreference_t> {
  using type = lt::Preference;
};
template <>
struct As<hipblasLtMatmulHeuristicResult_t*> {
  using type = lt::HeuristicResult*;
};
template <>
struct As<const hipblasLtMatmulAlgo_t*> {
  using type = const lt::MatmulAlgo*;
};
template <>
struct As<hipStream_t> {
  using type = lt::Stream;
};
template <class F>
struct Mapped;
template <class R, class... A>
struct Mapped<R (*)(A...)> {
  using type = typename As<R>::type (*)(typename As<A>::type...);
};
#define SAME(fn, ours) static_assert(std::is_same_v<Mapped<decltype(&fn)>::type, lt::ours>, #fn)
SAME(hipblasLtCreate, Create);
SAME(hipblasLtDestroy, Destroy);
SAME(hipblasLtGetVersion, GetVersion);
SAME(hipblasLtMatmulDescCreate, DescCreate);
SAME(hipblasLtMatmulDescDestroy, DescDestroy);
SAME(hipblasLtMatmulDescSetAttribute, DescSetAttribute);
SAME(hipblasLtMatrixLayoutCreate, LayoutCreate);
SAME(hipblasLtMatrixLayoutDestroy, LayoutDestroy);
SAME(hipblasLtMatmulPreferenceCreate, PrefCreate);
SAME(hipblasLtMatmulPreferenceDestroy, PrefDestroy);
SAME(hipblasLtMatmulPreferenceSetAttribute, PrefSetAttribute);
SAME(hipblasLtMatmulAlgoGetHeuristic, AlgoGetHeuristic);
SAME(hipblasLtMatmul, Matmul);
int main() { return 0; }
