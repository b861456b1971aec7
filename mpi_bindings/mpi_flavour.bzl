"""The MPI-dependent targets of mpi_bindings, declared once for every MPI.

//mpi_bindings calls mpi_flavour() with Open MPI, //mpi_bindings/mpich with
MPICH: the same sources, dependencies and tests, so the two builds cannot
drift apart. Targets that do not include mpi.h (job_tree, profile_output,
profile_window, traffic_model, collective_model and its parts,
permutation_tool, profile_expected) live in //mpi_bindings only and both
flavours use them.
"""

_MPI_TEST_TAGS = [
    "mpi",
    "no_asan",
]

def _src(name):
    return "//mpi_bindings:" + name

def mpi_flavour(mpi, env = {}):
    """Declares the MPI libraries and their multi-rank tests in this package.

    Args:
      mpi: the MPI library target (//third_party/system:mpi or :mpich).
      env: the environment of the MPI tests (MPI_FLAVOR picks the launcher in
        mpi_run.sh).
    """

    # ---- Reordering: the C++ and C APIs and the PMPI interceptions ----

    # Where a job's ranks run and the tree of their slots (Reorder's and the
    # partitioner plugins' first step); not installed.
    native.cc_library(
        name = "job_gather",
        srcs = [_src("job_gather.cc")],
        hdrs = [_src("job_gather.h")],
        visibility = ["//visibility:public"],
        deps = [
            _src("job_tree"),
            "//base:host_name",
            "//base:status_macros",
            "//third_party/system:absl",
            "//topology:binding",
            mpi,
        ],
    )

    native.cc_library(
        name = "reorder",
        srcs = [_src("reorder.cc")],
        hdrs = [_src("reorder.h")],
        visibility = ["//visibility:public"],
        deps = [
            ":job_gather",
            _src("job_tree"),
            "//base:memory_budget",
            "//base:sha256",
            "//base:status_macros",
            "//core:mapper",
            "//graphs:comm_graph",
            "//third_party/system:absl",
            "//topology:binding",
            "//topology:tree_ops",
            mpi,
        ],
    )

    native.cc_library(
        name = "rankmap_mpi",
        srcs = [_src("rankmap_mpi.cc")],
        hdrs = [_src("rankmap_mpi.h")],
        visibility = ["//visibility:public"],
        deps = [
            ":reorder",
            "//api:named_options",
            "//base:status_macros",
            "//third_party/system:absl",
            mpi,
        ],
    )

    native.cc_library(
        name = "intercept_plan",
        srcs = [_src("intercept_plan.cc")],
        hdrs = [_src("intercept_plan.h")],
        deps = [
            ":reorder",
            "//api:named_options",
            "//third_party/system:absl",
            "//topology:binding",
            mpi,
        ],
    )

    # PMPI interception of MPI_Dist_graph_create(_adjacent) and
    # MPI_Cart_create: link before -lmpi or LD_PRELOAD.
    native.cc_binary(
        name = "librankmap_reorder.so",
        srcs = [
            _src("cart_intercept.cc"),
            _src("dist_graph_intercept.cc"),
        ],
        linkshared = 1,
        visibility = ["//visibility:public"],
        deps = [
            ":intercept_plan",
            ":reorder",
            mpi,
        ],
    )

    native.cc_binary(
        name = "reorder_mpi_test_main",
        testonly = True,
        srcs = [_src("reorder_mpi_test_main.cc")],
        visibility = ["//tests/launch:__pkg__"],
        deps = [
            ":rankmap_mpi",
            ":reorder",
            "//core:mapper",
            "//tests:factories",
            "//third_party/system:absl",
            "//topology:binding",
            mpi,
        ],
    )

    native.sh_test(
        name = "reorder_mpi_test",
        srcs = [_src("reorder_mpi_test.sh")],
        args = ["$(location :reorder_mpi_test_main)"],
        data = [
            ":reorder_mpi_test_main",
            _src("mpi_run.sh"),
        ],
        env = env,
        tags = _MPI_TEST_TAGS,
    )

    for kind in ["dist_graph", "cart"]:
        native.cc_binary(
            name = kind + "_mpi_test_main",
            testonly = True,
            srcs = [_src(kind + "_mpi_test_main.c")],
            deps = [mpi],
        )
        native.sh_test(
            name = kind + "_mpi_test",
            srcs = [_src(kind + "_mpi_test.sh")],
            args = [
                "$(location :%s_mpi_test_main)" % kind,
                "$(location :librankmap_reorder.so)",
                "$(location %s)" % _src("permutation_tool"),
            ],
            data = [
                ":%s_mpi_test_main" % kind,
                ":librankmap_reorder.so",
                _src("mpi_run.sh"),
                _src("permutation_tool"),
            ],
            env = env,
            tags = _MPI_TEST_TAGS,
        )

    # ---- The traffic profiler ----

    # What the profiler's entry points record: MPI handles to ranks and bytes,
    # init and finalize.
    native.cc_library(
        name = "profile",
        srcs = [_src("profile.cc")],
        hdrs = [_src("profile.h")],
        deps = [
            _src("collective_model"),
            _src("profile_output"),
            _src("profile_window"),
            _src("traffic_model"),
            "//base:host_name",
            "//base:memory_budget",
            "//third_party/system:absl",
            "//topology:machine_xml",
            mpi,
        ],
    )

    # LD_PRELOAD it into any dynamically linked MPI program (profile.h). The C
    # and Fortran entry points are sources here, not a library, so the linker
    # keeps every one.
    native.cc_binary(
        name = "librankmap_profile.so",
        srcs = [
            _src("profile_c.cc"),
            _src("profile_fortran.cc"),
        ],
        linkopts = ["-ldl"],
        linkshared = 1,
        visibility = ["//visibility:public"],
        deps = [
            ":profile",
            mpi,
        ],
    )

    for program in ["profile_mpi_test_main", "profile_abort_test_main"]:
        native.cc_binary(
            name = program,
            testonly = True,
            srcs = [_src(program + ".c")],
            deps = [mpi],
        )

    native.sh_test(
        name = "profile_mpi_test",
        srcs = [_src("profile_mpi_test.sh")],
        args = [
            "$(location :profile_mpi_test_main)",
            "$(location :librankmap_profile.so)",
            "$(location %s)" % _src("profile_expected"),
            "$(location %s)" % _src("profile_mpi_test.f90"),
            "$(location //cli:rankmap)",
            "$(location %s)" % _src("profile_mpi_test_f08.f90"),
            "$(location :profile_abort_test_main)",
        ],
        data = [
            ":librankmap_profile.so",
            ":profile_abort_test_main",
            ":profile_mpi_test_main",
            "//cli:rankmap",
            _src("mpi_run.sh"),
            _src("profile_formats.sh"),
            _src("profile_expected"),
            _src("profile_mpi_test.f90"),
            _src("profile_mpi_test_f08.f90"),
        ],
        env = env,
        tags = _MPI_TEST_TAGS,
    )

    # Windows, iterations and MPI_Pcontrol on a program with a start-up phase,
    # and the placement file against each rank's own sched_getaffinity.
    native.cc_binary(
        name = "profile_window_test_main",
        testonly = True,
        srcs = [
            _src("profile_window_test_main.c"),
            _src("rank_lines.h"),
        ],
        deps = [mpi],
    )

    native.sh_test(
        name = "profile_window_mpi_test",
        srcs = [_src("profile_window_mpi_test.sh")],
        args = [
            "$(location :profile_window_test_main)",
            "$(location :librankmap_profile.so)",
        ],
        data = [
            ":librankmap_profile.so",
            ":profile_window_test_main",
            _src("mpi_run.sh"),
            _src("profile_formats.sh"),
        ],
        env = env,
        tags = _MPI_TEST_TAGS,
    )

    # ---- Reports for the launcher tests in tests/launch ----

    # Each rank's host and CPUs.
    native.cc_binary(
        name = "placement_report",
        testonly = True,
        srcs = [
            _src("placement_report_main.c"),
            _src("placement_line.h"),
            _src("rank_lines.h"),
        ],
        visibility = ["//tests/launch:__pkg__"],
        deps = [mpi],
    )

    # A halo exchange of a given stride, then each rank's host and CPUs (the
    # rankmap advise tests).
    native.cc_binary(
        name = "halo_report",
        testonly = True,
        srcs = [
            _src("halo_report_main.c"),
            _src("placement_line.h"),
            _src("rank_lines.h"),
        ],
        visibility = [
            "//bench:__pkg__",  # the attack round
            "//tests/launch:__pkg__",
        ],
        deps = [mpi],
    )

    # Each rank's CPU and memory binding as hwloc reads them, and its OpenMP
    # variables.
    native.cc_binary(
        name = "binding_report",
        testonly = True,
        srcs = [
            _src("binding_report_main.c"),
            _src("rank_lines.h"),
        ],
        visibility = ["//tests/launch:__pkg__"],
        deps = [
            "//third_party/system:hwloc",
            mpi,
        ],
    )
