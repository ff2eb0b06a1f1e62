// Profilers' counter files (--counts) read against hand-written fixtures of their documented
// column sets (tests/data/counters/README.md), joined with a kernels file on the label, and the
// readers' one-line errors naming the file, the line and the column.
#include <gtest/gtest.h>

#include "core/input_error.hpp"
#include "core/utf8.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/kernels/counter_import.hpp"
#include "reports/kernels/csv_table.hpp"
#include "reports/kernels/kernel_placement.hpp"
#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;

const std::string kCounters = kData + "/counters";
const std::string kNcu = kCounters + "/ncu-2025.3-raw.csv";
const std::string kRocprof = kCounters + "/rocprofv3-6.4_counter_collection.csv";
const std::string kGpuKernels = kCounters + "/gpu-node_kernels.json";

const CountedKernel& counted(const CounterImport& im, const std::string& name) {
  for (const auto& k : im.kernels)
    if (k.name == name) return k;
  throw std::runtime_error("no counted kernel " + name);
}

const Kernel& kernel_of(const KernelsFile& f, const std::string& label) {
  for (const auto& k : f.kernels)
    if (k.label == label) return k;
  throw std::runtime_error("no kernel " + label);
}

TEST(CsvTable, QuotedCellsHoldCommasQuotesAndNewlines) {
  const CsvTable t = parse_csv_table(
      "==PROF== log\n\"a\",\"b\"\n\"x, y\",\"say \"\"hi\"\"\"\n\n\"two\nlines\",3\n==PROF== end\n",
      "t.csv", "==");
  ASSERT_EQ(t.header, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].cells[0], "x, y");
  EXPECT_EQ(t.rows[0].cells[1], "say \"hi\"");
  EXPECT_EQ(t.rows[0].line, 3u);
  EXPECT_EQ(t.rows[1].cells[0], "two\nlines");
  EXPECT_EQ(t.rows[1].line, 5u);
  EXPECT_EQ(parse_count("33,554,432", "t.csv", "x"), 33554432);
  EXPECT_EQ(parse_count("1,073.80", "t.csv", "x"), 1073.8);
  EXPECT_THROW(parse_count("-1", "t.csv", "x"), InputError);
  EXPECT_THROW(parse_count("1,,0", "t.csv", "x"), InputError);
  EXPECT_THROW(parse_count("", "t.csv", "x"), InputError);
  EXPECT_EQ(parse_count("1.5e3", "t.csv", "x"), 1500);
  EXPECT_EQ(parse_count("12", "t.csv", "x"), 12);
  for (const char* bad : {"1.234,5", "0x10", "1,2", "1234,567", "1,0000", "inf", "nan", "1.", ".5",
                          "1e", "1,234,56", " 1", "1 "})
    EXPECT_THROW(parse_count(bad, "t.csv", "x"), InputError) << bad;
}

TEST(NcuCsv, ReadsTheRawPageWithItsUnits) {
  const CounterImport im = load_counter_import(kNcu);
  EXPECT_EQ(im.source, "ncu");
  EXPECT_EQ(im.space, "Cuda");
  ASSERT_EQ(im.kernels.size(), 4u);
  const CountedKernel& triad = counted(im, "example::triad");
  EXPECT_EQ(triad.launches, 2);
  EXPECT_DOUBLE_EQ(triad.vector_flop.at("fp64"), 2 * 2 * 33554432.0);  // FMA = 2 FLOP
  EXPECT_DOUBLE_EQ(triad.vector_flop.at("fp32"), 0);
  EXPECT_NEAR(*triad.dram_bytes, (536.87 + 268.44 + 536.90 + 268.44) * 1e6, 1e-3);  // Mbyte
  EXPECT_NEAR(*triad.l1_bytes, 2 * 1.61e9, 1e-3);                                   // Gbyte
  EXPECT_NEAR(*triad.seconds, (210.50 + 212.10) * 1e-6, 1e-15);                     // usecond
  const CountedKernel& stencil = counted(im, "example::stencil");
  EXPECT_DOUBLE_EQ(stencil.vector_flop.at("fp64"), 100663296.0 + 33554432.0);
  EXPECT_DOUBLE_EQ(stencil.vector_flop.at("fp32"), 2 * 4096.0);
  EXPECT_NEAR(*stencil.l2_bytes, 1073.80e6, 1e-3);
  EXPECT_DOUBLE_EQ(counted(im, "example::gemm").tensor_instructions, 131072);
  // A launch name with commas inside its quotes is one cell.
  EXPECT_EQ(
      im.kernels.back().name.rfind("void Kokkos::Impl::cuda_parallel_launch_local_memory<", 0), 0u);
}

