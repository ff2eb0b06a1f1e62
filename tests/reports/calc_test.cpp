#include <gtest/gtest.h>

#include "core/input_error.hpp"
#include "reports/roofline/calc.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

using test::run_command;

const std::string kBin = ridgeline::test::paths::kReportBin;

TEST(Calc, SeedTableByteForByte) {
  const auto r = run_command(kBin +
                             " calc --name \"RTX 4090\" --peak 165e12 --bandwidth 1e12"
                             " --intensities 1,10,ridge,1000");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "RTX 4090: ridge point I* = 165 FLOP/byte\n"
            "\n"
            "I=      1 FLOP/byte ->    1.0 TFLOP/s (  0.6% of peak, memory-bound)\n"
            "I=     10 FLOP/byte ->   10.0 TFLOP/s (  6.1% of peak, memory-bound)\n"
            "I=    165 FLOP/byte ->  165.0 TFLOP/s (100.0% of peak, compute-bound)\n"
            "I=   1000 FLOP/byte ->  165.0 TFLOP/s (100.0% of peak, compute-bound)\n");
  EXPECT_EQ(r.err, "");
}

TEST(Calc, RidgeKeywordResolvesToPOverB) {
  const Roof roof{200e9, 50e9};
  const auto v = resolve_intensities(parse_intensities("ridge", "--intensities"), roof);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_DOUBLE_EQ(v[0], 4.0);
  EXPECT_FALSE(roof.memory_bound(v[0]));  // the ridge itself counts as compute-bound
}

// Hand-computed: an H200-like roof (67 TF, 4.8 TB/s) has I* = 13.958…; at I = 2 it attains
// 9.6 TF = 14.3 % of peak; a CPU roof (200 GF, 50 GB/s) prints GFLOP/s.
TEST(Calc, OtherRoofsMatchHandComputedValues) {
  EXPECT_EQ(format_calc_line({67e12, 4.8e12}, 2),
            "I=      2 FLOP/byte ->    9.6 TFLOP/s ( 14.3% of peak, memory-bound)");
  EXPECT_EQ(format_calc_line({67e12, 4.8e12}, 100),
            "I=    100 FLOP/byte ->   67.0 TFLOP/s (100.0% of peak, compute-bound)");
  EXPECT_EQ(format_calc_line({200e9, 50e9}, 0.0625),
            "I= 0.0625 FLOP/byte ->    3.1 GFLOP/s (  1.6% of peak, memory-bound)");
  EXPECT_EQ(format_calc_table("cpu", {200e9, 50e9}, {}), "cpu: ridge point I* = 4 FLOP/byte\n\n");
  EXPECT_EQ(format_calc_table("h200", {67e12, 4.8e12}, {}),
            "h200: ridge point I* = 14 FLOP/byte\n\n");
  // A fitted ridge has many digits: three significant ones keep the column aligned.
  EXPECT_EQ(format_calc_line({200e9, 50e9}, 4.46025),
            "I=   4.46 FLOP/byte ->  200.0 GFLOP/s (100.0% of peak, compute-bound)");
}

TEST(Calc, MachineProfileSuppliesPeakAndBandwidth) {
  const auto r = run_command(kBin + " calc --machine rtx-4090 --dtype bf16 --intensities ridge");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Dense BF16 with FP32 accumulate (165.2 TF) over 1008 GB/s.
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "RTX 4090: ridge point I* = 164 FLOP/byte");
}

// The unit and accumulate mode pick the sheet's figure: the textbook ridge of a 4090 is its
// dense tensor peak with fp32 accumulate (165.2 TF / 1008 GB/s), the vector one is 82 FLOP/byte.
TEST(Calc, UnitAndAccumulatePickTheSheetFigure) {
  const auto first_line = [](const std::string& args) {
    const auto r = run_command(kBin + " calc --machine rtx-4090 --intensities ridge " + args);
    EXPECT_EQ(r.exit_code, 0) << args << ": " << r.err;
    return r.out.substr(0, r.out.find('\n'));
  };
  EXPECT_EQ(first_line("--dtype fp16"), "RTX 4090: ridge point I* = 164 FLOP/byte");
  EXPECT_EQ(first_line("--dtype fp16 --unit matrix"), "RTX 4090: ridge point I* = 164 FLOP/byte");
  EXPECT_EQ(first_line("--dtype fp16 --unit matrix --accumulate fp16"),
            "RTX 4090: ridge point I* = 328 FLOP/byte");
  EXPECT_EQ(first_line("--dtype fp16 --unit vector"), "RTX 4090: ridge point I* = 81.9 FLOP/byte");
  EXPECT_EQ(first_line("--dtype fp8 --unit matrix"), "RTX 4090: ridge point I* = 328 FLOP/byte");
}

struct BadCalc {
  const char* args;
  const char* needle;  // must appear in the one-line error
};

void PrintTo(const BadCalc& c, std::ostream* os) { *os << c.args; }

class CalcBadInput : public ::testing::TestWithParam<BadCalc> {};

TEST_P(CalcBadInput, OneLineErrorAndExitTwo) {
  const auto r = run_command(kBin + " calc " + GetParam().args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(test::line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(GetParam().needle), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CalcBadInput,
    ::testing::Values(BadCalc{"--peak 0 --bandwidth 1e12 --intensities 1", "--peak"},
                      BadCalc{"--peak -5 --bandwidth 1e12 --intensities 1", "--peak"},
                      BadCalc{"--peak abc --bandwidth 1e12 --intensities 1", "--peak"},
                      BadCalc{"--peak 1e12 --bandwidth 0 --intensities 1", "--bandwidth"},
                      BadCalc{"--peak 1e12 --bandwidth x --intensities 1", "--bandwidth"},
                      BadCalc{"--peak 1e12 --intensities 1", "--bandwidth"},
                      BadCalc{"--peak 1e12 --bandwidth 1e9 --intensities ''", "--intensities"},
                      BadCalc{"--peak 1e12 --bandwidth 1e9 --intensities 1,,2", "--intensities"},
                      BadCalc{"--peak 1e12 --bandwidth 1e9 --intensities 1,abc", "abc"},
                      BadCalc{"--peak 1e12 --bandwidth 1e9 --intensities -3", "-3"},
                      BadCalc{"--peak 1e12 --bandwidth 1e9 --intensities 1,nan", "nan"},
                      BadCalc{"--machine no-such-gpu --intensities 1", "no-such-gpu"},
                      BadCalc{"--machine rtx-4090 --unit tensor --intensities 1", "--unit"},
                      BadCalc{"--machine rtx-4090 --dtype fp64 --unit matrix --intensities 1",
                              "no dense fp64 matrix"},
                      // Finite, but I* = P/B or I·B overflowed and inf was printed as a number.
                      BadCalc{"--peak 1e300 --bandwidth 1e12 --intensities 1",
                              "--peak: must be a number in [1, 1e+21]"},
                      BadCalc{"--peak 1e12 --bandwidth 1e-300 --intensities 1",
                              "--bandwidth: must be a number in [1, 1e+18]"},
                      BadCalc{"--peak 1e12 --bandwidth 1e9 --intensities 1e308",
                              "'1e308' is outside [1e-06, 1e+09] FLOP/byte"},
                      BadCalc{"--peak 1e12 --bandwidth 1e9 --intensities 1e-300", "outside"}));

}  // namespace
}  // namespace ridgeline
