// `rankmap frontend`: writes the communication graph of an application
// structure: SUMMA or Square-Corner matrix multiplication
// (graphs/frontends/matrix_frontend.h), a halo-exchanging stencil
// (graphs/frontends/stencil.h), the Wave2D solver on a column tiling
// (graphs/frontends/wave2d.h), MPDATA on an arrangement of processor
// groups (graphs/frontends/mpdata.h), or the cell graph of an OpenFOAM
// case's mesh (graphs/polymesh.h: one edge per pair of cells sharing faces,
// weighted by the number of faces), for `map --format openfoam`.
//
// The command is typed: ParseFrontendCommand turns the flags' text into the
// options struct of one front end (every spelling is parsed by
// cli/arg_parsers.h), RunFrontend runs it.
//
//   FrontendCommand cmd;
//   cmd.kind = FrontendKind::kStencil;
//   graphs::StencilOptions o;
//   o.grid = {256, 256, 256};
//   o.points = 7;
//   o.procs = 512;
//   cmd.options = o;
//   cmd.output = "stencil512.grf";
//   RETURN_IF_ERROR(RunFrontend(cmd, std::cout, std::cout));
#ifndef RANKMAP_CLI_FRONTEND_COMMAND_H_
#define RANKMAP_CLI_FRONTEND_COMMAND_H_

#include <ostream>
#include <string>
#include <string_view>
#include <variant>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphs/frontends/matrix_frontend.h"
#include "graphs/frontends/mpdata.h"
#include "graphs/frontends/stencil.h"
#include "graphs/frontends/wave2d.h"
#include "graphs/graphs.h"
#include "graphs/polymesh.h"

namespace rankmap::cli {

enum class FrontendKind {
  kSumma,
  kSquareCorner,
  kStencil,
  kWave2D,
  kMpdata,
  kOpenFoam
};

// `frontend openfoam`: the case directory and the mesh region.
struct OpenFoamCase {
  std::string dir;
  graphs::PolyMeshOptions mesh;
};

struct FrontendCommand {
  FrontendKind kind = FrontendKind::kStencil;
  // Graph file, format from graph_format (kAuto: from its extension); empty:
  // the graph goes to `out` (an edge list unless graph_format says otherwise).
  std::string output;
  graphs::GraphFormat graph_format = graphs::GraphFormat::kAuto;
  // The options of `kind`'s front end; summa and square-corner share
  // MatrixFrontendOptions.
  std::variant<graphs::MatrixFrontendOptions, graphs::StencilOptions,
               graphs::Wave2DOptions, graphs::MpdataFrontendOptions,
               OpenFoamCase>
      options;
};

// The text of a flag by its name ("speeds", "grid", "bandwidth_v", ...), as
// main() holds it; empty text keeps the option's default.
using FlagText = absl::FunctionRef<std::string(std::string_view name)>;

// The command of `kind` (summa | square-corner | stencil | wave2d | mpdata |
// openfoam) from the flags that kind reads; files named by flags (--speeds
// FILE,
// --speed-functions, --partition) are read here. Errors: an unknown kind, a
// flag value that does not parse (the message names the flag), an unreadable
// or malformed file (file and line).
absl::StatusOr<FrontendCommand> ParseFrontendCommand(std::string_view kind,
                                                     FlagText flag);

// Prints the front end's report (sizes, volume; for openfoam the cells, the
// faces that join them, and one `note:` line per patch left out of the graph)
// on `report`, then writes the
// graph to `output`, or to `out` when it is empty. summa and square-corner with
// constant speeds also write `<output>.speeds`: the speed each process's
// rectangle was computed for, one number per line, for `rankmap map
// --process-speeds`. Errors: the front end's and the writer's.
absl::Status RunFrontend(const FrontendCommand& cmd, std::ostream& out,
                         std::ostream& report);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_FRONTEND_COMMAND_H_
