#include "launch/launch_line.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::launch {
namespace {

using ::testing::ElementsAre;
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
  ASSERT_TRUE(line.ok()) << line.status();
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
  ASSERT_TRUE(hydra.ok()) << hydra.status();
  EXPECT_EQ(hydra->processes, 4);
  EXPECT_THAT(KeptOptions(*hydra),
              ElementsAre("-launcher", "fork", "-genv", "A", "b"));
  auto srun =
      ParseLaunchLine(Words{"srun", "-n4", "--cpu-bind=cores", "-N", "2",
                            "--mpi=pmi2", "-w", "tux[0-1]", "./app", "x"},
                      Launcher::kSlurm);
  ASSERT_TRUE(srun.ok()) << srun.status();
  EXPECT_EQ(srun->processes, 4);
  EXPECT_THAT(srun->program, ElementsAre("./app", "x"));
  EXPECT_THAT(KeptOptions(*srun), ElementsAre("-N", "2", "--mpi=pmi2"));
}

TEST(WithEnvironment, EachLauncherItsOwnWay) {
  const std::vector<std::pair<std::string, std::string>> env = {
      {"LD_PRELOAD", "/l/p.so"}, {"RANKMAP_PROFILE_OUT", "/t/app"}};
  auto ompi =
      ParseLaunchLine(Words{"mpirun", "-np", "2", "./a"}, Launcher::kOpenMpi);
  EXPECT_THAT(*WithEnvironment(*ompi, env),
              ElementsAre("mpirun", "-x", "LD_PRELOAD=/l/p.so", "-x",
                          "RANKMAP_PROFILE_OUT=/t/app", "-np", "2", "./a"));
  auto hydra = ParseLaunchLine(Words{"mpiexec.hydra", "-n", "2", "./a"},
                               Launcher::kHydra);
  EXPECT_THAT(
      *WithEnvironment(*hydra, env),
      ElementsAre("mpiexec.hydra", "-genv", "LD_PRELOAD", "/l/p.so", "-genv",
                  "RANKMAP_PROFILE_OUT", "/t/app", "-n", "2", "./a"));
  auto srun = ParseLaunchLine(
      Words{"srun", "--export=NONE,HOME", "-n", "2", "./a"}, Launcher::kSlurm);
  EXPECT_THAT(*WithEnvironment(*srun, env),
              ElementsAre("srun",
                          "--export=NONE,HOME,LD_PRELOAD=/l/p.so,"
                          "RANKMAP_PROFILE_OUT=/t/app",
                          "-n", "2", "./a"));
  auto plain = ParseLaunchLine(Words{"srun", "./a"}, Launcher::kSlurm);
  EXPECT_THAT(*WithEnvironment(*plain, {{"X", "1"}}),
              ElementsAre("srun", "--export=ALL,X=1", "./a"));
}

// srun's --export has no escape for its separator: a value with a ',' would
// export the rest as another variable (a profile written elsewhere).
TEST(WithEnvironment, RefusesWhatSrunWouldSplit) {
  auto srun = ParseLaunchLine(Words{"srun", "-n", "2", "./a"}, Launcher::kSlurm);
  auto split = WithEnvironment(*srun, {{"RANKMAP_PROFILE_OUT", "/o,X=1/p"}});
  ASSERT_FALSE(split.ok());
  EXPECT_EQ(split.status().message(),
            "srun --export separates variables at ',': the value of "
            "RANKMAP_PROFILE_OUT ('/o,X=1/p') cannot hold one");
  // Open MPI's -x and Hydra's -genv take the value as one word.
  auto ompi =
      ParseLaunchLine(Words{"mpirun", "-np", "2", "./a"}, Launcher::kOpenMpi);
  EXPECT_THAT(*WithEnvironment(*ompi, {{"A", "x,y z"}}),
              ElementsAre("mpirun", "-x", "A=x,y z", "-np", "2", "./a"));
}

// Each launcher's spellings, as its --help lists them (launcher_options.h).
TEST(ParseLaunchLine, EveryLaunchersOwnSpellings) {
  auto ompi = ParseLaunchLine(
      Words{"mpirun", "-wd", "/w", "-am", "ft", "-map-by", "core", "-N", "2",
            "--tag-output", "-c", "4", "./app"},
      Launcher::kOpenMpi);
  ASSERT_TRUE(ompi.ok()) << ompi.status();
  EXPECT_EQ(ompi->processes, 4);
  EXPECT_THAT(KeptOptions(*ompi),
              ElementsAre("-wd", "/w", "-am", "ft", "--tag-output"));
  auto hydra = ParseLaunchLine(
      Words{"mpiexec.hydra", "--np=3", "-l", "-ppn", "2", "--wdir", "/w",
            "./app"},
      Launcher::kHydra);
  ASSERT_TRUE(hydra.ok()) << hydra.status();
  EXPECT_EQ(hydra->processes, 3);
  EXPECT_THAT(KeptOptions(*hydra), ElementsAre("-l", "--wdir", "/w"));
  auto srun = ParseLaunchLine(
      Words{"srun", "-lK", "--exclusive", "--exclusive=user", "-vv", "-n",
            "2", "--ntasks-per-node=1", "./app", "-n", "1"},
      Launcher::kSlurm);
  ASSERT_TRUE(srun.ok()) << srun.status();
  EXPECT_EQ(srun->processes, 2);
  EXPECT_THAT(srun->program, ElementsAre("./app", "-n", "1"));
  EXPECT_THAT(KeptOptions(*srun),
              ElementsAre("-lK", "--exclusive", "--exclusive=user", "-vv"));
}

