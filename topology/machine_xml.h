// The hardware of the machine a process runs on, as an hwloc XML export: what
// a job's profile keeps of each host it ran on, so that the job is priced on
// its own hardware and not on the machine that reads the profile.
//
// hwloc discovers the machine as it always does, so what hwloc's own
// environment says is honoured (HWLOC_XMLFILE=node.xml with
// HWLOC_THISSYSTEM=1 makes a node report another machine: the launcher tests
// give virtual nodes of one host different hardware that way).
//
//   ASSIGN_OR_RETURN(std::string xml, ThisMachineXml());
//   RETURN_IF_ERROR(base::WriteFile(dir + "/" + host + ".xml", xml));
#ifndef RANKMAP_TOPOLOGY_MACHINE_XML_H_
#define RANKMAP_TOPOLOGY_MACHINE_XML_H_

#include <string>

#include "absl/status/statusor.h"

namespace rankmap::topology {

// Errors: hwloc fails to load or to export (Internal).
absl::StatusOr<std::string> ThisMachineXml();

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_MACHINE_XML_H_
