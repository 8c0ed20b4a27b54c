#include "accel/ops/linalg_cuda_buffers.h"

#include <vector>

#include "accel/backend/cuda/memory.h"
#include "accel/backend/cuda/stream.h"
#include "accel/ops/copy.h"
#include "accel/ops/creation.h"
#include "accel/ops/elementwise.h"
#include "accel/ops/manipulation.h"
#include "accel/ops/reduction.h"
#include "accel/runtime/errors.h"

namespace accel::linalg {
namespace {

// The diagonals of contiguous (batch..., n, n) matrices, as a (batch..., n) view.
Array diagonals(const Array& m) {
  const int64_t n = m.shape(-1);
  Shape shape(m.shape().begin(), m.shape().end() - 2);
  Strides strides(m.strides().begin(), m.strides().end() - 2);
  shape.push_back(n);
  strides.push_back(n + 1);
  return Array::view_of(m, shape, strides, m.offset());
}

}  // namespace

Array private_copy(const Array& x) {
  Array c = copy(x);
  c.eval();
  return c;
}

Array column_major_copy(const Array& x) { return private_copy(matrix_transpose(x)); }

Array zeroed_infos(int64_t batch, int device) {
  Array info = Array::empty({batch}, Dtype::int32, Device::cuda(device));
  if (batch > 0) cuda::memset_async(info.data(), 0, info.nbytes(), cuda::current_stream(device));
  return info;
}

void check_infos(const Array& info, const std::string& where, const char* op, const char* failure,
                 const char* library) {
  if (info.size() == 0) return;
  const std::vector<int32_t> values = to_device(info, Device::cpu()).to_vector<int32_t>();
  for (int32_t v : values) {
    if (v < 0)
      throw Error("[" + where + "] " + library + " rejected argument " + std::to_string(-v) +
                  " (a bug in accel: please report it)");
    if (v > 0 && failure) throw LinAlgError(std::string("[") + op + "] " + failure);
  }
}

void slogdet_from_lu(const Array& lu, const Array& pivots, const Array& sign,
                     const Array& logabsdet, const Array* det) {
  const int64_t n = lu.shape(-1);
  const Device dev = lu.device();
  const Array d = diagonals(lu);
  // Each row interchange (pivot i + 1 != i + 1, 1-based) flips the sign.
  const Array swaps = count_nonzero(
      not_equal(pivots, arange(int64_t{1}, n + 1, int64_t{1}, Dtype::int32, dev)), {int64_t{-1}});
  const Array parity =
      astype(subtract(Array::scalar(int64_t{1}, true, dev),
                      multiply(Array::scalar(int64_t{2}, true, dev),
                               remainder(swaps, Array::scalar(int64_t{2}, true, dev)))),
             lu.dtype());
  if (det) {
    assign(*det, multiply(prod(d, {int64_t{-1}}), parity), "det");
    return;
  }
  const Array magnitude = abs(d);
  const Array zero = Array::scalar(0.0, true, dev);
  const Array is_zero = equal(magnitude, zero);
  const Array unit =
      where(is_zero, zero, divide(d, where(is_zero, Array::scalar(1.0, true, dev), magnitude)));
  assign(sign, multiply(prod(unit, {int64_t{-1}}), parity), "slogdet");
  assign(logabsdet, sum(log(magnitude), {int64_t{-1}}), "slogdet");
}

}  // namespace accel::linalg
