#include "cli/near_devices.h"

#include <cstdlib>
#include <sstream>
#include <string>

#include "base/status_matchers.h"
#include "core/mapper.h"
#include "gmock/gmock.h"
#include "graphs/comm_graph.h"
#include "gtest/gtest.h"
#include "topology/topology.h"

namespace rankmap::cli {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using topology::DeviceClass;
using topology::IoDevice;

std::string Xml(const std::string& name) {
  const char* dir = std::getenv("TEST_SRCDIR");
  return std::string(dir ? dir : ".") + "/rankmap/tests/data/hwloc-xml/" + name;
}

// Every process talks to the next; process 0 and the last talk most, so an
// unconstrained mapper would put them side by side.
graphs::CommGraph Ring(int32_t n) {
  graphs::CommGraphBuilder b(n);
  for (int32_t u = 0; u < n; ++u)
    EXPECT_THAT(b.AddEdge(u, (u + 1) % n, u == n - 1 ? 100 : 1), IsOk());
  return *std::move(b).Build();
}

struct Machine {
  topology::Tree tree;
  std::vector<IoDevice> devices;
};

Machine Load(const std::string& file, DeviceClass cls,
             topology::LoadOptions o = {}) {
  auto tree = topology::LoadTopology(Xml(file), o);
  EXPECT_THAT(tree, IsOk());
  auto devices = topology::IoDevicesOf(Xml(file), cls);
  EXPECT_THAT(devices, IsOk());
  return {*std::move(tree), *std::move(devices)};
}

core::Mapping MapNear(const Machine& m, const NearDevices& near, int32_t n) {
  core::MappingOptions opts;
  auto mapping = core::Map(m.tree, Ring(n), opts, near.classes);
  EXPECT_THAT(mapping, IsOk());
  return mapping.ok() ? *mapping : core::Mapping();
}

TEST(NearDevicesTest, OneRankPerGpuOfADgx2) {
  // nvidiaDGX2.xml keeps 2 PUs per package: 0,1 on Package 0 (nvml0..7) and
  // 24,25 on Package 1 (nvml8..15). Four slots per PU hold 16 ranks.
  topology::LoadOptions o;
  o.capacity = 4;
  const Machine m = Load("nvidiaDGX2.xml", DeviceClass::kGpu, o);
  auto near = AssignNearDevices(m.tree, m.devices, {}, 16, "gpu", "dgx2");
  ASSERT_THAT(near, IsOk());
  const core::Mapping map = MapNear(m, *near, 16);
  ASSERT_EQ(map.size(), 16u);
  for (int32_t u = 0; u < 16; ++u) {
    EXPECT_EQ(near->device_of_process[u], u);
    const int32_t pu = m.tree.os_index(map[u]);
    if (u < 8) {
      EXPECT_TRUE(pu == 0 || pu == 1) << "process " << u << " on PU " << pu;
    } else {
      EXPECT_TRUE(pu == 24 || pu == 25) << "process " << u << " on PU " << pu;
    }
  }
}

TEST(NearDevicesTest, CoresNextToEachGpuOfAPower8) {
  // power8gpudistances.xml, cores as leaves: cuda0, cuda1 below Package 0
  // (PUs 0,1,8,9,16,17,24,25), cuda2, cuda3 below Package 1 (PUs 80,81,88,
  // 89,96,97,104,105). The ring's heavy edge 3-0 crosses the packages.
  topology::LoadOptions o;
  o.leaf = topology::LeafKind::kCore;
  const Machine m = Load("power8gpudistances.xml", DeviceClass::kGpu, o);
  auto near = AssignNearDevices(m.tree, m.devices, {}, 4, "gpu", "power8");
  ASSERT_THAT(near, IsOk());
  const core::Mapping map = MapNear(m, *near, 4);
  ASSERT_EQ(map.size(), 4u);
  for (int32_t u = 0; u < 4; ++u) {
    const int32_t pu = m.tree.pus(map[u])[0];
    EXPECT_EQ(pu < 80, u < 2) << "process " << u << " on PU " << pu;
  }
}

TEST(NearDevicesTest, ProcessesNamedPerNic) {
  // 24em64t-2n6c2t-pci.xml: the HCA (eth2, ib0, mlx4_0) sits below Package 0,
  // the even PUs; processes 2 and 5 need it, the others take any PU.
  const Machine m = Load("24em64t-2n6c2t-pci.xml", DeviceClass::kNic);
  auto device_of =
      ParseNearProcesses("# rail\nmlx4_0 2 5\n", "near.txt", m.devices, 6);
  ASSERT_THAT(device_of, IsOk());
  EXPECT_THAT(*device_of, ElementsAre(-1, -1, 2, -1, -1, 2));
  auto near = AssignNearDevices(m.tree, m.devices, *device_of, 6, "nic", "x");
  ASSERT_THAT(near, IsOk());
  const core::Mapping map = MapNear(m, *near, 6);
  ASSERT_EQ(map.size(), 6u);
  EXPECT_EQ(m.tree.os_index(map[2]) % 2, 0);
  EXPECT_EQ(m.tree.os_index(map[5]) % 2, 0);
  std::ostringstream printed;
  PrintNearDevices(*near, printed);
  EXPECT_EQ(printed.str(),
            "near nic: process 2: eth2 (Package:0, PUs "
            "0,2,4,6,8,10,12,14,16,18,20,22)\n"
            "near nic: process 5: eth2 (Package:0, PUs "
            "0,2,4,6,8,10,12,14,16,18,20,22)\n");
}

TEST(NearDevicesTest, LocalityOverTheWholeTreeConstrainsNothing) {
  // PUs 0..3 in two packages; device "all" is local to the whole machine,
  // "half" to package 0.
  auto tree = topology::LoadTopology("pack:2 core:2");
  ASSERT_THAT(tree, IsOk());
  std::vector<IoDevice> devices(2);
  devices[0].name = "all";
  devices[0].pus = {0, 1, 2, 3};
  devices[1].name = "half";
  devices[1].pus = {0, 1};
  auto near = AssignNearDevices(*tree, devices, {0, 1, 1}, 3, "nic", "t");
  ASSERT_THAT(near, IsOk());
  EXPECT_THAT(near->classes.of_process, ElementsAre(-1, 1, 1));
  EXPECT_THAT(near->classes.of_leaf, ElementsAre(1, 1, 0, 0));
}

TEST(NearDevicesTest, Errors) {
  const Machine plain = Load("16em64t-4s2c2t.xml", DeviceClass::kGpu);
  EXPECT_EQ(AssignNearDevices(plain.tree, plain.devices, {}, 2, "gpu", "a.xml")
                .status()
                .message(),
            "--near gpu: a.xml has no GPU (hwloc OS devices of type "
            "GPU/CoProcessor)");
  const Machine p8 = Load("power8gpudistances.xml", DeviceClass::kGpu);
  EXPECT_EQ(AssignNearDevices(p8.tree, p8.devices, {}, 5, "gpu", "p8.xml")
                .status()
                .message(),
            "--near gpu: 5 processes need one GPU each but p8.xml has 4 "
            "(--near-processes chooses which processes need one)");
  const Machine dgx = Load("nvidiaDGX2.xml", DeviceClass::kGpu);
  auto three = ParseNearProcesses("nvml0 0\nnvml1 1-2\n", "n", dgx.devices, 3);
  ASSERT_THAT(three, IsOk());
  EXPECT_EQ(AssignNearDevices(dgx.tree, dgx.devices, *three, 3, "gpu", "d")
                .status()
                .message(),
            "--near gpu: the leaves local to nvml0 ... nvml1 (Package:0, PUs "
            "0-1) have 2 slots for their 3 processes 0..2");
  EXPECT_EQ(ParseNearProcesses("cuda9 0\n", "n.txt", p8.devices, 4)
                .status()
                .message(),
            "n.txt:1: no device named 'cuda9' (devices: cuda0 ... cuda3)");
  EXPECT_EQ(
      ParseNearProcesses("nvml1 0\n0002:01:00.0 0", "n.txt", p8.devices, 4)
          .status()
          .message(),
      "n.txt:2:14: process 0 already has device cuda1");
  EXPECT_EQ(ParseNearProcesses("cuda0 3-4", "n.txt", p8.devices, 4)
                .status()
                .message(),
            "n.txt:1:7: expected a process or range in 0..3, found '3-4'");
  EXPECT_EQ(
      ParseNearProcesses("cuda0\n", "n.txt", p8.devices, 4).status().message(),
      "n.txt:1: device 'cuda0' names no process");
}

}  // namespace
}  // namespace rankmap::cli
