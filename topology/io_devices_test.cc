#include "topology/io_devices.h"

#include <cstdlib>
#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Xml(const std::string& name) {
  const char* dir = std::getenv("TEST_SRCDIR");
  return std::string(dir ? dir : ".") + "/rankmap/tests/data/hwloc-xml/" + name;
}

TEST(IoDevicesTest, SixteenGpusOfADgx2InBusOrder) {
  // nvidiaDGX2.xml: nvml0..7 sit below Package os_index 0 (cpuset 0x3: PUs
  // 0,1), nvml8..15 below Package 1 (cpuset 0x03000000: PUs 24,25).
  auto gpus = IoDevicesOf(Xml("nvidiaDGX2.xml"), DeviceClass::kGpu);
  ASSERT_THAT(gpus, IsOk());
  ASSERT_EQ(gpus->size(), 16u);
  for (int i = 0; i < 16; ++i) {
    const IoDevice& d = (*gpus)[i];
    EXPECT_EQ(d.name, "nvml" + std::to_string(i));
    EXPECT_EQ(d.locality, i < 8 ? "Package:0" : "Package:1");
    if (i < 8) {
      EXPECT_THAT(d.pus, ElementsAre(0, 1));
    } else {
      EXPECT_THAT(d.pus, ElementsAre(24, 25));
    }
  }
}

TEST(IoDevicesTest, OsDevicesOfOneGpuAreOneDevice) {
  // power8gpudistances.xml: each of the 4 GPUs has cuda<i>, opencl0d<i> and
  // nvml<i>; GPUs 0,1 below Package 0 (0x03030303: PUs 0,1,8,9,16,17,24,25),
  // GPUs 2,3 below Package 1 (0x00000303,0x03030000,,0x0: PUs 80,81,88,89,
  // 96,97,104,105).
  auto gpus = IoDevicesOf(Xml("power8gpudistances.xml"), DeviceClass::kGpu);
  ASSERT_THAT(gpus, IsOk());
  ASSERT_EQ(gpus->size(), 4u);
  EXPECT_EQ((*gpus)[0].name, "cuda0");
  EXPECT_THAT((*gpus)[0].os_devices,
              ElementsAre("cuda0", "opencl0d0", "nvml0"));
  EXPECT_EQ((*gpus)[0].pci_busid, "0002:01:00.0");
  EXPECT_THAT((*gpus)[1].pus, ElementsAre(0, 1, 8, 9, 16, 17, 24, 25));
  EXPECT_EQ((*gpus)[2].name, "cuda2");
  EXPECT_THAT((*gpus)[3].pus, ElementsAre(80, 81, 88, 89, 96, 97, 104, 105));
}

TEST(IoDevicesTest, DrmNodesAreNoNames) {
  // 32em64t-2n8c2t-pci-normalio.xml, below Package 1 (0xff00ff00: PUs 8-15,
  // 24-31): a Tesla M2075 at 84:00.0 with cuda0 and its DRM node card0, a
  // Radeon at 84:00.1 with opencl0d1. card0 names no device of its own.
  auto gpus =
      IoDevicesOf(Xml("32em64t-2n8c2t-pci-normalio.xml"), DeviceClass::kGpu);
  ASSERT_THAT(gpus, IsOk());
  ASSERT_EQ(gpus->size(), 2u);
  EXPECT_THAT((*gpus)[0].os_devices, ElementsAre("cuda0"));
  EXPECT_EQ((*gpus)[0].pci_busid, "0000:84:00.0");
  EXPECT_THAT((*gpus)[1].os_devices, ElementsAre("opencl0d1"));
  for (const IoDevice& d : *gpus) {
    EXPECT_EQ(d.locality, "Package:1");
    EXPECT_THAT(d.pus, ElementsAre(8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27,
                                   28, 29, 30, 31));
  }
}

TEST(IoDevicesTest, DisplayAdapterIsNoGpu) {
  // 96em64t-4n4d3ca2co-pci.xml: its only GPU-type OS device is card0, a DRM
  // node of a display adapter.
  auto gpus = IoDevicesOf(Xml("96em64t-4n4d3ca2co-pci.xml"), DeviceClass::kGpu);
  ASSERT_THAT(gpus, IsOk());
  EXPECT_TRUE(gpus->empty());
}

TEST(IoDevicesTest, NicsOfAPciExport) {
  // 24em64t-2n6c2t-pci.xml: eth0 (04:00.0), eth1 (04:00.1) and a ConnectX
  // VPI at 05:00.0 with eth2, ib0 and mlx4_0, all below Package 0 (cpuset
  // 0x00555555: the even PUs 0..22).
  auto nics = IoDevicesOf(Xml("24em64t-2n6c2t-pci.xml"), DeviceClass::kNic);
  ASSERT_THAT(nics, IsOk());
  std::vector<std::string> names;
  for (const IoDevice& d : *nics) names.push_back(d.name);
  EXPECT_THAT(names, ElementsAre("eth0", "eth1", "eth2"));
  EXPECT_THAT(nics->back().os_devices, ElementsAre("eth2", "ib0", "mlx4_0"));
  EXPECT_EQ(nics->back().pci_busid, "0000:05:00.0");
  for (const IoDevice& d : *nics) {
    EXPECT_EQ(d.locality, "Package:0");
    EXPECT_THAT(d.pus, ElementsAre(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22));
  }
}

TEST(IoDevicesTest, ExportWithoutIoHasNoDevice) {
  auto gpus = IoDevicesOf(Xml("16em64t-4s2c2t.xml"), DeviceClass::kGpu);
  ASSERT_THAT(gpus, IsOk());
  EXPECT_TRUE(gpus->empty());
}

TEST(IoDevicesTest, OnlyHwlocMachinesListDevices) {
  for (const char* desc :
       {"tleaf 2 2 10 2 1", "pack:2 core:4", "no-such.xml"}) {
    auto d = IoDevicesOf(desc, DeviceClass::kNic);
    ASSERT_THAT(d, Not(IsOk())) << desc;
    EXPECT_THAT(d.status().message(),
                HasSubstr("is not an hwloc machine (an XML export or 'this')"));
  }
}

TEST(IoDevicesTest, DeviceClassNames) {
  EXPECT_EQ(*ParseDeviceClass("gpu"), DeviceClass::kGpu);
  EXPECT_EQ(*ParseDeviceClass("nic"), DeviceClass::kNic);
  EXPECT_EQ(ParseDeviceClass("fpga").status().message(),
            "--near: expected gpu or nic, found 'fpga'");
}

}  // namespace
}  // namespace rankmap::topology
