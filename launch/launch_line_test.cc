#include "launch/launch_line.h"

#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::launch {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::Not;
using Words = std::vector<std::string>;

TEST(ParseLaunchLine, FindsTheProgramAfterOptionsWithValues) {
  const Words w = {"mpirun",
                   "-np",
                   "8",
                   "--mca",
                   "btl",
                   "self,vader",
                   "--bind-to",
                   "core",
                   "-x",
                   "FOO=1",
                   "--report-bindings",
                   "./halo",
                   "-n",
                   "100"};
  auto line = ParseLaunchLine(w, Launcher::kOpenMpi);
  ASSERT_THAT(line, IsOk());
  EXPECT_EQ(line->processes, 8);
  EXPECT_THAT(line->program, ElementsAre("./halo", "-n", "100"));
  EXPECT_THAT(KeptOptions(*line),
              ElementsAre("--mca", "btl", "self,vader", "-x", "FOO=1",
                          "--report-bindings"));
}

TEST(ParseLaunchLine, HydraAndSlurmSpellings) {
  auto hydra = ParseLaunchLine(
      Words{"mpiexec.hydra", "-launcher", "fork", "-hosts", "n0,n1", "-n", "4",
            "-genv", "A", "b", "-bind-to", "core", "./app"},
      Launcher::kHydra);
  ASSERT_THAT(hydra, IsOk());
  EXPECT_EQ(hydra->processes, 4);
  EXPECT_THAT(KeptOptions(*hydra),
              ElementsAre("-launcher", "fork", "-genv", "A", "b"));
  auto srun =
      ParseLaunchLine(Words{"srun", "-n4", "--cpu-bind=cores", "-N", "2",
                            "--mpi=pmi2", "-w", "tux[0-1]", "./app", "x"},
                      Launcher::kSlurm);
  ASSERT_THAT(srun, IsOk());
  EXPECT_EQ(srun->processes, 4);
  EXPECT_THAT(srun->program, ElementsAre("./app", "x"));
  EXPECT_THAT(KeptOptions(*srun), ElementsAre("-N", "2", "--mpi=pmi2"));
}

TEST(WithEnvironment, EachLauncherItsOwnWay) {
  const std::vector<std::pair<std::string, std::string>> env = {
      {"LD_PRELOAD", "/l/p.so"}, {"RANKMAP_PROFILE_OUT", "/t/app"}};
  auto ompi =
      ParseLaunchLine(Words{"mpirun", "-np", "2", "./a"}, Launcher::kOpenMpi);
  EXPECT_THAT(WithEnvironment(*ompi, env),
              ElementsAre("mpirun", "-x", "LD_PRELOAD=/l/p.so", "-x",
                          "RANKMAP_PROFILE_OUT=/t/app", "-np", "2", "./a"));
  auto hydra = ParseLaunchLine(Words{"mpiexec.hydra", "-n", "2", "./a"},
                               Launcher::kHydra);
  EXPECT_THAT(
      WithEnvironment(*hydra, env),
      ElementsAre("mpiexec.hydra", "-genv", "LD_PRELOAD", "/l/p.so", "-genv",
                  "RANKMAP_PROFILE_OUT", "/t/app", "-n", "2", "./a"));
  auto srun = ParseLaunchLine(
      Words{"srun", "--export=NONE,HOME", "-n", "2", "./a"}, Launcher::kSlurm);
  EXPECT_THAT(WithEnvironment(*srun, env),
              ElementsAre("srun",
                          "--export=NONE,HOME,LD_PRELOAD=/l/p.so,"
                          "RANKMAP_PROFILE_OUT=/t/app",
                          "-n", "2", "./a"));
  auto plain = ParseLaunchLine(Words{"srun", "./a"}, Launcher::kSlurm);
  EXPECT_THAT(WithEnvironment(*plain, {{"X", "1"}}),
              ElementsAre("srun", "--export=ALL,X=1", "./a"));
}

TEST(ParseLaunchLine, RefusesWhatItCannotRun) {
  EXPECT_EQ(ParseLaunchLine(Words{"mpirun", "-np", "2"}, Launcher::kOpenMpi)
                .status()
                .message(),
            "no program after the options of Open MPI mpirun");
  EXPECT_EQ(ParseLaunchLine(Words{"mpirun", "-np"}, Launcher::kOpenMpi)
                .status()
                .message(),
            "Open MPI mpirun option -np needs 1 value");
  EXPECT_THAT(
      ParseLaunchLine(Words{"mpirun", "-np", "x", "./a"}, Launcher::kOpenMpi),
      Not(IsOk()));
  EXPECT_THAT(ParseLaunchLine(Words{"mpiexec.hydra", "-n", "1", "./a", ":",
                                    "-n", "1", "./b"},
                              Launcher::kHydra),
              Not(IsOk()));
  EXPECT_THAT(
      ParseLaunchLine(Words{"mpirun", "--app", "f"}, Launcher::kOpenMpi),
      Not(IsOk()));
  EXPECT_THAT(ParseLaunchLine(Words{}, Launcher::kSlurm), Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::launch