TEST(NcuCsv, PerCallCountsTakeTheDtypeWithTheMostFlopAndSayTheRest) {
  const CounterImport im = load_counter_import(kNcu);
  std::string why;
  const auto triad = counts_per_call(counted(im, "example::triad"), im, why);
  ASSERT_TRUE(triad) << why;
  EXPECT_EQ(triad->dtype, "fp64");
  EXPECT_EQ(triad->source, "ncu");
  EXPECT_EQ(triad->file, kNcu);
  EXPECT_DOUBLE_EQ(triad->flop_per_call, 2 * 33554432.0);
  EXPECT_NEAR(triad->bytes_per_call, 805.325e6, 1e-3);
  EXPECT_NE(triad->note.find("from 2 profiled launches"), std::string::npos) << triad->note;
  const auto stencil = counts_per_call(counted(im, "example::stencil"), im, why);
  ASSERT_TRUE(stencil);
  EXPECT_NE(stencil->note.find("also 8.19e+03 fp32 FLOP/call (not held against the fp64 roof)"),
            std::string::npos)
      << stencil->note;
  const auto gemm = counts_per_call(counted(im, "example::gemm"), im, why);
  ASSERT_TRUE(gemm);
  EXPECT_NE(gemm->note.find("tensor-pipe instructions/call (not counted as FLOP)"),
            std::string::npos)
      << gemm->note;
  EXPECT_NE(gemm->note.find("no FLOP counted: held against fp64's B"), std::string::npos);
}

TEST(RocprofCsv, ReadsOneRowPerCounterPerDispatch) {
  const CounterImport im = load_counter_import(kRocprof);
  EXPECT_EQ(im.source, "rocprofv3");
  EXPECT_EQ(im.space, "HIP");
  const CountedKernel& triad = counted(im, "example::triad");
  EXPECT_EQ(triad.launches, 2);  // four counters each, two dispatches
  EXPECT_DOUBLE_EQ(*triad.dram_bytes, 2 * (524288.0 + 262144.0) * 1024);  // KiB
  EXPECT_DOUBLE_EQ(triad.vector_flop.at("fp64"), 2 * 524288.0 * 64 * 2);  // wave64, FMA = 2
  EXPECT_NEAR(*triad.seconds, 150e-6 + 152e-6, 1e-12);
  EXPECT_DOUBLE_EQ(counted(im, "example::gemm").matrix_flop, 4194304.0 * 512);
  std::string why;
  const auto stencil = counted(im, "example::stencil");
  EXPECT_FALSE(counts_per_call(stencil, im, why));  // FETCH_SIZE only: no FLOP counter
  EXPECT_EQ(why, "rocprofv3 counted no FLOP for it (no FLOP counter collected)");
  ASSERT_EQ(stencil.notes.size(), 1u);
  EXPECT_EQ(stencil.notes[0], "WRITE_SIZE not collected: DRAM bytes are FETCH_SIZE only");
}

