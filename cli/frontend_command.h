// `rankmap frontend`: writes the communication graph of an application
// structure: SUMMA or Square-Corner matrix multiplication
// (graphs/frontends/matrix_frontend.h), a halo-exchanging stencil
// (graphs/frontends/stencil.h), the Wave2D solver on a column tiling
// (graphs/frontends/wave2d.h) or MPDATA on an arrangement of processor
// groups (graphs/frontends/mpdata.h).
//
//   FrontendCommand cmd;
//   cmd.kind = "stencil";
//   cmd.grid = "256x256x256";
//   cmd.stencil = 7;
//   cmd.procs = 512;
//   cmd.output = "stencil512.grf";
//   RETURN_IF_ERROR(RunFrontend(cmd, std::cout));
#ifndef RANKMAP_CLI_FRONTEND_COMMAND_H_
#define RANKMAP_CLI_FRONTEND_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/status.h"

namespace rankmap::cli {

struct FrontendCommand {
  std::string kind;  // summa | square-corner | stencil | wave2d | mpdata
  // Graph file, format from its extension (or graph_format); empty: the graph
  // goes to `out` (graph_format, edge list by default).
  std::string output;
  std::string graph_format = "auto";
  std::string speeds;  // file of speeds, or an inline list "8,1,1"
  // summa / square-corner
  int64_t n = 0;
  int64_t block = 1;
  int32_t element_size = 8;
  std::string partitioner = "column-dp";
  std::string flow = "ring";
  std::string link = "serial";
  std::string shape = "hybrid";
  // summa and mpdata
  std::string clusters;   // cluster of each processor, "0,0,1"
  std::string bandwidth;  // cluster-pair bandwidths, row-major "10,1,1,10"
  // mpdata: vertical (contiguous) bandwidths; empty: those of `bandwidth`
  std::string bandwidth_v;
  std::string domain = "512x512x64";  // mpdata: n x m x l elements
  // mpdata: also try 1 x P and P x 1 grids in Algorithm 3
  bool allow_1d = false;
  // summa: FPM speed-function file (FPM-BR), a partition file used as is,
  // the arrangement search and the hop cost's norm; square-corner (three
  // processors): the network and its hub (-1: the fastest).
  std::string speed_functions;
  std::string partition;
  std::string arrange = "auto";
  std::string hop_norm = "sum";
  std::string network = "fully-connected";
  int32_t hub = -1;
  // Per-byte halo weights: stencil, one per dimension ("1,12.8"); mpdata,
  // horizontal and vertical.
  std::string axis_weights;
  // stencil and wave2d (its mesh: rows x cols)
  std::string grid = "1024x1024";
  int32_t stencil = 5;
  int32_t halo = 1;
  std::string periodic = "none";
  int64_t procs = 0;
  std::string proc_grid;
  bool slabs = false;
};

// Prints the front end's report (sizes, volume) on `report`, then writes the
// graph to `output`, or to `out` when it is empty. summa and square-corner with
// constant speeds also write `<output>.speeds`: the speed each process's
// rectangle was computed for, one number per line, for `rankmap map
// --process-speeds`. Errors: an unknown kind,
// bad flag values (the messages name the flag), the front end's and the
// writer's.
absl::Status RunFrontend(const FrontendCommand& cmd, std::ostream& out,
                         std::ostream& report);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_FRONTEND_COMMAND_H_
