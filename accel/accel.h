// accel: NumPy-compatible arrays and your own kernels, on NVIDIA GPUs and the CPU.
// The one header a C++ user includes.
#pragma once

#include "accel/core/array.h"
#include "accel/core/device.h"
#include "accel/core/dtype.h"
#include "accel/eval/eval.h"
#include "accel/core/shape.h"
#include "accel/kernels/elementwise_kernel.h"
#include "accel/kernels/reduction_kernel.h"
#include "accel/ops/copy.h"
#include "accel/ops/creation.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/indexing.h"
#include "accel/ops/linalg.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/operators.h"
#include "accel/ops/promotion.h"
#include "accel/ops/raw_kernel.h"
#include "accel/ops/reduction.h"
#include "accel/ops/sorting.h"
#include "accel/backend/cuda/cuda.h"
#include "accel/runtime/errors.h"
