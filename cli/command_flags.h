// The flags of each `rankmap` command: one FlagTable per command
// (cli/flag_table.h) from the specs of every flag, each spec written once
// and shared by the commands that read it (--seed's text is the same for
// map, compare, advise and demo). The order of a table is the order of its
// command's --help.
//
//   MapCommand cmd;
//   RETURN_IF_ERROR(MapFlags().SetDefaults(cmd));
//   ASSIGN_OR_RETURN(CommandLine line, MapFlags().Parse("map", args, cmd));
//
// Fields whose value is derived are filled by the table's setters: --threads
// 0 is the usable CPUs (at most 8), an empty --format is the command's own
// default, an empty advise --output or bind --bind keeps the struct's.
#ifndef RANKMAP_CLI_COMMAND_FLAGS_H_
#define RANKMAP_CLI_COMMAND_FLAGS_H_

#include <map>
#include <string>
#include <string_view>

#include "cli/advise_command.h"
#include "cli/bind_command.h"
#include "cli/calibrate_command.h"
#include "cli/compare_command.h"
#include "cli/demo_command.h"
#include "cli/eval_command.h"
#include "cli/flag_table.h"
#include "cli/map_command.h"
#include "cli/simulate_command.h"
#include "cli/topology_command.h"

namespace rankmap::cli {

// `rankmap frontend`'s flags as text by name ("grid" -> "64x64"), every one
// present (its default when not given): ParseFrontendCommand
// (cli/frontend_command.h) reads them, through cli/arg_parsers.h only.
struct FrontendFlagText {
  std::map<std::string, std::string, std::less<>> text;

  // The text of `name`, empty for a flag the table lacks.
  std::string operator()(std::string_view name) const;
};

const FlagTable<MapCommand>& MapFlags();
const FlagTable<EvalCommand>& EvalFlags();
const FlagTable<CompareCommand>& CompareFlags();
const FlagTable<SimulateCommand>& SimulateFlags();
// advise: inputs.topology is "this" when not given; the caller decides what
// an absent --topology means (CommandLine::given).
const FlagTable<AdviseCommand>& AdviseFlags();
const FlagTable<BindCommand>& BindFlags();
const FlagTable<CalibrateCommand>& CalibrateFlags();
const FlagTable<TopologyCommand>& TopologyFlags();
const FlagTable<FrontendFlagText>& FrontendFlags();
const FlagTable<DemoCommand>& DemoFlags();

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_COMMAND_FLAGS_H_
