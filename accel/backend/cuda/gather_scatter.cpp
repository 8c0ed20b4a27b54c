#include "accel/backend/cuda/gather_scatter.h"

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <mutex>

#include "accel/backend/common/coalesce.h"
#include "accel/backend/cuda/builtin_kernels.h"
#include "accel/backend/cuda/memory.h"
#include "accel/device_src/embedded_sources.h"

namespace accel::cuda {
namespace {

// The word type that moves one element, by item size (gather_scatter.cuh's E).
const char* word_type(size_t itemsize) {
  switch (itemsize) {
    case 1:
      return "uint8_t";
    case 2:
      return "uint16_t";
    case 4:
      return "uint32_t";
    case 8:
      return "uint64_t";
    default:
      return "accel_ix::Bytes16";
  }
}
constexpr size_t kItemSizes[] = {1, 2, 4, 8, 16};
constexpr const char* kTemplates[] = {"accel_gather_elements", "accel_gather_blocks",
                                      "accel_scatter_blocks"};

std::string instance(const char* kernel, size_t itemsize) {
  return std::string(kernel) + "<" + word_type(itemsize) + ">";
}

// One module per item size (each also holds the size-free extern "C" kernels): the first
// gather of a dtype compiles only what it uses.
BuiltinKernels& kernels(size_t itemsize) {
  static std::mutex mutex;
  static auto* modules = new std::map<size_t, std::unique_ptr<BuiltinKernels>>();  // never freed
  std::lock_guard<std::mutex> lock(mutex);
  auto& k = (*modules)[itemsize];
  if (!k) {
    std::vector<std::string> names;
    for (const char* kernel : kTemplates) names.push_back(instance(kernel, itemsize));
    k = std::make_unique<BuiltinKernels>(gather_scatter_kernel_source(), names,
                                         "accel_gather_scatter.cu");
  }
  return *k;
}

uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

// Device memory for a temporary of n int64 words, on the current stream.
std::shared_ptr<Buffer> words(int device, int64_t n) {
  return allocate(device, static_cast<size_t>(std::max<int64_t>(n, 1)) * sizeof(int64_t));
}

// One launch of a grid-stride kernel over `work` items, on the current stream.
void launch(const std::string& name, size_t itemsize, int device, int64_t work,
            const KernelArgs& args) {
  kernels(itemsize).get(name, device)(Dim3{grid_for(work, device), 1, 1}, Dim3{kBlockThreads, 1, 1},
                                      args, 0, current_stream(device));
}

// The device's record of the first bad index: position * k + which, all ones when none.
struct FaultWord {
  std::shared_ptr<Buffer> buffer;
  explicit FaultWord(int device) : buffer(words(device, 1)) {
    memset_async(buffer->data(), 0xff, sizeof(uint64_t), current_stream(device));
  }
  // Waits for the kernels queued so far and reads the fault, if any, with the index value.
  std::optional<IndexFault> read(int device, std::span<const Array> indices) const {
    const Stream stream = current_stream(device);
    uint64_t key = 0;
    copy(&key, buffer->data(), sizeof key, CopyKind::device_to_host, stream);
    if (key == ~uint64_t{0}) return std::nullopt;
    const uint64_t k = indices.size();
    const int which = static_cast<int>(key % k);
    int64_t pos = static_cast<int64_t>(key / k), off = 0;
    const Array& ix = indices[static_cast<size_t>(which)];
    for (int d = ix.ndim() - 1; d >= 0; --d) {
      off += pos % ix.shape()[d] * ix.strides()[d];
      pos /= ix.shape()[d];
    }
    int64_t value = 0;
    copy(&value, ix.data<int64_t>() + off, sizeof value, CopyKind::device_to_host, stream);
    return IndexFault{which, value};
  }
};

// The walk's table in device memory (queued on the current stream; the buffer may be released
// as soon as the launches that read it are queued: the allocator reuses it only for later work
// on the same stream).
std::shared_ptr<Buffer> upload(int device, const std::vector<int64_t>& table) {
  auto buf = words(device, static_cast<int64_t>(table.size()));
  copy_async(buf->data(), table.data(), table.size() * sizeof(int64_t), CopyKind::host_to_device,
             current_stream(device));
  return buf;
}

}  // namespace

IndexWalk index_walk(const Array& indexed, std::span<const int> axes,
                     std::span<const Array> indices, const Array& other) {
  IndexWalk w;
  const Shape& b = indices[0].shape();
  const size_t nb = b.size(), k = indices.size();
  w.positions = shape_size(b);
  // B coalesced over each index array's strides and the other operand's.
  std::vector<Strides> steps;
  for (size_t j = 0; j < k; ++j) steps.emplace_back(indices[j].strides());
  steps.emplace_back(other.strides().begin(), other.strides().begin() + static_cast<ptrdiff_t>(nb));
  const plan::IterSpace walk = plan::coalesce(b, std::move(steps));
  const Shape& shape = walk.shape;
  const std::vector<Strides>& strides = walk.steps;
  // The block: the indexed array's other axes, which follow B in the other operand.
  Shape block_shape;
  std::vector<Strides> block_steps(2);  // indexed, other
  size_t r = nb;
  for (int d = 0; d < indexed.ndim(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) != axes.end()) continue;
    block_shape.push_back(indexed.shape()[d]);
    block_steps[0].push_back(indexed.strides()[d]);
    block_steps[1].push_back(other.strides()[r++]);
    w.block *= indexed.shape()[d];
  }
  const plan::IterSpace block = plan::coalesce(block_shape, std::move(block_steps));
  const Shape& bshape = block.shape;
  const Strides &bindexed = block.steps[0], &bother = block.steps[1];
  std::vector<int64_t>& t = w.table;
  t = {static_cast<int64_t>(shape.size()), static_cast<int64_t>(k),
       static_cast<int64_t>(bshape.size())};
  t.insert(t.end(), shape.begin(), shape.end());
  for (size_t j = 0; j < k; ++j) {
    t.push_back(static_cast<int64_t>(address(indices[j].data())));
    t.push_back(indexed.shape()[axes[j]]);
    t.push_back(indexed.strides()[axes[j]]);
    t.insert(t.end(), strides[j].begin(), strides[j].end());
  }
  t.insert(t.end(), strides[k].begin(), strides[k].end());
  for (const Strides* v : {&bshape, &bindexed, &bother}) t.insert(t.end(), v->begin(), v->end());
  return w;
}

