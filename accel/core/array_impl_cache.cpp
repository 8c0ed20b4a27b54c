#include "accel/core/array_impl_cache.h"

#include "accel/core/cached_allocator.h"

namespace accel {
namespace {

ACCEL_FREE_BLOCK_STACK(ImplBlocks)
using ImplAllocator = CachedAllocator<ArrayImpl, ImplBlocks>;

}  // namespace

std::shared_ptr<ArrayImpl> new_array_impl() {
  return std::allocate_shared<ArrayImpl>(ImplAllocator());
}

std::shared_ptr<ArrayImpl> new_array_impl(const Shape& shape, const Strides& strides) {
  return std::allocate_shared<ArrayImpl>(ImplAllocator(), shape, strides);
}

}  // namespace accel
