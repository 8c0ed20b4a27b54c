// accel::cuda, the C++ face of accel.cuda: devices, streams, events, memory, NVRTC compilation,
// cuBLAS, cuFFT, cuSOLVER and user kernels. Everything here loads CUDA at run time; without a driver the calls throw
// BackendUnavailable and say why.
#pragma once
#include "accel/backend/cuda/compiler.h"
#include "accel/backend/cuda/cublas.h"
#include "accel/backend/cuda/cufft.h"
#include "accel/backend/cuda/cusolver.h"
#include "accel/backend/cuda/devices.h"
#include "accel/backend/cuda/driver.h"
#include "accel/backend/cuda/fft.h"
#include "accel/backend/cuda/kernel.h"
#include "accel/backend/cuda/memory.h"
#include "accel/backend/cuda/nvrtc.h"
#include "accel/backend/cuda/stream.h"

namespace accel::cuda {

// True when the driver loads and at least one GPU is present (NVRTC is needed only to compile).
inline bool is_available() { return driver_unavailable_reason().empty(); }

}  // namespace accel::cuda
