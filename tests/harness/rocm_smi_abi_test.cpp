// The ROCm SMI side of the HIP backend that needs no GPU: clock tables in both layouts (ROCm 5
// and 6) and the PCI ids that match its devices to HIP's. The declarations were checked against
// ROCm SMI's headers (backends/README.md); the calls are compiled, not run (no AMD GPU).
#include <gtest/gtest.h>

#include <cstdint>

#include "backends/hip/rocm_smi_abi.hpp"

namespace ridgeline {
namespace {

TEST(RocmSmiAbi, ClockTablesDecodeInBothLayouts) {
  hip::rsmi::FrequenciesV1 old{};
  old.num_supported = 3;
  old.current = 1;
  old.frequency[0] = 500'000'000;
  old.frequency[1] = 1'700'000'000;
  old.frequency[2] = 1'300'000'000;  // tables need not be sorted
  EXPECT_DOUBLE_EQ(hip::rsmi::decode(old).current_mhz, 1700);
  EXPECT_DOUBLE_EQ(hip::rsmi::decode(old).max_mhz, 1700);
  hip::rsmi::FrequenciesV7 now{};
  now.has_deep_sleep = true;
  now.num_supported = 2;
  now.current = 0;
  now.frequency[0] = 100'000'000;  // the deep-sleep entry
  now.frequency[1] = 2'100'000'000;
  EXPECT_DOUBLE_EQ(hip::rsmi::decode(now).current_mhz, 100);
  EXPECT_DOUBLE_EQ(hip::rsmi::decode(now).max_mhz, 2100);
  now.current = 7;  // out of range: unknown, not garbage
  EXPECT_DOUBLE_EQ(hip::rsmi::decode(now).current_mhz, 0);
  now.num_supported = 1000;  // never past the array
  EXPECT_DOUBLE_EQ(hip::rsmi::decode(now).max_mhz, 2100);
  // The ROCm 6 layout is the ROCm 5 one behind a bool and with a 33rd entry.
  EXPECT_EQ(sizeof(hip::rsmi::FrequenciesV1), 8u + 32u * 8u);
  EXPECT_EQ(sizeof(hip::rsmi::FrequenciesV7), 16u + 33u * 8u);
}

TEST(RocmSmiAbi, PciBusIdsMapOntoRocmSmiBdfIds) {
  std::uint64_t bdf = 0;
  ASSERT_TRUE(hip::rsmi::parse_bdf("0000:c1:00.0", bdf));
  EXPECT_EQ(bdf, 0xc1u << 8);
  ASSERT_TRUE(hip::rsmi::parse_bdf("0001:03:1f.7", bdf));
  EXPECT_EQ(bdf, (std::uint64_t(1) << 32) | (0x03u << 8) | (0x1fu << 3) | 7u);
  EXPECT_FALSE(hip::rsmi::parse_bdf("", bdf));
  EXPECT_FALSE(hip::rsmi::parse_bdf("0000:c1:00", bdf));
  EXPECT_FALSE(hip::rsmi::parse_bdf("0000:c1:20.0", bdf));  // device is 5 bits
  EXPECT_FALSE(hip::rsmi::parse_bdf("0000:c1:00.0x", bdf));
}

}  // namespace
}  // namespace ridgeline
