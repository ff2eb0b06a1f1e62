// The vendor gemm's points without a GPU: a host stand-in for the library (a plain triple loop on
// the Serial space, whose "device" pointers are host memory) runs the probe's own setup, layouts
// and check, and counts what a GEMM of that shape touches; the planning decides which points
// exist for which architecture and library. cuBLASLt itself is compiled, not run, here.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "backends/vendor_gemm.hpp"
#include "harness/probes/fp8_e4m3.hpp"
#include "harness/probes/half_precision.hpp"
#include "harness/probes/vendor_gemm_probe.hpp"
#include "harness/sweep/vendor_gemm_plan.hpp"

namespace ridgeline {
namespace {

using Space = Kokkos::Serial;

// C = op(A)·B as the VendorGemm contract lays it out, summed in double and rounded once to C's
// type. It counts multiply-adds and the distinct elements it reads and writes: an independent
// measure of the probe's FLOP and byte formulas.
class HostGemm final : public VendorGemm {
 public:
  // kReadsOtherFp8Encoding: the probe encodes fp8 as fp8_encoding() says, the library decodes
  // the other encoding (an OCP code read as FNUZ is half its value).
  enum class Fault { kNone, kIgnoresTranspose, kDropsLastTerm, kReadsOtherFp8Encoding };
  explicit HostGemm(std::string arch = "sm_90", bool lt = true, Fault fault = Fault::kNone,
                    Fp8Encoding fp8 = Fp8Encoding::kOcp)
      : arch_(std::move(arch)), lt_(lt), fault_(fault), fp8_(fp8) {}

  std::string library() const override { return "host stand-in"; }
  std::string arch() const override { return arch_; }
  bool lt() const override { return lt_; }
  Fp8Encoding fp8_encoding() const override { return fp8_; }
  GemmChoice prepare(GemmType, const GemmShape&, const void*, const void*, void*) override {
    ++prepared;
    GemmChoice c;
    c.api = "host";
    c.candidates = 3;
    c.tried = 2;
    c.heuristic_rank = 1;
    c.algorithm = "triple loop";
    return c;
  }
  void gemm(GemmType type, const GemmShape& s, const void* a, const void* b, void* c) override {
    const GemmTypeInfo t = gemm_type_info(type);
    const auto* pa = static_cast<const unsigned char*>(a);
    const auto* pb = static_cast<const unsigned char*>(b);
    auto* pc = static_cast<unsigned char*>(c);
    inputs_seen.push_back({pa, pb});
    const bool at = a_transposed(type) && fault_ != Fault::kIgnoresTranspose;
    const bool bf16_in = type == GemmType::kBf16;
    const Fp8Encoding read_as = fault_ != Fault::kReadsOtherFp8Encoding ? fp8_
                                : fp8_ == Fp8Encoding::kOcp             ? Fp8Encoding::kFnuz
                                                                        : Fp8Encoding::kOcp;
    read_a.clear();
    read_b.clear();
    written_c.clear();
    multiply_adds = 0;
    const std::size_t k_used = fault_ == Fault::kDropsLastTerm ? s.k - 1 : s.k;
    for (std::size_t j = 0; j < s.n; ++j)
      for (std::size_t i = 0; i < s.m; ++i) {
        double sum = 0;
        for (std::size_t l = 0; l < k_used; ++l) {
          const std::size_t ai = at ? l + i * s.k : i + l * s.m, bi = l + j * s.k;
          read_a.insert(ai);
          read_b.insert(bi);
          sum += element_value(pa + ai * t.in_bytes, int(t.in_bytes), bf16_in, read_as) *
                 element_value(pb + bi * t.in_bytes, int(t.in_bytes), bf16_in, read_as);
          ++multiply_adds;
        }
        const std::size_t ci = i + j * s.m;
        written_c.insert(ci);
        store(pc + ci * t.out_bytes, t.out_bytes, sum);
      }
  }

  int prepared = 0;
  long long multiply_adds = 0;
  std::vector<std::pair<const void*, const void*>> inputs_seen;  // A and B of every call
  std::set<std::size_t> read_a, read_b, written_c;

