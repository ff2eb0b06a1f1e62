// The run-time loader every vendor library goes through (cuBLAS, rocBLAS, hipBLASLt, ROCm SMI),
// on a library every host has: the first soname that loads wins, each one that does not leaves
// the loader's answer, and a missing function is an error only where it is required.
#include "backends/loaded_library.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace ridgeline {
namespace {

TEST(LoadedLibrary, TheFirstSonameThatLoadsWinsAndTheOthersSayWhy) {
  const char* const sonames[] = {"libridgeline-absent.so.9", "libm.so.6", "libc.so.6"};
  std::vector<std::string> errors;
  const std::optional<LoadedLibrary> lib = open_first(sonames, errors);
  ASSERT_TRUE(lib);
  EXPECT_EQ(lib->soname(), "libm.so.6");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("libridgeline-absent.so.9"), std::string::npos) << errors[0];
  const auto cos_fn = lib->symbol<double (*)(double)>("cos");
  EXPECT_EQ(cos_fn(0.0), 1.0);
}

TEST(LoadedLibrary, AMissingRequiredSymbolNamesTheLibraryAndTheSymbol) {
  const char* const sonames[] = {"libm.so.6"};
  std::vector<std::string> errors;
  const std::optional<LoadedLibrary> lib = open_first(sonames, errors);
  ASSERT_TRUE(lib);
  try {
    lib->symbol<void (*)()>("ridgeline_no_such_function");
    FAIL() << "a missing required symbol was found";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "libm.so.6 has no symbol ridgeline_no_such_function");
  }
  EXPECT_EQ(lib->optional_symbol<void (*)()>("ridgeline_no_such_function"), nullptr);
}

TEST(LoadedLibrary, NoneLoadingGivesEveryLoaderAnswer) {
  const char* const sonames[] = {"libridgeline-absent.so.1", "libridgeline-absent.so"};
  std::vector<std::string> errors;
  EXPECT_FALSE(open_first(sonames, errors));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[1].find("libridgeline-absent.so"), std::string::npos) << errors[1];
}

}  // namespace
}  // namespace ridgeline
