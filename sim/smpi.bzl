"""smpi_program: one MPI program built twice, for SimGrid's SMPI and for Open MPI."""

def smpi_program(name, srcs, deps = [], visibility = None, mpich = False):
    """Builds `<name>_smpi.so` (what smpirun loads) and `<name>_mpi` (mpirun).

    With mpich, also `<name>_mpich` (MPICH's mpiexec.hydra, srun --mpi=pmi2).

    The SMPI variant compiles like smpicxx does: SimGrid's mpi.h first on the
    include path, smpi_helpers.h forced in (it redirects sleep, gettimeofday,
    malloc and exit to their simulated versions), linked against libsimgrid as a
    shared object. Only the program's own sources see those flags; its deps are
    ordinary libraries. The MPI variant is an ordinary Open MPI binary.
    """
    native.cc_binary(
        name = name + "_smpi.so",
        srcs = srcs,
        copts = [
            "-I/usr/include/smpi",
            "-include",
            "smpi/smpi_helpers.h",
        ],
        linkopts = ["-lsimgrid"],
        linkshared = True,
        deps = deps,
        visibility = visibility,
    )
    native.cc_binary(
        name = name + "_mpi",
        srcs = srcs,
        deps = deps + ["//third_party/system:mpi"],
        visibility = visibility,
    )
    if mpich:
        native.cc_binary(
            name = name + "_mpich",
            srcs = srcs,
            deps = deps + ["//third_party/system:mpich"],
            visibility = visibility,
        )
