// accel's own batched matrix product for the GPU, for every dtype: integers (wrapping like
// NumPy), bool (OR of ANDs), and floats and complex when cuBLAS is missing or cannot take the
// operands (strides in both axes, sizes past int32). Compiled by NVRTC after nvrtc_std.cuh with
// -default-device; one instantiation per dtype: accel_matmul<T>.
//
// Each block computes a 64 x 64 tile of C with 256 threads, 4 x 4 elements per thread, stepping
// through k in slices of 16 staged in shared memory. Operands may have any strides (read as
// a[row * sa0 + col * sa1]); C is contiguous. Grid x walks column tiles, y row tiles, z batch
// elements, each with a grid-stride loop, so any size fits the grid limits.
#pragma once

namespace accel_mm {

constexpr int kTile = 64;     // rows and columns of C per block
constexpr int kDepth = 16;    // k per shared-memory slice
constexpr int kThreads = 256; // 16 x 16 threads, each 4 x 4 elements of C
constexpr int kPer = 4;

// Multiply-add in the arithmetic NumPy's matmul uses for T.
template <class T> struct Madd {  // floats and complex: T itself
  using Acc = T;
  static Acc add(Acc acc, T a, T b) { return acc + a * b; }
  static T result(Acc acc) { return acc; }
};
// Integers wrap around: the products and sums are done unsigned (defined to wrap), at least 32
// bits wide so narrow types are not promoted to a signed int that could overflow.
template <class T, int Size> struct WrapAcc { using type = unsigned int; };
template <class T> struct WrapAcc<T, 8> { using type = unsigned long long; };
template <class T> struct Wrapping {
  using Acc = typename WrapAcc<T, sizeof(T)>::type;
  static Acc add(Acc acc, T a, T b) { return acc + Acc(a) * Acc(b); }
  static T result(Acc acc) { return T(acc); }
};
template <> struct Madd<signed char> : Wrapping<signed char> {};
template <> struct Madd<short> : Wrapping<short> {};
template <> struct Madd<int> : Wrapping<int> {};
template <> struct Madd<long long> : Wrapping<long long> {};
template <> struct Madd<unsigned char> : Wrapping<unsigned char> {};
template <> struct Madd<unsigned short> : Wrapping<unsigned short> {};
template <> struct Madd<unsigned int> : Wrapping<unsigned int> {};
template <> struct Madd<unsigned long long> : Wrapping<unsigned long long> {};
template <> struct Madd<bool> {
  using Acc = bool;
  static Acc add(Acc acc, bool a, bool b) { return acc | (a & b); }
  static bool result(Acc acc) { return acc; }
};

struct alignas(16) Raw16 {  // shared-memory storage, aligned for any T
  unsigned char bytes[16];
};

struct Shape {
  long long m, n, k;
  long long sa0, sa1, sb0, sb1;  // elements
  long long batch;               // product of the batch axes
  int batch_nd;                  // batch axes in `batch_meta`
};

}  // namespace accel_mm

