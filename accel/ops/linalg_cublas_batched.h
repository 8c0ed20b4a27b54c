// inv, solve and det/slogdet of many small matrices on CUDA, over cuBLAS's batched LU
// (cublas<t>getrfBatched, getriBatched, getrsBatched: backend/cuda/cublas_api.def): one call for
// the whole batch where cuSOLVER (ops/linalg_cusolver.h) takes one call, and several kernel
// launches, per matrix. The same contract as cuSOLVER's functions; linalg_device.cpp picks this
// path where cublas_batched_lu_fits says so. The matrices go to cuBLAS as device arrays of
// pointers, computed on the device by accel's arange; every buffer comes from accel's allocator.
#pragma once
#include "accel/core/array.h"

namespace accel::linalg {

// Whether a (batch..., n, n) CUDA array goes to the batched path: small n, a batch of more than
// one matrix, and a cuBLAS that works on the device.
bool cublas_batched_lu_fits(const Array& a);

void cublas_batched_solve(const Array& a, const Array& b, const Array& x);
void cublas_batched_inv(const Array& a, const Array& out);
void cublas_batched_slogdet(const Array& a, const Array& sign, const Array& logabsdet,
                            const Array* det = nullptr);

// The address of each matrix of the C-contiguous (batch..., rows, cols) `matrices`, as uint64 on
// their device: data() + i * rows * cols * itemsize, the pointer arrays cuBLAS's batched
// routines take.
Array matrix_pointers(const Array& matrices);

}  // namespace accel::linalg
