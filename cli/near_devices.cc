#include "cli/near_devices.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/lines.h"
#include "base/status_macros.h"

namespace rankmap::cli {
namespace {

std::string Upper(std::string_view device_class) {
  std::string s(device_class);
  for (char& c : s) c = static_cast<char>(std::toupper(c));
  return s;
}

// "0-1,24-25": hwloc's list syntax, short enough for one line.
std::string PuList(const std::vector<int32_t>& pus) {
  std::string out;
  for (size_t i = 0; i < pus.size();) {
    size_t j = i;
    while (j + 1 < pus.size() && pus[j + 1] == pus[j] + 1) ++j;
    absl::StrAppend(&out, out.empty() ? "" : ",", pus[i]);
    if (j > i) absl::StrAppend(&out, "-", pus[j]);
    i = j + 1;
  }
  return out;
}

// The first and last device names of a list, for messages.
std::string NameRange(const std::vector<topology::IoDevice>& devices,
                      const std::vector<int32_t>& which) {
  if (which.size() == 1) return devices[which[0]].name;
  return absl::StrCat(devices[which.front()].name, " ... ",
                      devices[which.back()].name);
}

// The distinct localities of the devices in use; devices sharing one share
// its class.
struct Localities {
  std::vector<int32_t> of_device;           // -1: a device no process uses
  std::vector<std::vector<int32_t>> users;  // devices per locality, ascending
  std::vector<const std::vector<int32_t>*> pus;  // PUs per locality
};

Localities LocalitiesInUse(const std::vector<topology::IoDevice>& devices,
                           const std::vector<int32_t>& device_of_process) {
  Localities loc;
  loc.of_device.assign(devices.size(), -1);
  for (int32_t d : device_of_process) {
    if (d < 0 || loc.of_device[d] >= 0) continue;
    for (size_t c = 0; c < loc.pus.size() && loc.of_device[d] < 0; ++c) {
      if (*loc.pus[c] == devices[d].pus)
        loc.of_device[d] = static_cast<int32_t>(c);
    }
    if (loc.of_device[d] < 0) {
      loc.of_device[d] = static_cast<int32_t>(loc.pus.size());
      loc.pus.push_back(&devices[d].pus);
      loc.users.emplace_back();
    }
    loc.users[loc.of_device[d]].push_back(d);
  }
  for (auto& u : loc.users) std::sort(u.begin(), u.end());
  return loc;
}

}  // namespace

absl::StatusOr<std::vector<int32_t>> ParseNearProcesses(
    std::string_view text, std::string_view source,
    const std::vector<topology::IoDevice>& devices, int32_t num_processes) {
  std::vector<int32_t> device_of(num_processes, -1);
  std::vector<int32_t> all(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) all[d] = static_cast<int32_t>(d);
  for (const base::Line& line : base::SplitLines(text)) {
    const std::string& name = line.tokens[0].text;
    int32_t device = -1;
    for (size_t d = 0; d < devices.size() && device < 0; ++d) {
      const auto& os = devices[d].os_devices;
      if (devices[d].pci_busid == name ||
          std::find(os.begin(), os.end(), name) != os.end()) {
        device = static_cast<int32_t>(d);
      }
    }
    if (device < 0) {
      return base::LineError(
          source, line.number,
          absl::StrCat("no device named '", name, "' (devices: ",
                       devices.empty() ? "none" : NameRange(devices, all),
                       ")"));
    }
    if (line.tokens.size() < 2) {
      return base::LineError(
          source, line.number,
          absl::StrCat("device '", name, "' names no process"));
    }
    for (size_t k = 1; k < line.tokens.size(); ++k) {
      const std::string& item = line.tokens[k].text;
      const size_t dash = item.find('-', 1);
      int64_t a = 0, b = 0;
      bool ok = dash == std::string::npos
                    ? absl::SimpleAtoi(item, &a) && (b = a, true)
                    : absl::SimpleAtoi(item.substr(0, dash), &a) &&
                          absl::SimpleAtoi(item.substr(dash + 1), &b);
      if (!ok || a < 0 || b < a || b >= num_processes) {
        return base::ColumnError(
            source, line.number, line.tokens[k].column,
            absl::StrCat("expected a process or range in 0..",
                         num_processes - 1, ", found '", item, "'"));
      }
      for (int64_t u = a; u <= b; ++u) {
        if (device_of[u] >= 0) {
          return base::ColumnError(
              source, line.number, line.tokens[k].column,
              absl::StrCat("process ", u, " already has device ",
                           devices[device_of[u]].name));
        }
        device_of[u] = device;
      }
    }
  }
  return device_of;
}

absl::StatusOr<NearDevices> AssignNearDevices(
    const topology::Tree& tree, std::vector<topology::IoDevice> devices,
    std::vector<int32_t> device_of_process, int32_t num_processes,
    std::string_view device_class, std::string_view topology) {
  const std::string flag = absl::StrCat("--near ", std::string(device_class));
  const std::string what = Upper(device_class);
  if (devices.empty()) {
    ASSIGN_OR_RETURN(const topology::DeviceClass c,
                     topology::ParseDeviceClass(device_class));
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": ", std::string(topology), " has no ",
                     std::string(topology::DeviceClassDescription(c))));
  }
  if (device_of_process.empty()) {
    if (num_processes > static_cast<int64_t>(devices.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          flag, ": ", num_processes, " processes need one ", what, " each but ",
          std::string(topology), " has ", devices.size(),
          " (--near-processes chooses which processes need one)"));
    }
    device_of_process.resize(num_processes);
    for (int32_t u = 0; u < num_processes; ++u) device_of_process[u] = u;
  }
  NearDevices near;
  near.device_class = std::string(device_class);
  near.device_of_process = std::move(device_of_process);
  near.classes.of_process.assign(num_processes, -1);
  near.classes.of_leaf.assign(tree.num_leaves(), -1);

  const Localities loc = LocalitiesInUse(devices, near.device_of_process);
  const std::vector<int32_t>& locality_of = loc.of_device;
  const std::vector<std::vector<int32_t>>& users = loc.users;
  const std::vector<const std::vector<int32_t>*>& pus = loc.pus;
  // Each leaf goes to the smallest locality holding all its PUs.
  std::vector<int64_t> leaves_in(pus.size(), 0), slots(pus.size(), 0);
  for (core::LeafId l = 0; l < tree.num_leaves(); ++l) {
    const auto leaf_pus = tree.pus(l);
    if (leaf_pus.empty()) continue;
    int32_t best = -1;
    for (size_t c = 0; c < pus.size(); ++c) {
      const bool local =
          std::all_of(leaf_pus.begin(), leaf_pus.end(), [&](int32_t p) {
            return std::binary_search(pus[c]->begin(), pus[c]->end(), p);
          });
      if (!local) continue;
      ++leaves_in[c];
      if (best < 0 || pus[c]->size() < pus[best]->size())
        best = static_cast<int32_t>(c);
    }
    near.classes.of_leaf[l] = best;
    if (best >= 0) slots[best] += tree.capacity(l);
  }
  std::vector<std::vector<int32_t>> processes(pus.size());
  for (int32_t u = 0; u < num_processes; ++u) {
    const int32_t d = near.device_of_process[u];
    if (d < 0) continue;
    const int32_t c = locality_of[d];
    // A locality over the whole tree constrains nothing.
    if (leaves_in[c] == tree.num_leaves()) continue;
    near.classes.of_process[u] = c;
    processes[c].push_back(u);
  }
  for (size_t c = 0; c < pus.size(); ++c) {
    if (static_cast<int64_t>(processes[c].size()) <= slots[c]) continue;
    const topology::IoDevice& first = devices[users[c][0]];
    return absl::InvalidArgumentError(absl::StrCat(
        flag, ": the leaves local to ", NameRange(devices, users[c]), " (",
        first.locality, ", PUs ", PuList(first.pus), ") have ", slots[c],
        " slots for their ", processes[c].size(), " processes ",
        processes[c].front(), "..", processes[c].back()));
  }
  near.devices = std::move(devices);
  return near;
}

void PrintNearDevices(const NearDevices& near, std::ostream& out) {
  for (size_t u = 0; u < near.device_of_process.size(); ++u) {
    const int32_t d = near.device_of_process[u];
    if (d < 0) continue;
    const topology::IoDevice& dev = near.devices[d];
    out << "near " << near.device_class << ": process " << u << ": " << dev.name
        << " (" << dev.locality << ", PUs " << PuList(dev.pus) << ")\n";
  }
}

}  // namespace rankmap::cli