TEST(CounterJoin, ImportsFillUnannotatedKernelsAndAnnotationsWin) {
  KernelsFile f = load_kernels(kGpuKernels);
  join_counts(f, {load_counter_import(kNcu)});
  const Kernel& triad = kernel_of(f, "example::triad");
  ASSERT_TRUE(triad.counts);
  EXPECT_EQ(triad.counts->source, "ncu");
  EXPECT_DOUBLE_EQ(triad.counts->flop_per_call, 2 * 33554432.0);
  const Kernel& gemm = kernel_of(f, "example::gemm");
  ASSERT_TRUE(gemm.counts);
  EXPECT_EQ(gemm.counts->source, "annotation");
  EXPECT_EQ(gemm.counts->flop_per_call, 2147483648.0);
  EXPECT_NE(gemm.counts->note.find("ncu counted 0 fp64 FLOP and 3.36e+07 DRAM byte per call (the "
                                   "annotation is kept)"),
            std::string::npos)
      << gemm.counts->note;
  EXPECT_FALSE(kernel_of(f, "example::check").counts);
  ASSERT_EQ(f.counts_without_kernel.size(), 1u);
  EXPECT_EQ(f.counts_without_kernel[0].rfind("void Kokkos::Impl::cuda_parallel_launch", 0), 0u);
}

TEST(CounterJoin, CountsJoinOnlyTheSpaceTheyCountAndOnce) {
  KernelsFile f = load_kernels(kGpuKernels);
  join_counts(f, {load_counter_import(kRocprof)});  // HIP counts, Cuda kernels
  EXPECT_FALSE(kernel_of(f, "example::triad").counts);
  ASSERT_FALSE(f.counts_without_kernel.empty());
  EXPECT_NE(f.counts_without_kernel[0].find("a kernel of that label ran in Cuda, rocprofv3 "
                                            "counts HIP kernels"),
            std::string::npos)
      << f.counts_without_kernel[0];
  KernelsFile twice = load_kernels(kGpuKernels);
  const CounterImport ncu = load_counter_import(kNcu);
  try {
    join_counts(twice, {ncu, ncu});
    ADD_FAILURE() << "a kernel counted twice was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), kNcu + ": Kernel Name 'example::triad': is counted in " +
                                         kNcu + " too: give each kernel's counts once");
  }
}

TEST(CounterJoin, ImportedKernelsArePlacedOnTheNightsRoofs) {
  KernelsFile f = load_kernels(kGpuKernels);
  join_counts(f, {load_counter_import(kNcu)});
  const FileAnalysis a = analyze(load_results(kData + "/gpu_run.json"), 200);
  const auto p = place_kernels(f, {&a});
  ASSERT_EQ(p.size(), 4u);
  ASSERT_TRUE(p[0].placed) << p[0].not_placed;
  EXPECT_EQ(p[0].group, "Cuda fp64");
  EXPECT_NEAR(*p[0].intensity, 2 * 33554432.0 / 805.325e6, 1e-9);
  EXPECT_NEAR(*p[0].bytes_per_s, 805.325e6 / 0.00021, 1);
  EXPECT_FALSE(p[3].placed);
  EXPECT_EQ(p[3].not_placed,
            "no counts (declare them with ridgeline/annotate.hpp, or import a profiler's with "
            "--counts)");
}

struct BadCounters {
  std::string text, expected;  // the whole message after "c.csv: "
};