TEST(ParseLaunchLine, UnknownOptionsAreRefusedNotGuessed) {
  const struct {
    Words words;
    Launcher launcher;
    const char* message;
  } cases[] = {
      {{"mpirun", "--map-by=core", "./a"},
       Launcher::kOpenMpi,
       "Open MPI mpirun has no option --map-by=core (advise reads the options "
       "its --help lists; is it the program?)"},
      {{"mpirun", "--frobnicate", "./a"},
       Launcher::kOpenMpi,
       "Open MPI mpirun has no option --frobnicate (advise reads the options "
       "its --help lists; is it the program?)"},
      {{"srun", "-lz", "./a"},
       Launcher::kSlurm,
       "srun has no option -lz (advise reads the options its --help lists; "
       "is it the program?)"},
      {{"srun", "--label=1", "./a"},
       Launcher::kSlurm,
       "srun option --label=1 takes no value"},
      {{"mpiexec.hydra", "-configfile", "c"},
       Launcher::kHydra,
       "MPICH mpiexec.hydra option -configfile does not run one program as "
       "one job, which is what advise profiles"},
      {{"mpirun", "-np", "99999999999", "./a"},
       Launcher::kOpenMpi,
       "Open MPI mpirun option -np: '99999999999' is not a process count"},
  };
  for (const auto& c : cases) {
    auto line = ParseLaunchLine(c.words, c.launcher);
    ASSERT_FALSE(line.ok()) << c.message;
    EXPECT_EQ(line.status().message(), c.message);
  }
}

// The rerun is rebuilt word by word: an output path holding a launcher's
// name, quotes or an option is one word, and the user's launcher replaces
// the plan's first word only.
TEST(RerunCommand, WordByWord) {
  auto line = ParseLaunchLine(
      Words{"/opt/bin/mpirun", "--mca", "btl", "self", "-np", "4", "./app",
            "mpirun -x"},
      Launcher::kOpenMpi);
  ASSERT_TRUE(line.ok());
  const std::string path = "/o/x mpirun -x 'A=$(id)'/job.rankfile";
  const LaunchCommand placed = {{}, {"mpirun", "--rankfile", path, "-np", "4"}};
  const LaunchCommand rerun = RerunCommand(*line, placed);
  EXPECT_THAT(rerun.words,
              ElementsAre("/opt/bin/mpirun", "--mca", "btl", "self",
                          "--rankfile", path, "-np", "4", "./app", "mpirun -x"));
  EXPECT_EQ(ShellText(rerun),
            "/opt/bin/mpirun --mca btl self --rankfile '/o/x mpirun -x "
            "'\\''A=$(id)'\\''/job.rankfile' -np 4 ./app 'mpirun -x'");
  auto srun = ParseLaunchLine(Words{"srun", "-n", "2", "--mpi=pmi2", "./a"},
                              Launcher::kSlurm);
  const LaunchCommand slurm = {{{"SLURM_HOSTFILE", "/o dir/job.slurm"}},
                               {"srun", "--distribution=arbitrary", "-n", "2"}};
  EXPECT_EQ(ShellText(RerunCommand(*srun, slurm)),
            "SLURM_HOSTFILE='/o dir/job.slurm' srun --mpi=pmi2 "
            "--distribution=arbitrary -n 2 ./a");
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
  EXPECT_FALSE(
      ParseLaunchLine(Words{"mpirun", "-np", "x", "./a"}, Launcher::kOpenMpi)
          .ok());
  EXPECT_FALSE(ParseLaunchLine(Words{"mpiexec.hydra", "-n", "1", "./a", ":",
                                     "-n", "1", "./b"},
                               Launcher::kHydra)
                   .ok());
  EXPECT_FALSE(
      ParseLaunchLine(Words{"mpirun", "--app", "f"}, Launcher::kOpenMpi).ok());
  EXPECT_FALSE(ParseLaunchLine(Words{}, Launcher::kSlurm).ok());
}

}  // namespace
}  // namespace rankmap::launch