std::string gather_scatter_kernel_source() { return builtin_source(embedded::gather_scatter_cuh); }

std::vector<std::string> gather_scatter_kernel_names() {
  std::vector<std::string> names;
  for (const char* kernel : kTemplates)
    for (size_t size : kItemSizes) names.push_back(instance(kernel, size));
  return names;
}

std::optional<IndexFault> gather(int device, const Array& src, std::span<const int> axes,
                                 std::span<const Array> indices, const Array& out) {
  const IndexWalk w = index_walk(src, axes, indices, out);
  if (w.positions == 0) return std::nullopt;
  const auto table = upload(device, w.table);
  const FaultWord fault(device);
  const size_t isz = src.itemsize();
  if (w.block == 1) {  // one element per position: check and move in one kernel
    KernelArgs args;
    args.add(address(src.data()))
        .add(address(out.data()))
        .add(address(table->data()))
        .add(w.positions)
        .add(address(fault.buffer->data()));
    launch(instance("accel_gather_elements", isz), isz, device, w.positions, args);
    return fault.read(device, indices);
  }
  // Resolve each position once, then move its block (nothing to move for an empty block, but
  // the indices are still checked, as NumPy does).
  std::shared_ptr<Buffer> src_off, out_off;
  if (w.block > 0) {
    src_off = words(device, w.positions);
    out_off = words(device, w.positions);
  }
  KernelArgs resolve;
  resolve.add(address(table->data()))
      .add(w.positions)
      .add(address(src_off ? src_off->data() : nullptr))
      .add(address(out_off ? out_off->data() : nullptr))
      .add(address(fault.buffer->data()));
  launch("accel_index_resolve", isz, device, w.positions, resolve);
  if (w.block > 0) {
    KernelArgs move;
    move.add(address(src.data()))
        .add(address(out.data()))
        .add(address(table->data()))
        .add(address(src_off->data()))
        .add(address(out_off->data()))
        .add(w.positions)
        .add(w.block);
    launch(instance("accel_gather_blocks", isz), isz, device, w.positions * w.block, move);
  }
  return fault.read(device, indices);
}

std::optional<IndexFault> scatter(int device, const Array& dst, std::span<const int> axes,
                                  std::span<const Array> indices, const Array& values) {
  const IndexWalk w = index_walk(dst, axes, indices, values);
  if (w.positions == 0) return std::nullopt;
  const size_t isz = dst.itemsize();
  const auto table = upload(device, w.table);
  const FaultWord fault(device);
  auto dst_off = words(device, w.positions), val_off = words(device, w.positions);
  KernelArgs resolve;
  resolve.add(address(table->data()))
      .add(w.positions)
      .add(address(dst_off->data()))
      .add(address(val_off->data()))
      .add(address(fault.buffer->data()));
  launch("accel_index_resolve", isz, device, w.positions, resolve);
  // Every index is checked before anything is written.
  if (auto bad = fault.read(device, indices)) return bad;
  if (w.block == 0) return std::nullopt;
  const Stream stream = current_stream(device);
  if (w.positions > 1) {
    // Repeated destinations: the latest position wins. The table has at least twice as many
    // slots as positions, so probing always ends.
    const uint64_t slots = std::bit_ceil(static_cast<uint64_t>(w.positions) * 2);
    auto keys = words(device, static_cast<int64_t>(slots));
    auto winners = words(device, static_cast<int64_t>(slots));
    memset_async(keys->data(), 0xff, slots * sizeof(uint64_t), stream);    // kEmpty
    memset_async(winners->data(), 0xff, slots * sizeof(int64_t), stream);  // -1
    KernelArgs pass;
    pass.add(address(dst_off->data()))
        .add(w.positions)
        .add(address(keys->data()))
        .add(address(winners->data()))
        .add(slots - 1);
    launch("accel_repeat_claim", isz, device, w.positions, pass);
    launch("accel_repeat_drop", isz, device, w.positions, pass);
  }
  KernelArgs move;
  move.add(address(dst.data()))
      .add(address(values.data()))
      .add(address(table->data()))
      .add(address(dst_off->data()))
      .add(address(val_off->data()))
      .add(w.positions)
      .add(w.block);
  launch(instance("accel_scatter_blocks", isz), isz, device, w.positions * w.block, move);
  return std::nullopt;
}

}  // namespace accel::cuda