TEST(CounterImport, BadInputNamesTheFileLineAndColumn) {
  const std::string ncu_head =
      "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\"\n"
      "\"\",\"\",\"Mbyte\",\"Mbyte\"\n";
  const std::string roc_head = "Dispatch_Id,Kernel_Name,Counter_Name,Counter_Value\n";
  const std::vector<BadCounters> cases = {
      {"a,b\n1,2\n", "header: neither Nsight Compute's raw page"},
      {"", "empty CSV (no header row)"},
      {ncu_head + "\"0\",\"k\",\"1.0\"\n", "line 3: has 3 columns, the header has 4 (truncated?)"},
      {ncu_head + "\"0\",\"k\",\"many\",\"1\"\n",
       "line 3, column 'dram__bytes_read.sum': 'many' is not a count"},
      {ncu_head + "\"0\",\"k\",\"n/a\",\"1\"\n",
       "line 3, column 'dram__bytes_read.sum': 'n/a': the metric was not collected for this "
       "launch"},
      {ncu_head + "\"0\",\"\",\"1\",\"1\"\n", "line 3, column 'Kernel Name': must not be empty"},
      {ncu_head + "\"0\",\"k,\"1\",\"1\"\n", "line 3: text after a quoted cell's closing quote"},
      {ncu_head + "\"0\",\"k\",\"1\",\"1\n",
       "line 3: a quoted cell is not closed (truncated file?)"},
      {"\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\"\n"
       "\"\",\"\",\"furlong\",\"Mbyte\"\n\"0\",\"k\",\"1\",\"1\"\n",
       "line 2, column 'dram__bytes_read.sum': unit 'furlong' is not one this reader converts"},
      {"\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\n\"\",\"\",\"byte\"\n\"0\",\"k\",\"1\"\n",
       "header: has dram__bytes_read.sum without its pair"},
      {"\"ID\",\"Kernel "
       "Name\",\"gpu__time_duration.sum\"\n\"\",\"\",\"usecond\"\n\"0\",\"k\",\"1\"\n",
       "header: no FLOP metric"},
      {"\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\"\n"
       "\"0\",\"k\",\"1\",\"1\"\n",
       "line 2: no units row"},
      {ncu_head, "no profiled launch (only the header rows)"},
      {roc_head + "1,k,FETCH_SIZE,lots\n", "line 2, column 'Counter_Value': 'lots' is not a count"},
      {roc_head + "x,k,FETCH_SIZE,1\n", "line 2, column 'Dispatch_Id': 'x' is not a count"},
      {roc_head + "1,k,SQ_WAVES,1\n", "Counter_Name: none of FETCH_SIZE, WRITE_SIZE"},
      {"Dispatch_Id,Counter_Name,Counter_Value\n1,FETCH_SIZE,1\n",
       "header: no 'Kernel_Name' column"},
      {roc_head, "no dispatch (only the header row)"},
      // A unit that does not fit its metric's kind: a time on a byte counter, bytes on an
      // instruction counter (read, they gave a kernel at 10^9 % of its roof).
      {"\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\"\n"
       "\"\",\"\",\"usecond\",\"Mbyte\"\n\"0\",\"k\",\"1\",\"1\"\n",
       "line 2, column 'dram__bytes_read.sum': unit 'usecond' is a time, but the metric counts "
       "bytes"},
      {"\"ID\",\"Kernel Name\",\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum\"\n"
       "\"\",\"\",\"Gbyte\"\n\"0\",\"k\",\"1\"\n",
       "line 2, column 'smsp__sass_thread_inst_executed_op_dfma_pred_on.sum': unit 'Gbyte' is "
       "bytes, but the metric counts a count of instructions"},
      // Numbers that strtod would take and that are not counts.
      {ncu_head + "\"0\",\"k\",\"1.234,5\",\"1\"\n",
       "line 3, column 'dram__bytes_read.sum': '1.234,5' is not a count"},
      {ncu_head + "\"0\",\"k\",\"0x10\",\"1\"\n",
       "line 3, column 'dram__bytes_read.sum': '0x10' is not a count"},
      {ncu_head + "\"0\",\"k\",\"1e400\",\"1\"\n",
       "line 3, column 'dram__bytes_read.sum': '1e400' is beyond a double's range"},
      // Finite cells whose unit or sum is not.
      {ncu_head + "\"0\",\"k\",\"1e305\",\"1\"\n",
       "line 3, column 'dram__bytes_read.sum': '1e305' in its unit is beyond a double's range"},
      {ncu_head + "\"0\",\"k\",\"1e302\",\"1e302\"\n\"1\",\"k\",\"1e302\",\"1e302\"\n",
       "kernel 'k': its counts summed over its launches are beyond a double's range"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parse_counter_import(c.text, "c.csv");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("c.csv: " + c.expected, 0), 0u) << e.what();
    }
  }
}

// A file cut anywhere (a profiler killed mid-write, a copy cut short) is read or refused with
// an InputError, never anything else.
TEST(CounterImport, EveryTruncationIsReadOrOneInputError) {
  for (const std::string& path : {kNcu, kRocprof}) {
    const std::string text = slurp(path);
    int refused = 0;
    for (std::size_t n = 0; n <= text.size(); n += 7) {
      try {
        parse_counter_import(text.substr(0, n), "cut.csv");
      } catch (const InputError& e) {
        ++refused;
        EXPECT_EQ(std::string(e.what()).rfind("cut.csv: ", 0), 0u) << e.what();
      }
    }
    EXPECT_GT(refused, 0) << path;
  }
}

