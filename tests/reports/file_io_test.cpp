// Reading never blocks on what is not a regular file; writing never replaces what is not ours and
// never follows a planted link; failures name the file and the system's reason.
#include "results/file_io.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_test_support.hpp"
#include "results/input_error.hpp"

namespace ridgeline {
namespace {

using namespace test;
namespace fs = std::filesystem;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kCompare =
    kBin + " compare " + kData + "/cpu_run_a.json " + kData + "/cpu_run_b.json --out ";

TEST(FileIo, DeviceNodeIsNeverReplaced) {
  const auto r = run_command(kCompare + "/dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("/dev/null: exists and is not a regular file"), std::string::npos) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null was replaced";
}

TEST(FileIo, SymbolicLinkTargetIsRefusedAndItsFileUntouched) {
  TempDir dir;
  write_file(dir.path + "/victim.txt", "precious\n");
  fs::create_symlink(dir.path + "/victim.txt", dir.path + "/compare.md");
  const auto r = run_command(kCompare + dir.path + "/compare.md");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir.path + "/compare.md"));
  EXPECT_EQ(slurp(dir.path + "/victim.txt"), "precious\n");
}

TEST(FileIo, DirectoryAndFifoTargetsAreRefused) {
  TempDir dir;
  fs::create_directory(dir.path + "/d");
  ASSERT_EQ(::mkfifo((dir.path + "/fifo").c_str(), 0600), 0);
  for (const char* name : {"/d", "/fifo"}) {
    const std::string target = dir.path + name;
    EXPECT_NE(error_of([&] { write_text_atomically(target, "x"); }).find("not a regular file"),
              std::string::npos)
        << name;
  }
  EXPECT_TRUE(fs::is_directory(dir.path + "/d"));
  EXPECT_TRUE(fs::is_fifo(dir.path + "/fifo"));
}

// The old temporary name was <path>.tmp.<pid>, opened without O_EXCL: a link planted there
// redirected the write to any file.
TEST(FileIo, PlantedLinkAtThePredictableTemporaryNameIsNotFollowed) {
  TempDir dir;
  const std::string out = dir.path + "/report.md";
  write_file(dir.path + "/victim.txt", "precious\n");
  fs::create_symlink(dir.path + "/victim.txt", out + ".tmp." + std::to_string(::getpid()));
  write_text_atomically(out, "new report\n");
  EXPECT_EQ(slurp(out), "new report\n");
  EXPECT_EQ(slurp(dir.path + "/victim.txt"), "precious\n");
}

TEST(FileIo, ReplacedFileKeepsItsModeAndNoTemporaryFileIsLeft) {
  TempDir dir;
  const std::string out = dir.path + "/results.json";
  write_file(out, "old\n");
  ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
  write_text_atomically(out, "new\n");
  EXPECT_EQ(slurp(out), "new\n");
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(dir.file_count(), 1);
}

TEST(FileIo, FailuresCarryTheSystemsReason) {
  EXPECT_EQ(error_of([] { write_text_atomically("/nonexistent/dir/r.json", "x"); }),
            "/nonexistent/dir/r.json: cannot write (temporary file): No such file or directory");
  EXPECT_EQ(error_of([] { read_text_file("/nonexistent/r.json", "results file"); }),
            "/nonexistent/r.json: cannot open results file: No such file or directory");
}

// A FIFO without a writer used to block `fit` forever.
TEST(FileIo, FifoInputIsRefusedWithoutBlocking) {
  TempDir dir;
  const std::string fifo = dir.path + "/points.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& args : {" fit --csv " + fifo, " fit " + fifo, " report " + fifo}) {
    const auto r = run_command("timeout 20 " + kBin + args);
    EXPECT_EQ(r.exit_code, 2) << args << " (124: it blocked)\n" << r.err;
    EXPECT_NE(r.err.find(fifo + ": the "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("is not a regular file"), std::string::npos) << r.err;
  }
}

TEST(FileIo, DirectoryInputIsRefused) {
  TempDir dir;
  const auto r = run_command(kBin + " fit " + dir.path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("results file is not a regular file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ridgeline