 private:
  static void store(unsigned char* p, std::size_t bytes, double v) {
    if (bytes == 8) {
      std::memcpy(p, &v, 8);
    } else if (bytes == 4) {
      const float f = float(v);
      std::memcpy(p, &f, 4);
    } else {
      const std::uint16_t h = encode_half(Bf16{}, float(v));
      std::memcpy(p, &h, 2);
    }
  }
  std::string arch_;
  bool lt_;
  Fault fault_;
  Fp8Encoding fp8_;
};

constexpr GemmShape kSkinny{16, 24, 40};  // m, n, k all different: no formula may mix them up

TEST(VendorGemm, CountsAreWhatAGemmOfThatShapeTouches) {
  for (const GemmType t : kGemmTypes) {
    HostGemm lib;
    VendorGemmProbe<Space> p(t, kSkinny, lib);
    SCOPED_TRACE(p.info().name);
    p.setup();
    p.run();
    p.fence();
    const GemmTypeInfo ti = gemm_type_info(t);
    EXPECT_EQ(p.info().flops, 2.0 * double(lib.multiply_adds));
    EXPECT_EQ(p.info().flops, 2.0 * 16 * 24 * 40);
    // Compulsory traffic: every element of A and B read once, every element of C written once.
    EXPECT_EQ(p.info().bytes, double((lib.read_a.size() + lib.read_b.size()) * ti.in_bytes +
                                     lib.written_c.size() * ti.out_bytes));
    EXPECT_EQ(lib.read_a.size(), 16u * 40u);
    EXPECT_EQ(lib.read_b.size(), 40u * 24u);
    EXPECT_EQ(p.info().working_set_bytes, std::uint64_t(p.info().bytes));
    EXPECT_EQ(p.info().elements, 16u * 24u);
  }
}

TEST(VendorGemm, EveryTypeVerifiesAndCatchesAPlantedValue) {
  for (const GemmType t : kGemmTypes) {
    HostGemm lib;
    VendorGemmProbe<Space> p(t, kSkinny, lib);
    SCOPED_TRACE(p.info().name);
    p.setup();
    EXPECT_EQ(lib.prepared, 1);  // the algorithm is chosen in setup, before any timed call
    p.run();
    p.fence();
    const Verification ok = p.verify();
    EXPECT_TRUE(ok.ok) << ok.error;
    p.corrupt_output_for_test();
    EXPECT_FALSE(p.verify().ok);
  }
}

TEST(VendorGemm, WrongLayoutAndAMissingTermFailVerification) {
  {
    // fp8 is TN: a library that reads A untransposed computes another product.
    HostGemm lib("sm_90", true, HostGemm::Fault::kIgnoresTranspose);
    VendorGemmProbe<Space> p(GemmType::kFp8E4m3, {32, 24, 32}, lib);
    p.setup();
    p.run();
    const Verification v = p.verify();
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.error.find("vendor_gemm fp8: C("), std::string::npos) << v.error;
  }
  for (const GemmType t : kGemmTypes) {
    HostGemm lib("sm_90", true, HostGemm::Fault::kDropsLastTerm);
    VendorGemmProbe<Space> p(t, kSkinny, lib);
    SCOPED_TRACE(p.info().name);
    p.setup();
    p.run();
    EXPECT_FALSE(p.verify().ok);
  }
}

TEST(VendorGemm, Fp8IsEncodedAsTheLibraryReadsItAndAMismatchFails) {
  for (const Fp8Encoding e : {Fp8Encoding::kOcp, Fp8Encoding::kFnuz}) {
    SCOPED_TRACE(fp8_encoding_name(e));
    HostGemm lib("gfx942", true, HostGemm::Fault::kNone, e);
    VendorGemmProbe<Space> p(GemmType::kFp8E4m3, kSkinny, lib);
    EXPECT_EQ(p.info().params["fp8_encoding"], fp8_encoding_name(e));
    p.setup();
    p.run();
    const Verification ok = p.verify();
    EXPECT_TRUE(ok.ok) << ok.error;

    HostGemm misread("gfx942", true, HostGemm::Fault::kReadsOtherFp8Encoding, e);
    VendorGemmProbe<Space> q(GemmType::kFp8E4m3, kSkinny, misread);
    q.setup();
    q.run();
    EXPECT_FALSE(q.verify().ok);
  }
  // Other types record no fp8 encoding.
  HostGemm lib;
  EXPECT_FALSE(
      VendorGemmProbe<Space>(GemmType::kBf16, kSkinny, lib).info().params.contains("fp8_encoding"));
}

TEST(VendorGemm, PointsAreNamedByShapeAndRecordLayoutAndChoice) {
  HostGemm lib;
  const VendorGemmProbe<Space> square(GemmType::kBf16, {8192, 8192, 8192}, lib);
  EXPECT_EQ(square.info().name, "vendor_gemm/Serial/bf16/n:8192");  // as before the sweep
  EXPECT_EQ(square.info().flops, 2.0 * 8192.0 * 8192.0 * 8192.0);
  const VendorGemmProbe<Space> skinny(GemmType::kFp8E4m3, {16, 8192, 8192}, lib);
  EXPECT_EQ(skinny.info().name, "vendor_gemm/Serial/fp8/m:16,n:8192,k:8192");
  EXPECT_EQ(skinny.info().bytes, (16.0 * 8192 + 8192.0 * 8192) * 1 + 16.0 * 8192 * 2);
  const auto& params = skinny.info().params;
  EXPECT_EQ(params["m"], 16);
  EXPECT_EQ(params["k"], 8192);
  EXPECT_EQ(params["layout"], "TN");
  EXPECT_EQ(params["c_dtype"], "bf16");
  EXPECT_EQ(params["accumulate"], "fp32");
  EXPECT_EQ(params["unit"], "tensor");
  EXPECT_EQ(square.info().params["layout"], "NN");

  VendorGemmProbe<Space> small(GemmType::kFp16, {8, 8, 8}, lib);
  small.setup();
  const nlohmann::json chosen = small.setup_params();
  EXPECT_EQ(chosen["api"], "host");
  EXPECT_EQ(chosen["heuristic_rank"], 1);
  EXPECT_EQ(chosen["heuristic_candidates"], 3);
  EXPECT_EQ(chosen["algorithms_tried"], 2);
  EXPECT_EQ(chosen["algorithm"], "triple loop");
}

TEST(VendorGemmPlan, SquareThenTheSkinnySweepWithTheSquareOnce) {
  SweepProfile p;
  p.vendor_gemm_n = 8192;
  EXPECT_EQ(vendor_gemm_shapes(p).size(), 1u);
  for (std::uint64_t m = 16; m <= 8192; m *= 2) p.vendor_gemm_m.push_back(m);
  const std::vector<GemmShape> shapes = vendor_gemm_shapes(p);
  ASSERT_EQ(shapes.size(), 10u);  // 8192³, then m = 16 … 4096
  EXPECT_EQ(shapes[0].m, 8192u);
  EXPECT_EQ(shapes[1].m, 16u);
  EXPECT_EQ(shapes[9].m, 4096u);
  for (const GemmShape& s : shapes) {
    EXPECT_EQ(s.n, 8192u);
    EXPECT_EQ(s.k, 8192u);
  }
}

std::vector<PointPlan> plan_for(VendorGemm* lib, const std::string& why_not = "") {
  SweepProfile p;
  p.vendor_gemm_n = 4096;
  p.vendor_gemm_m = {16, 256};
  return vendor_gemm_plan<Space>(lib, why_not, vendor_gemm_shapes(p),
                                 [](GemmType) { return true; });
}

std::string reason_of(const std::vector<PointPlan>& plan, const std::string& name) {
  for (const auto& p : plan)
    if (p.info.name == name) return p.probe ? "planned" : p.skipped_reason;
  return "absent";
}

TEST(VendorGemmPlan, Fp8OnlyOnAdaAndHopperThroughLt) {
  const std::string fp8 = "vendor_gemm/Serial/fp8/m:16,n:4096,k:4096";
  for (const char* arch : {"sm_89", "sm_90", "sm_90a"}) {
    HostGemm lib(arch);
    const auto plan = plan_for(&lib);
    EXPECT_EQ(plan.size(), 6u * 3u) << arch;  // every type, every shape
    std::set<std::string> names;
    for (const auto& pt : plan) {
      EXPECT_TRUE(pt.probe) << pt.info.name << ": " << pt.skipped_reason;
      names.insert(pt.info.name);
    }
    EXPECT_EQ(names.size(), plan.size());
    EXPECT_EQ(reason_of(plan, fp8), "planned") << arch;
  }
  for (const char* arch : {"sm_80", "sm_86", ""}) {
    HostGemm lib(arch);
    const auto plan = plan_for(&lib);
    EXPECT_NE(reason_of(plan, fp8).find("sm_89 and sm_90 only"), std::string::npos) << arch;
    EXPECT_EQ(reason_of(plan, "vendor_gemm/Serial/bf16/m:16,n:4096,k:4096"), "planned") << arch;
  }
  HostGemm without_lt("sm_90", false);
  const auto plan = plan_for(&without_lt);
  EXPECT_NE(reason_of(plan, fp8).find("needs cuBLASLt"), std::string::npos);
  EXPECT_EQ(reason_of(plan, "vendor_gemm/Serial/fp16/n:4096"), "planned");
}

// rocBLAS alone (lt false) on MI200 and MI300: fp64, fp32, fp16 and bf16 planned; tf32 and fp8
// skipped with the reason (hipBLASLt is not loaded; MI200 has neither unit).
TEST(VendorGemmPlan, AmdGetsRocblasTypesAndSkipsTf32AndFp8) {
  for (const char* arch : {"gfx90a:sramecc+:xnack-", "gfx942"}) {
    HostGemm lib(arch, false);
    const auto plan = plan_for(&lib);
    EXPECT_EQ(plan.size(), 18u) << arch;
    int planned = 0;
    for (const auto& pt : plan) planned += pt.probe ? 1 : 0;
    EXPECT_EQ(planned, 4 * 3) << arch;
    for (const char* dtype : {"tf32", "fp8"}) {
      const std::string reason =
          reason_of(plan, std::string("vendor_gemm/Serial/") + dtype + "/n:4096");
      EXPECT_EQ(reason.find("planned"), std::string::npos) << arch << " " << dtype;
      EXPECT_NE(reason.find(dtype), std::string::npos) << reason;
    }
  }
}

// With hipBLASLt (lt true) MI300 gets every type; MI200 still has no tf32 or fp8 units.
TEST(VendorGemmPlan, Mi300GetsTf32AndFp8ThroughHipblaslt) {
  HostGemm mi300("gfx942:sramecc+:xnack-", true, HostGemm::Fault::kNone, Fp8Encoding::kFnuz);
  const auto plan = plan_for(&mi300);
  for (const auto& pt : plan) EXPECT_TRUE(pt.probe) << pt.info.name << ": " << pt.skipped_reason;
  EXPECT_EQ(reason_of(plan, "vendor_gemm/Serial/fp8/m:16,n:4096,k:4096"), "planned");
  HostGemm mi200("gfx90a", true);
  const auto plan200 = plan_for(&mi200);
  EXPECT_NE(reason_of(plan200, "vendor_gemm/Serial/fp8/n:4096").find("no fp8 matrix"),
            std::string::npos);
  EXPECT_NE(reason_of(plan200, "vendor_gemm/Serial/tf32/n:4096").find("no xf32 matrix"),
            std::string::npos);
}

TEST(VendorGemmPlan, NoLibrarySkipsEveryPointWithTheReason) {
  const auto plan = plan_for(nullptr, "no vendor gemm: libcublasLt.so.13 could not be loaded");
  EXPECT_EQ(plan.size(), 18u);
  for (const auto& p : plan) {
    EXPECT_FALSE(p.probe);
    EXPECT_EQ(p.skipped_reason, "no vendor gemm: libcublasLt.so.13 could not be loaded");
    EXPECT_EQ(p.info.family, "library");
  }
  EXPECT_EQ(reason_of(plan, "vendor_gemm/Serial/tf32/m:256,n:4096,k:4096"),
            "no vendor gemm: libcublasLt.so.13 could not be loaded");
}

// A decode-shaped GEMM reuses the same weights call after call: one copy of 64 MiB of fp8 weights
// stays in a 60 MiB L2. Each call takes the next of `copies` copies of A and B, and the last
// call's copy is the one verified (a check against another copy's random values fails).
TEST(VendorGemm, CallsRotateThroughTheInputCopiesAndTheLastCallIsVerified) {
  HostGemm lib;
  VendorGemmProbe<Space> p(GemmType::kFp32, kSkinny, lib, 3);
  const std::size_t inputs = (kSkinny.m * kSkinny.k + kSkinny.k * kSkinny.n) * 4;
  EXPECT_EQ(p.info().working_set_bytes, 3 * inputs + kSkinny.m * kSkinny.n * 4);
  EXPECT_EQ(p.info().params["input_copies"], 3);
  EXPECT_EQ(p.info().bytes, gemm_bytes(GemmType::kFp32, kSkinny));  // compulsory bytes per call
  p.setup();
  lib.inputs_seen.clear();  // prepare()'s own call
  for (int call = 0; call < 5; ++call) {
    p.run();
    p.fence();
    const Verification v = p.verify();
    EXPECT_TRUE(v.ok) << "call " << call << ": " << v.error;
  }
  ASSERT_EQ(lib.inputs_seen.size(), 5u);
  std::set<const void*> a_copies, b_copies;
  for (const auto& [a, b] : lib.inputs_seen) {
    a_copies.insert(a);
    b_copies.insert(b);
  }
  EXPECT_EQ(a_copies.size(), 3u);
  EXPECT_EQ(b_copies.size(), 3u);
  EXPECT_EQ(lib.inputs_seen[0], lib.inputs_seen[3]);  // the fourth call is the first copy again
  EXPECT_NE(lib.inputs_seen[0], lib.inputs_seen[1]);
}

// Every vendor GEMM of gpu-first-light's shapes, in every type, on the three cards a session may
// get: its inputs, over all copies, are at least 4× the L2, so no call finds them cached.
TEST(VendorGemmPlan, NoInputSetFitsTheLastLevelCache) {
  SweepProfile prof;
  prof.vendor_gemm_n = 8192;
  prof.vendor_gemm_m = {16, 64, 256, 1024};
  HostGemm lib("sm_90");
  for (const std::uint64_t l2 : {std::uint64_t(50) << 20, std::uint64_t(60) << 20,
                                 std::uint64_t(72) << 20}) {  // H100, H200, RTX 4090
    SCOPED_TRACE(l2);
    int rotated = 0;
    for (const PointPlan& p : vendor_gemm_plan<Space>(
             &lib, "", vendor_gemm_shapes(prof), [](GemmType) { return true; }, l2)) {
      if (!p.probe) continue;
      const std::size_t copies = p.info.params.at("input_copies").get<std::size_t>();
      const std::size_t m = p.info.params["m"], n = p.info.params["n"], k = p.info.params["k"];
      const std::size_t in = gemm_type_info(p.info.dtype == "fp8"    ? GemmType::kFp8E4m3
                                            : p.info.dtype == "tf32" ? GemmType::kTf32
                                            : p.info.dtype == "fp64" ? GemmType::kFp64
                                            : p.info.dtype == "fp32" ? GemmType::kFp32
                                            : p.info.dtype == "fp16" ? GemmType::kFp16
                                                                     : GemmType::kBf16)
                                 .in_bytes;
      const std::size_t inputs = (m * k + k * n) * in;
      EXPECT_GE(double(copies * inputs), kDramLlcMultiple * double(l2)) << p.info.name;
      EXPECT_LT(double((copies - 1) * inputs), kDramLlcMultiple * double(l2)) << p.info.name;
      rotated += copies > 1;
    }
    EXPECT_GT(rotated, 0);  // the skinny fp8 and bf16 weights (64 and 128 MiB) need copies
  }
  EXPECT_EQ(gemm_input_copies(std::uint64_t(64) << 20, 0), 1u);  // no known LLC: one copy
}

}  // namespace
}  // namespace ridgeline