TEST(CountsCli, ReportAndPlaceSayWhereEachKernelsCountsCameFrom) {
  TempDir dir;
  const auto r = run_command(kBin + " report " + kData + "/gpu_run.json --kernels " + kGpuKernels +
                             " --counts " + kNcu + " --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("| `example::triad in /timestep` | Cuda fp64 | 20 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| ncu (" + kNcu + ") |"), std::string::npos);
  EXPECT_NE(md.find("| annotation |"), std::string::npos);
  EXPECT_NE(md.find("Counted by a profiler, but no kernel of this file has that label"),
            std::string::npos);
  const auto place = run_command(kBin + " place " + kData + "/gpu_run.json --kernels " +
                                 kGpuKernels + " --counts " + kRocprof + " --counts " + kNcu);
  ASSERT_EQ(place.exit_code, 0) << place.err;
  EXPECT_NE(place.out.find("counts from ncu (" + kNcu +
                           "): L2 8.05e+08 byte/call; L1 1.61e+09 byte/call; from 2 profiled "
                           "launches\n"),
            std::string::npos)
      << place.out;
  EXPECT_NE(place.out.find("counted, but no kernel of that label: example::triad (" + kRocprof),
            std::string::npos)
      << place.out;
}

// A profiler's kernel name holding bytes that are not UTF-8 and terminal controls: report.md
// stays valid UTF-8 (the replacement said once), and place writes no raw control character to
// the terminal.
TEST(CountsCli, HostileKernelNamesReachNeitherReportNorTerminalRaw) {
  TempDir dir;
  write_file(dir.path + "/names.csv",
             "Dispatch_Id,Kernel_Name,Counter_Name,Counter_Value\n"
             "1,\"evil\xff\x1b[2J\rfake\",FETCH_SIZE,1\n");
  const auto r = run_command(kBin + " report " + kData + "/gpu_run.json --kernels " + kGpuKernels +
                             " --counts " + dir.path + "/names.csv --out " + dir.path + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The replacement is said once, naming the file that holds the bytes.
  const std::string said = "ridgeline: note: " + dir.path +
                           "/names.csv: 1 kernel name holds bytes that are not UTF-8; the report "
                           "shows each such byte as U+FFFD\n";
  EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("not UTF-8"), r.err.rfind("not UTF-8")) << r.err;
  const std::string md = slurp(dir.path + "/out/report.md");
  EXPECT_EQ(valid_utf8(md), md) << "report.md is not valid UTF-8";
  EXPECT_NE(md.find("evil\xEF\xBF\xBD"), std::string::npos);
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
  const auto place = run_command(kBin + " place " + kData + "/gpu_run.json --kernels " +
                                 kGpuKernels + " --counts " + dir.path + "/names.csv");
  ASSERT_EQ(place.exit_code, 0) << place.err;
  EXPECT_EQ(place.out.find('\x1b'), std::string::npos) << place.out;
  EXPECT_EQ(place.out.find('\r'), std::string::npos) << place.out;
  EXPECT_NE(place.out.find("evil\xff\\x1b[2J\\rfake"), std::string::npos) << place.out;
}

TEST(CountsCli, ABadCounterFileIsOneLineExitTwoAndNoReport) {
  TempDir dir;
  write_file(dir.path + "/bad.csv", "\"ID\",\"Kernel Name\"\n\"\",\"\"\n\"0\",\"k\n");
  const auto r = run_command(kBin + " report " + kData + "/gpu_run.json --kernels " + kGpuKernels +
                             " --counts " + dir.path + "/bad.csv --out " + dir.path + "/out");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(dir.path + "/bad.csv: line 3: a quoted cell is not closed"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path + "/out/report.md"));
  const auto alone = run_command(kBin + " place " + kData + "/gpu_run.json --counts " + kNcu);
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--counts: joins the kernels of a kernels file"), std::string::npos)
      << alone.err;
}

}  // namespace
}  // namespace ridgeline
