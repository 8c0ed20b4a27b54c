#include "accel/backend/cuda/sort_kernels.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "accel/backend/common/coalesce.h"
#include "accel/backend/cuda/stream_order.h"
#include "accel/device_src/reduce_params.h"
#include "accel/device_src/sort_params.h"
#include "accel/runtime/errors.h"

namespace accel::cuda {
namespace {

using kernels::kMaxDims;
using kernels::kSortTile;
using kernels::kThreads;

// How sort.cuh reads a dtype: the bits of an element (of a component for complex), their kind.
struct KeyType {
  const char* bits;
  int width;
  int kind;
};

KeyType key_type(Dtype dt) {
  switch (dt) {
    case Dtype::bool_:
      return {"uint8_t", 8, kernels::kSortBool};
    case Dtype::int8:
      return {"uint8_t", 8, kernels::kSortSigned};
    case Dtype::int16:
      return {"uint16_t", 16, kernels::kSortSigned};
    case Dtype::int32:
      return {"uint32_t", 32, kernels::kSortSigned};
    case Dtype::int64:
      return {"uint64_t", 64, kernels::kSortSigned};
    case Dtype::uint8:
      return {"uint8_t", 8, kernels::kSortUnsigned};
    case Dtype::uint16:
      return {"uint16_t", 16, kernels::kSortUnsigned};
    case Dtype::uint32:
      return {"uint32_t", 32, kernels::kSortUnsigned};
    case Dtype::uint64:
      return {"uint64_t", 64, kernels::kSortUnsigned};
    case Dtype::float16:
      return {"uint16_t", 16, kernels::kSortFloat};
    case Dtype::bfloat16:
      return {"uint16_t", 16, kernels::kSortBfloat16};
    case Dtype::float32:
      return {"uint32_t", 32, kernels::kSortFloat};
    case Dtype::float64:
      return {"uint64_t", 64, kernels::kSortFloat};
    case Dtype::complex64:
      return {"uint32_t", 32, kernels::kSortComplex};
    case Dtype::complex128:
      return {"uint64_t", 64, kernels::kSortComplex};
  }
  // Every dtype has a case: only a corrupt value gets here (named by number, as dtype_name
  // would index past its table).
  throw DTypeError("[sort] no CUDA sort for dtype code " + std::to_string(static_cast<int>(dt)));
}

// Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on chains of operator+.
std::string typed(const char* kernel, const KeyType& k) {
  std::string name = "accel::kernels::";
  name += kernel;
  name += "<";
  name += k.bits;
  name += ", ";
  name += std::to_string(k.kind);
  name += ">";
  return name;
}

// A grid-stride kernel's grid over `work` items: enough blocks to keep the device busy.
Grid stride_grid(KernelRunner& runner, int64_t work) {
  const int64_t wanted = (work + kThreads - 1) / kThreads;
  const int64_t cap = std::max<int64_t>(runner.threads_wanted() / kThreads, 1);
  return {static_cast<unsigned>(std::clamp<int64_t>(wanted, 1, cap)), 1};
}

void check_ndim(size_t ndim, const char* op) {
  if (ndim > static_cast<size_t>(kMaxDims))
    throw ValueError(std::string("[") + op + "] the CUDA kernels take at most " +
                     std::to_string(kMaxDims) +
                     " dimensions that cannot be merged; this view has " + std::to_string(ndim) +
                     " (make it contiguous first)");
}

template <class Params>
void launch(KernelRunner& runner, const std::string& name, Grid grid, const Params& params) {
  runner.launch(name, grid, &params, sizeof params);
}

// The rows of a sort: the axes other than `axis`, merged where in, values and indices all allow.
void set_rows(kernels::SortParams& p, const Array& in, int axis, const Array* values,
              const Array* indices) {
  Shape shape;
  std::vector<Strides> steps(3);
  for (int d = 0; d < in.ndim(); ++d) {
    if (d == axis) continue;
    shape.push_back(in.shape()[d]);
    steps[0].push_back(in.strides()[d]);
    steps[1].push_back(values ? values->strides()[d] : 0);
    steps[2].push_back(indices ? indices->strides()[d] : 0);
  }
  const plan::IterSpace rows = plan::coalesce(shape, std::move(steps));
  check_ndim(rows.shape.size(), "sort");
  p.ndim = static_cast<int32_t>(rows.shape.size());
  for (size_t d = 0; d < rows.shape.size(); ++d) {
    p.size[d] = rows.shape[d];
    p.in_stride[d] = rows.steps[0][d];
    p.values_stride[d] = rows.steps[1][d];
    p.indices_stride[d] = rows.steps[2][d];
  }
}

}  // namespace

SortKernelNames sort_kernel_names(Dtype dtype) {
  const KeyType k = key_type(dtype);
  return {typed("sort_keys", k), typed("sort_write", k), typed("sort_search", k)};
}

void run_sort(KernelRunner& runner, const Array& in, int axis, bool descending, const Array* values,
              const Array* indices) {
  const int64_t total = in.size();
  if (total == 0 || (!values && !indices)) return;
  const KeyType k = key_type(in.dtype());
  const SortKernelNames names = sort_kernel_names(in.dtype());
  runner.prepare(
      {names.keys, names.write, kSortSegmentKeys, kSortCount, kSortScanCounts, kSortScatter});
  kernels::SortParams p{};
  set_rows(p, in, axis, values, indices);
  p.in = in.data();
  p.total = total;
  p.len = in.shape()[axis];
  p.tiles = (total + kSortTile - 1) / kSortTile;
  p.in_step = in.strides()[axis];
  p.descending = descending;
  // Double buffers of keys and positions (a pass reads one, writes the other) and the counts.
  Array keys = runner.empty({2, total}, Dtype::uint64);
  Array perm = runner.empty({2, total}, Dtype::int64);
  Array counts = runner.empty({kernels::kSortDigits * p.tiles}, Dtype::int64);
  uint64_t* key_buf[2] = {keys.data<uint64_t>(), keys.data<uint64_t>() + total};
  int64_t* perm_buf[2] = {perm.data<int64_t>(), perm.data<int64_t>() + total};
  p.counts = counts.data<int64_t>();
  int cur = 0;
  const Grid elements = stride_grid(runner, total);
  const Grid tiles{static_cast<unsigned>(std::min<int64_t>(p.tiles, 0x7fffffff)), 1};
  // Radix passes over the low `bits` bits of the keys in key_buf[cur].
  auto passes = [&](int bits) {
    for (int shift = 0; shift < bits; shift += kernels::kSortRadixBits) {
      p.shift = shift;
      p.keys_in = key_buf[cur];
      p.perm_in = perm_buf[cur];
      p.keys_out = key_buf[cur ^ 1];
      p.perm_out = perm_buf[cur ^ 1];
      launch(runner, kSortCount, tiles, p);
      launch(runner, kSortScanCounts, Grid{1, 1}, p);
      launch(runner, kSortScatter, tiles, p);
      cur ^= 1;
    }
  };
  for (int word = 0; word < kernels::sort_key_words(k.kind); ++word) {
    p.word = word;
    p.perm_in = word == 0 ? nullptr : perm_buf[cur];
    p.perm_out = perm_buf[cur];
    p.keys_out = key_buf[cur];
    launch(runner, names.keys, elements, p);
    passes(kernels::sort_word_bits(k.kind, k.width, word));
  }
  const int64_t rows = total / p.len;
  if (rows > 1) {
    p.perm_in = perm_buf[cur];
    p.keys_out = key_buf[cur];
    launch(runner, kSortSegmentKeys, elements, p);
    passes(std::bit_width(static_cast<uint64_t>(rows - 1)));
  }
  if (values) {
    values->buffer()->evaluate_pending_readers();
    p.values = values->data();
    p.values_step = values->strides()[axis];
  }
  if (indices) {
    indices->buffer()->evaluate_pending_readers();
    p.indices = indices->data<int64_t>();
    p.indices_step = indices->strides()[axis];
  }
  p.perm_in = perm_buf[cur];
  launch(runner, names.write, elements, p);
}

void run_searchsorted(KernelRunner& runner, const Array& sorted, const Array& values, bool right,
                      const Array& out) {
  const int64_t count = values.size();
  if (count == 0) return;
  kernels::SearchParams p{};
  const plan::IterSpace walk = plan::coalesce(values.shape(), {values.strides(), out.strides()});
  check_ndim(walk.shape.size(), "searchsorted");
  p.ndim = static_cast<int32_t>(walk.shape.size());
  for (size_t d = 0; d < walk.shape.size(); ++d) {
    p.size[d] = walk.shape[d];
    p.values_stride[d] = walk.steps[0][d];
    p.out_stride[d] = walk.steps[1][d];
  }
  out.buffer()->evaluate_pending_readers();
  p.sorted = sorted.data();
  p.values = values.data();
  p.out = out.data<int64_t>();
  p.n = sorted.shape()[0];
  p.sorted_step = sorted.strides()[0];
  p.count = count;
  p.right = right;
  launch(runner, sort_kernel_names(values.dtype()).search, stride_grid(runner, count), p);
}

void run_interp(KernelRunner& runner, const kernels::InterpParams& p) {
  if (p.count > 0) launch(runner, kInterpValues, stride_grid(runner, p.count), p);
}

void sort(const Array& in, int axis, bool descending, const Array* values, const Array* indices) {
  const int device = in.device().index;
  const Stream s = current_stream(device);
  for (const Array* a : {&in, values, indices})
    if (a) order_use(*a, s);
  run_sort(*cuda_runner(device), in, axis, descending, values, indices);
}

void searchsorted(const Array& sorted, const Array& values, bool right, const Array& out) {
  const int device = values.device().index;
  const Stream s = current_stream(device);
  for (const Array* a : {&sorted, &values, &out}) order_use(*a, s);
  run_searchsorted(*cuda_runner(device), sorted, values, right, out);
}

void interp(const Array& x, const Array& xp, const Array& fp, const Array& out,
            const kernels::InterpParams& p) {
  const int device = x.device().index;
  const Stream s = current_stream(device);
  for (const Array* a : {&x, &xp, &fp, &out}) order_use(*a, s);
  run_interp(*cuda_runner(device), p);
}

}  // namespace accel::cuda
