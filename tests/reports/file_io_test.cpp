// Reading never blocks on what is not a regular file; writing never replaces what is not ours and
// never follows a planted link; failures name the file and the system's reason.
#include "core/file_io.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/input_error.hpp"
#include "tests/reports/cli_test_support.hpp"
#include "tests/support/test_paths.hpp"

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

// `--out /dev/null` replaced the device with a regular file. The test uses a device node of its
// own (a null device made with mknod), so that a regression cannot replace the system's.
TEST(FileIo, DeviceNodeIsNeverReplaced) {
  TempDir dir;
  const std::string device = dir.path + "/null";
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
    GTEST_SKIP() << "cannot make a device node here (needs CAP_MKNOD)";
  const auto r = run_command(kCompare + device);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(device + ": exists and is not a regular file"), std::string::npos) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(device.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device node was replaced";
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

// Several outputs of one command: one that cannot be written leaves none written, and no
// temporary file behind; `compare --json` into a missing folder no longer writes --out first.
TEST(FileIo, SeveralOutputsAreAllOrNothing) {
  TempDir dir;
  const std::string md = dir.path + "/c.md", json = dir.path + "/no/such/c.json";
  EXPECT_THROW(write_texts_atomically({{md, "markdown\n"}, {json, "{}\n"}}), IoError);
  EXPECT_EQ(dir.file_count(), 0);
  write_texts_atomically({{md, "markdown\n"}, {dir.path + "/c.json", "{}\n"}});
  EXPECT_EQ(slurp(md), "markdown\n");
  EXPECT_EQ(dir.file_count(), 2);

  TempDir cli;
  const auto r =
      run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData +
                  "/cpu_run_b.json --out " + cli.path + "/c.md --json " + cli.path + "/no/c.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_EQ(cli.file_count(), 0) << "compare wrote --out although --json could not be written";
}

TEST(FileIo, FailuresCarryTheSystemsReason) {
  EXPECT_EQ(error_of([] { write_text_atomically("/nonexistent/dir/r.json", "x"); }),
            "/nonexistent/dir/r.json: cannot write (temporary file): No such file or directory");
  EXPECT_EQ(error_of([] { read_text_file("/nonexistent/r.json", "results file"); }),
            "/nonexistent/r.json: cannot open results file: No such file or directory");
}

// fsync and close errors were ignored and the rename still happened: a file that never reached
// the disk replaced a good one.
TEST(FileIo, FsyncOrCloseFailureKeepsTheOldFile) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the ASan runtime must come first; LD_PRELOAD of the shim conflicts with it";
#endif
  TempDir dir;
  const std::string out = dir.path + "/compare.md";
  for (const char* fail : {"RIDGELINE_FAIL_FSYNC=1", "RIDGELINE_FAIL_CLOSE=1"}) {
    write_file(out, "the old report\n");
    const auto r =
        run_command(std::string(fail) + " LD_PRELOAD=" + ridgeline::test::paths::kFailingIoPreload +
                    " " + kCompare + out);
    EXPECT_EQ(r.exit_code, 2) << fail;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(out + ": cannot write ("), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Input/output error"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(out), "the old report\n") << fail;
    EXPECT_EQ(dir.file_count(), 1) << fail << ": the temporary file was left behind";
  }
}

// A FIFO without a writer used to block `fit` forever; then it was refused, and `fit <(cat r.json)`
// with it. Now a pipe is read, and a FIFO no writer opens gives up after the wait, in one line.
TEST(FileIo, FifoWithoutWriterTimesOutInOneLine) {
  TempDir dir;
  const std::string fifo = dir.path + "/points.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& args : {" fit --csv " + fifo, " fit " + fifo, " report " + fifo}) {
    const auto r = run_command("RIDGELINE_INPUT_WAIT_S=0.3 timeout 20 " + kBin + args);
    EXPECT_EQ(r.exit_code, 2) << args << " (124: it blocked)\n" << r.err;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(fifo + ": the "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("to which no writer wrote within 0.3 s"), std::string::npos) << r.err;
  }
}

TEST(FileIo, PipeInputIsRead) {
  const std::string file = kData + "/cpu_run_a.json";
  const auto direct = run_command(kBin + " fit " + file + " --json");
  const auto piped = run_command("cat " + file + " | " + kBin + " fit /dev/stdin --json");
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  // The same fit (the bootstrap is seeded), named after the path it was read from.
  std::string expected = direct.out;
  for (std::size_t at = expected.find(file); at != std::string::npos; at = expected.find(file, at))
    expected.replace(at, file.size(), "/dev/stdin");
  EXPECT_EQ(piped.out, expected);
}

TEST(FileIo, PipeReadInProcess) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string text = "{\"a\": 1}\n";
  ASSERT_EQ(::write(fds[1], text.data(), text.size()), ssize_t(text.size()));
  ::close(fds[1]);
  EXPECT_EQ(read_text_file("/dev/fd/" + std::to_string(fds[0]), "test file"), text);
  ::close(fds[0]);
}

// A newline in a file name must not split the error into two lines.
TEST(FileIo, NewlineInPathStaysOneLine) {
  TempDir dir;
  const std::string odd = dir.path + "/two\nlines.json";
  const auto r = run_command(kBin + " fit '" + odd + "'");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("two\\nlines.json"), std::string::npos) << r.err;
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
