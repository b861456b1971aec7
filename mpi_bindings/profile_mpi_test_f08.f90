! The profile_mpi_test.f90 program written with the mpi_f08 module: Open MPI routes these
! calls through ompi_*_f, which the profiler intercepts as well. Same expected matrix.
program profile_f08
  use mpi_f08
  implicit none
  integer :: r, n, buf(8), got(8), bb(3)
  type(MPI_Request) :: req
  double precision :: a(2), s(2)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, r)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  buf = r
  a = 1.0d0
  bb = 0
  call MPI_Irecv(got, 8, MPI_INTEGER, mod(r - 1 + n, n), 1, MPI_COMM_WORLD, req)
  call MPI_Send(buf, 8, MPI_INTEGER, mod(r + 1, n), 1, MPI_COMM_WORLD)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call MPI_Allreduce(a, s, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Bcast(bb, 3, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call MPI_Finalize()
end program profile_f08
