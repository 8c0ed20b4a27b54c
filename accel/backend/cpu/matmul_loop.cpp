// The matmul loop for what BLAS does not cover: integer and bool matrices (NumPy supports them;
// not BLAS-accelerated) and float sizes beyond BLAS's 32-bit arguments. Rows of C are
// accumulated a block of columns at a time so the accumulators stay in L1 and the inner loop
// (over contiguous columns of B) vectorizes.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "accel/backend/cpu/matmul_kernels.h"

namespace accel::cpu {
namespace {

constexpr int64_t kColumnBlock = 256;

// The accumulator of T: integers in an unsigned type at least as wide as int (so products
// wrap around instead of overflowing), bool in a byte, floats in themselves.
template <class T> struct Accumulator { using type = T; };
template <> struct Accumulator<bool> { using type = uint8_t; };
template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
struct Accumulator<T> {
  using type = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
};

template <class T>
void rows(int64_t n, int64_t k, const T* a, int64_t sa0, int64_t sa1, const T* b, int64_t ldb,
          T* c, int64_t row_begin, int64_t row_end) {
  using Acc = typename Accumulator<T>::type;
  Acc acc[kColumnBlock];
  for (int64_t jb = 0; jb < n; jb += kColumnBlock) {
    const int64_t nb = std::min(kColumnBlock, n - jb);
    for (int64_t i = row_begin; i < row_end; ++i) {
      std::fill(acc, acc + nb, Acc(0));
      const T* arow = a + i * sa0;
      for (int64_t p = 0; p < k; ++p) {
        const Acc x = static_cast<Acc>(arow[p * sa1]);
        const T* brow = b + p * ldb + jb;
        if constexpr (std::is_same_v<T, bool>) {
          for (int64_t j = 0; j < nb; ++j) acc[j] |= x & static_cast<Acc>(brow[j]);
        } else {
          for (int64_t j = 0; j < nb; ++j) acc[j] += x * static_cast<Acc>(brow[j]);
        }
      }
      T* crow = c + i * n + jb;
      for (int64_t j = 0; j < nb; ++j) crow[j] = static_cast<T>(acc[j]);
    }
  }
}

}  // namespace

void loop_matmul(Dtype dt, int64_t n, int64_t k, const void* a, int64_t sa0, int64_t sa1,
                 const void* b, int64_t ldb, void* c, int64_t row_begin, int64_t row_end) {
  dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    rows<T>(n, k, static_cast<const T*>(a), sa0, sa1, static_cast<const T*>(b), ldb,
            static_cast<T*>(c), row_begin, row_end);
  });
}

}  // namespace accel::cpu
