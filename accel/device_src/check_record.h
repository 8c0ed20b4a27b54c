// The first out-of-bounds access of a checked kernel on a GPU: written by the kernel
// (checked_cuda.cuh), read after the launch's synchronisation and cleared by the launch
// (backend/cuda/kernel_check.h). Plain C++ for both compilers: the host includes it, NVRTC gets
// it as text.
#pragma once

struct AccelCheckRecord {
  unsigned int flag;      // 0: no violation yet; the first violating thread sets it to 1
  int arg;                // the argument's number
  long long index, size;  // the element index, the array's elements
  unsigned int block[3], thread[3];
};