// batch_meta: the batch axes as [shape[batch_nd], a_strides[batch_nd], b_strides[batch_nd]]
// (null when batch_nd is 0); batch element z's C is c + z * m * n.
// low occupancy (accel_matmul): each of the 256 threads keeps a 4 x 4 tile of C in registers;
// ptxas -v for sm_90 reports 80 registers for 1- to 4-byte types (37% occupancy), 98-128 for
// int8 and the 8-byte ones (25%), 176 for complex128 (12%). Holding 4 blocks per multiprocessor
// (__launch_bounds__(256, 4): 64 registers) spills every dtype, float32 included (60 bytes; 3 KiB
// for complex128), and 3 blocks still spills the 8- and 16-byte ones: the register tile is what
// makes this kernel compute-bound, as in register-tiled GEMMs. Floats and complex go to cuBLAS
// whenever it loads; measure on a GPU (scripts/gpu-check bench) before trading tile for blocks.
template <class T>
__global__ void __launch_bounds__(accel_mm::kThreads)
accel_matmul(const T* a, const T* b, T* c, const accel_mm::Shape s, const long long* batch_meta) {
  using namespace accel_mm;
  using Acc = typename Madd<T>::Acc;
  // A's slice is stored k-major (as_[kk][row]) with a padded row, so the loads below (threads
  // stepping along k) mostly hit different banks. Raw bytes: a __shared__ array of a class
  // with a constructor (complex) cannot be declared.
  using ATile = Raw16[(kDepth * (kTile + 1) * sizeof(T) + 15) / 16];
  using BTile = Raw16[(kDepth * kTile * sizeof(T) + 15) / 16];
  ACCEL_SHARED(ATile, as_raw);
  ACCEL_SHARED(BTile, bs_raw);
  T(*as_)[kTile + 1] = reinterpret_cast<T(*)[kTile + 1]>(as_raw);
  T(*bs_)[kTile] = reinterpret_cast<T(*)[kTile]>(bs_raw);
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const long long row_tiles = (s.m + kTile - 1) / kTile, col_tiles = (s.n + kTile - 1) / kTile;
  for (long long z = blockIdx.z; z < s.batch; z += gridDim.z) {
    long long oa = 0, ob = 0;
    for (long long d = s.batch_nd - 1, rem = z; d >= 0; --d) {
      const long long n = batch_meta[d], q = rem / n, i = rem - q * n;
      oa += i * batch_meta[s.batch_nd + d];
      ob += i * batch_meta[2 * s.batch_nd + d];
      rem = q;
    }
    T* cz = c + z * s.m * s.n;
    for (long long ti = blockIdx.y; ti < row_tiles; ti += gridDim.y) {
      for (long long tj = blockIdx.x; tj < col_tiles; tj += gridDim.x) {
        const long long row0 = ti * kTile, col0 = tj * kTile;
        Acc acc[kPer][kPer];  // registers: every loop over it is unrolled
#pragma unroll
        for (int i = 0; i < kPer; ++i) {
#pragma unroll
          for (int j = 0; j < kPer; ++j) acc[i][j] = Acc(0);
        }
        for (long long k0 = 0; k0 < s.k; k0 += kDepth) {
#pragma unroll
          for (int l = 0; l < kTile * kDepth / kThreads; ++l) {
            const int e = threadIdx.x + l * kThreads;
            const int r = e / kDepth, kk = e % kDepth;
            const long long gr = row0 + r, gk = k0 + kk;
            as_[kk][r] = gr < s.m && gk < s.k ? a[oa + gr * s.sa0 + gk * s.sa1] : T(0);
          }
#pragma unroll
          for (int l = 0; l < kTile * kDepth / kThreads; ++l) {
            const int e = threadIdx.x + l * kThreads;
            const int kk = e / kTile, col = e % kTile;
            const long long gk = k0 + kk, gc = col0 + col;
            bs_[kk][col] = gk < s.k && gc < s.n ? b[ob + gk * s.sb0 + gc * s.sb1] : T(0);
          }
          __syncthreads();
#pragma unroll
          for (int kk = 0; kk < kDepth; ++kk) {
            T av[kPer], bv[kPer];
#pragma unroll
            for (int i = 0; i < kPer; ++i) av[i] = as_[kk][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < kPer; ++j) bv[j] = bs_[kk][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < kPer; ++i) {
#pragma unroll
              for (int j = 0; j < kPer; ++j) acc[i][j] = Madd<T>::add(acc[i][j], av[i], bv[j]);
            }
          }
          __syncthreads();
        }
#pragma unroll
        for (int i = 0; i < kPer; ++i) {
          const long long r = row0 + ty + 16 * i;
          if (r >= s.m) continue;
#pragma unroll
          for (int j = 0; j < kPer; ++j) {
            const long long col = col0 + tx + 16 * j;
            if (col < s.n) cz[r * s.n + col] = Madd<T>::result(acc[i][j]);
          }
        }
      }
    }
  }
}
