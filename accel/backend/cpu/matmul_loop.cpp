// The matmul loop for what BLAS does not cover: integer and bool matrices (NumPy supports them;
// not BLAS-accelerated) and float sizes beyond BLAS's 32-bit arguments. Rows of C are
// accumulated a block of columns at a time so the accumulators stay in L1 and the inner loop
// (over contiguous columns of B) vectorizes.
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "accel/backend/cpu/matmul_kernels.h"

namespace accel::cpu {
namespace {

constexpr int64_t kColumnBlock = 256;

// The accumulator of T: integers in an unsigned type at least as wide as int (so products
// wrap around instead of overflowing), bool in a byte, floats in themselves.
template <class T> struct Accumulator { using type = T; };
template <> struct Accumulator<bool> { using type = uint8_t; };
// float16 and bfloat16 sum their products in float and round once, as NumPy's HALF_matmul.
template <class T>
  requires is_narrow_float_v<T>
struct Accumulator<T> {
  using type = float;
};
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

// The same for a small compile-time column count: the accumulators live in registers and
// the column loop unrolls, which is most of the time of batches of tiny matrices.
template <class T, int N>
void rows_fixed(int64_t k, const T* a, int64_t sa0, int64_t sa1, const T* b, int64_t ldb, T* c,
                int64_t row_begin, int64_t row_end) {
  using Acc = typename Accumulator<T>::type;
  for (int64_t i = row_begin; i < row_end; ++i) {
    Acc acc[N] = {};
    const T* arow = a + i * sa0;
    for (int64_t p = 0; p < k; ++p) {
      const Acc x = static_cast<Acc>(arow[p * sa1]);
      const T* brow = b + p * ldb;
      for (int j = 0; j < N; ++j) {
        if constexpr (std::is_same_v<T, bool>)
          acc[j] |= x & static_cast<Acc>(brow[j]);
        else
          acc[j] += x * static_cast<Acc>(brow[j]);
      }
    }
    for (int j = 0; j < N; ++j) c[i * N + j] = static_cast<T>(acc[j]);
  }
}

template <class T, int... N>
bool try_fixed(int64_t n, std::integer_sequence<int, N...>, int64_t k, const T* a, int64_t sa0,
               int64_t sa1, const T* b, int64_t ldb, T* c, int64_t r0, int64_t r1) {
  return ((n == N + 1 ? (rows_fixed<T, N + 1>(k, a, sa0, sa1, b, ldb, c, r0, r1), true) : false) ||
          ...);
}

constexpr int kMaxFixedColumns = 8;

}  // namespace

void loop_matmul(Dtype dt, int64_t n, int64_t k, const void* a, int64_t sa0, int64_t sa1,
                 const void* b, int64_t ldb, void* c, int64_t row_begin, int64_t row_end) {
  dispatch_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pa = static_cast<const T*>(a);
    const T* pb = static_cast<const T*>(b);
    T* pc = static_cast<T*>(c);
    if (!try_fixed<T>(n, std::make_integer_sequence<int, kMaxFixedColumns>{}, k, pa, sa0, sa1, pb,
                      ldb, pc, row_begin, row_end))
      rows<T>(n, k, pa, sa0, sa1, pb, ldb, pc, row_begin, row_end);
  });
}

}  // namespace accel::cpu
