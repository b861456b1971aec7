#include "topology/machine_xml.h"

#include <hwloc.h>
#include <stdlib.h>

#include "gtest/gtest.h"
#include "topology/hwloc_import.h"

namespace rankmap::topology {
namespace {

// The export reads back as this machine: as many PUs as hwloc counts here.
TEST(ThisMachineXml, ReadsBackAsThisMachine) {
  absl::StatusOr<std::string> xml = ThisMachineXml();
  ASSERT_TRUE(xml.ok()) << xml.status();
  absl::StatusOr<Tree> tree = TreeFromXmlBuffer(*xml, "this.xml");
  ASSERT_TRUE(tree.ok()) << tree.status();
  hwloc_topology_t topo;
  ASSERT_EQ(hwloc_topology_init(&topo), 0);
  ASSERT_EQ(hwloc_topology_load(topo), 0);
  const int pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  hwloc_topology_destroy(topo);
  EXPECT_EQ(tree->num_leaves(), pus);
}

// hwloc's own environment is honoured: a node that says it is another
// machine exports that machine.
TEST(ThisMachineXml, HonoursHwlocsEnvironment) {
  absl::StatusOr<std::string> other = SyntheticToXml("pack:2 core:3 pu:1");
  ASSERT_TRUE(other.ok());
  const std::string path = ::testing::TempDir() + "/other.xml";
  FILE* f = fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs(other->c_str(), f);
  fclose(f);
  setenv("HWLOC_XMLFILE", path.c_str(), 1);
  absl::StatusOr<std::string> xml = ThisMachineXml();
  unsetenv("HWLOC_XMLFILE");
  ASSERT_TRUE(xml.ok()) << xml.status();
  absl::StatusOr<Tree> tree = TreeFromXmlBuffer(*xml, "node.xml");
  ASSERT_TRUE(tree.ok()) << tree.status();
  EXPECT_EQ(tree->num_leaves(), 6);
}

}  // namespace
}  // namespace rankmap::topology
