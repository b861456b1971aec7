! A Fortran MPI program with known traffic (mpif.h-style `use mpi` bindings), profiled by
! profile_mpi_test.sh; profile_expected.cc fortran N computes its exact matrix.
program profile_fortran
  use mpi
  implicit none
  integer :: ierr, r, n, req, buf(8), got(8), bb(3)
  double precision :: a(2), s(2)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  buf = r
  a = 1.0d0
  bb = 0
  ! 8 integers (32 bytes) to r + 1.
  call MPI_Irecv(got, 8, MPI_INTEGER, mod(r - 1 + n, n), 1, MPI_COMM_WORLD, req, ierr)
  call MPI_Send(buf, 8, MPI_INTEGER, mod(r + 1, n), 1, MPI_COMM_WORLD, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  ! Allreduce of 2 doubles (16 bytes) and a broadcast of 3 integers (12 bytes) from 0.
  call MPI_Allreduce(a, s, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(bb, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program profile_fortran
