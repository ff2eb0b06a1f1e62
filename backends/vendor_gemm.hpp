#pragma once
// The vendor's matrix library (cuBLASLt on CUDA, cuBLAS where Lt is missing), loaded at run
// time: a binary built with it still starts where the library is missing, and the gemm points
// then say why they were skipped. Kokkos-free: the harness owns the matrices and hands raw device
// pointers; the call is enqueued on the execution space's stream, so the sample timer and the
// probe's fence cover it like any Kokkos kernel.
#include <cstddef>
#include <memory>
#include <string>

namespace ridgeline {

// Element types of A and B, and the unit that multiplies them. C is fp64 for kFp64, fp32 for
// fp32, tf32, fp16 and bf16 (16-bit inputs accumulate and store in fp32, so nothing is lost to
// C's rounding), and bf16 for kFp8E4m3: an FP8 GEMM in inference writes bf16 activations (the
// fp8 linear layers of vLLM and TensorRT-LLM do), so that is the kernel worth a roof; an fp32 D
// would also make the output, not the 1-byte inputs, the larger part of a skinny GEMM's traffic.
enum class GemmType { kFp64, kFp32, kTf32, kFp16, kBf16, kFp8E4m3 };
inline constexpr GemmType kGemmTypes[] = {GemmType::kFp64, GemmType::kFp32, GemmType::kTf32,
                                          GemmType::kFp16, GemmType::kBf16, GemmType::kFp8E4m3};

struct GemmTypeInfo {
  const char* dtype;        // results dtype: fp64, fp32, tf32, fp16, bf16, fp8
  std::size_t in_bytes;     // bytes per element of A and B
  std::size_t out_bytes;    // bytes per element of C
  const char* c_dtype;      // the type of C: fp64, fp32 or bf16
  const char* math;         // what the library is asked to use, for params
  int input_mantissa_bits;  // explicit mantissa bits the multiply sees (tf32: 10, fp8 E4M3: 3)
  const char* accumulate;   // the type products are summed in: the sheet entry that grades it
};
GemmTypeInfo gemm_type_info(GemmType t);

// C (m×n) = op(A)·B (k×n), all column-major. op(A) is A (m×k) for every type but fp8, whose
// A is stored k×m and transposed (the "TN" layout cuBLASLt requires for FP8 on Ada and Hopper).
struct GemmShape {
  std::size_t m = 0, n = 0, k = 0;
};
inline bool a_transposed(GemmType t) { return t == GemmType::kFp8E4m3; }

// Counted per call: 2·m·n·k FLOPs; bytes are the compulsory traffic, a lower bound: A and B read
// once, C written once ((m·k + k·n)·in + m·n·out), whatever the blocking moves.
inline double gemm_flops(const GemmShape& s) {
  return 2.0 * double(s.m) * double(s.n) * double(s.k);
}
inline double gemm_bytes(GemmType t, const GemmShape& s) {
  const GemmTypeInfo i = gemm_type_info(t);
  return (double(s.m) * double(s.k) + double(s.k) * double(s.n)) * double(i.in_bytes) +
         double(s.m) * double(s.n) * double(i.out_bytes);
}

// Why a GPU of architecture `arch` cannot run a `type` GEMM, empty when it can: FP8 (E4M3)
// tensor cores exist from sm_89 (Ada) and sm_90 (Hopper) on; ridgeline plans FP8 there only
// (other parts with FP8, such as sm_100, are not validated here), and only through cuBLASLt.
// AMD (gfx*): rocBLAS runs fp64, fp32, fp16 and bf16; its rocblas_gemm_ex has neither xf32
// (tf32) nor fp8. MI300 (gfx940/941/942) has both in its matrix cores, reached through hipBLASLt
// (`lt`: it was loaded); MI200 (gfx90a) and older have neither.
std::string gemm_type_unsupported(GemmType type, const std::string& arch, bool lt);

// The units that multiply `type` on a GPU of architecture `arch` (as `info` records it: "sm_90",
// "gfx942"): tf32, fp16 and bf16 on the tensor cores (NVIDIA: "tensor") or matrix cores (AMD:
// "matrix"); fp32 on the vector units (CUBLAS_COMPUTE_32F never uses tensor cores); fp64 on
// matrix units only where the GPU has FP64 ones: sm_80 (A100) and sm_90 (H100, H200) DMMA,
// gfx90a (MI200) and gfx940/941/942 (MI300) FP64 MFMA. Elsewhere (sm_86, sm_89: FP64 at 1/64 of
// the FP32 rate, no DMMA) an fp64 GEMM runs on the vector units and must be held against P.
// The architecture without target features: HIP's gcnArchName carries them
// ("gfx942:sramecc+:xnack-"); sm_90a is sm_90.
inline std::string base_arch(const std::string& arch_name) {
  std::string arch = arch_name.substr(0, arch_name.find(':'));
  if (arch.rfind("sm_", 0) == 0 && arch.size() > 5 && arch.back() == 'a') arch.pop_back();
  return arch;
}
// MI300 (gfx940/941/942): the AMD parts with xf32 and fp8 matrix instructions.
inline bool is_mi300(const std::string& arch_name) {
  const std::string arch = base_arch(arch_name);
  return arch == "gfx940" || arch == "gfx941" || arch == "gfx942";
}
inline std::string gemm_unit(GemmType type, const std::string& arch_name) {
  const std::string arch = base_arch(arch_name);
  const bool amd = arch.rfind("gfx", 0) == 0;
  const char* matrix = amd ? "matrix" : "tensor";
  switch (type) {
    case GemmType::kFp32:
      return "vector";
    case GemmType::kFp64:
      for (const char* with_fp64 : {"sm_80", "sm_90", "gfx90a", "gfx940", "gfx941", "gfx942"})
        if (arch == with_fp64) return matrix;
      return "vector";
    default:  // tf32, fp16, bf16, fp8
      return matrix;
  }
}

// How a library's fp8 inputs are encoded: OCP E4M3 (cuBLASLt's CUDA_R_8F_E4M3 on sm_89 and
// sm_90) or E4M3 FNUZ (hipBLASLt's HIP_R_8F_E4M3_FNUZ, MI300's matrix cores: exponent bias 8, no
// negative zero, 0x80 the only NaN). The probe encodes its data and decodes it for the check in
// the library's encoding.
enum class Fp8Encoding { kOcp, kFnuz };
inline const char* fp8_encoding_name(Fp8Encoding e) {
  return e == Fp8Encoding::kFnuz ? "E4M3 FNUZ" : "E4M3 (OCP)";
}

// What the library chose for one GEMM, recorded in the point's params.
struct GemmChoice {
  std::string api;          // "cublasLtMatmul", "cublasGemmEx" or "rocblas_gemm_ex"
  int candidates = 0;       // algorithms the heuristic returned (cublasGemmEx: 0, its default)
  int tried = 0;            // of them, how many ran (a candidate may fail to launch)
  int heuristic_rank = -1;  // the chosen one's place in the heuristic's order (0 = its first)
  std::string algorithm;    // the library's description: id, tile, stages, split-k …
  double seconds = 0;       // the chosen one's best time in the selection, for the record
};

class VendorGemm {
 public:
  virtual ~VendorGemm() = default;
  // "cuBLASLt 13.1.0 (libcublasLt.so.13)", recorded per point.
  virtual std::string library() const = 0;
  // The architecture of the device the library runs on ("sm_90"), for gemm_unit.
  virtual std::string arch() const = 0;
  // Whether the Lt API runs: cuBLASLt (else the cublasGemmEx fallback, which has no FP8), or on
  // AMD hipBLASLt beside rocBLAS (else no tf32 or fp8).
  virtual bool lt() const = 0;
  // Why this library cannot run `type` on its device, empty when it can; a library that knows
  // more than gemm_type_unsupported (why its Lt part did not load) says so.
  virtual std::string unsupported(GemmType type) const {
    return gemm_type_unsupported(type, arch(), lt());
  }
  // The encoding of its fp8 inputs.
  virtual Fp8Encoding fp8_encoding() const { return Fp8Encoding::kOcp; }
  // What the library is asked to use, for params (the CUDA text of gemm_type_info unless the
  // library says otherwise).
  virtual std::string math(GemmType type) const { return gemm_type_info(type).math; }
  // Untimed, once per point before its samples: picks how to run this GEMM on these matrices
  // (cuBLASLt: times the heuristic's top candidates and keeps the fastest) and says what it chose.
  // Blocking; may overwrite C.
  virtual GemmChoice prepare(GemmType type, const GemmShape& shape, const void* a, const void* b,
                             void* c) = 0;
  // C = op(A)·B in the layout of GemmShape, on the space's stream; asynchronous. Throws on an
  // error status (a launch failure is not a measurement). Calls prepare() first if it was not.
  virtual void gemm(GemmType type, const GemmShape& shape, const void* a, const void* b,
                    void* c) = 0;
};

// The vendor library of a device space, opened once per run; null with `why_not` set when the
// space has none or the library cannot be loaded.
VendorGemm* vendor_gemm(const std::string& space_name, std::string& why_not);

}  // namespace ridgeline
