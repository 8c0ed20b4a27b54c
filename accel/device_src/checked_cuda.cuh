// Checked mode on a GPU: the NVRTC build of a checked kernel (backend/cuda/kernel.cpp) starts
// with check_record.h and this. Each pointer parameter of a __global__ function became
// `::accel_simt::Checked<T>` (backend/common/checked_source.h), laid out as the launch packs it:
// {pointer, lo, hi, argument}, as on the CPU (simt_cpu.h). The first access outside [lo, hi) is
// written to accel_check_record and the access goes to a scratch area instead, so the kernel runs
// on without touching memory it does not own (a trap would lose the context, and the record).

__device__ AccelCheckRecord accel_check_record;
__device__ __align__(16) char accel_check_sink[256];

namespace accel_simt {

__device__ __noinline__ void record_index_error(long long arg, long long index, long long size) {
  if (atomicCAS(&accel_check_record.flag, 0u, 1u) != 0u) return;
  accel_check_record.arg = int(arg);
  accel_check_record.index = index;
  accel_check_record.size = size;
  accel_check_record.block[0] = blockIdx.x;
  accel_check_record.block[1] = blockIdx.y;
  accel_check_record.block[2] = blockIdx.z;
  accel_check_record.thread[0] = threadIdx.x;
  accel_check_record.thread[1] = threadIdx.y;
  accel_check_record.thread[2] = threadIdx.z;
  __threadfence();
}

template <class T> struct Checked {
  T* p;
  const char* lo;
  const char* hi;
  long long arg;

  __device__ T& at(long long i) const {
    static_assert(sizeof(T) <= sizeof(accel_check_sink), "checked mode: elements of at most 256 bytes");
    const char* a = reinterpret_cast<const char*>(p + i);
    if (a < lo || a + sizeof(T) > hi) {
      record_index_error(arg, (reinterpret_cast<const char*>(p) - lo) / (long long)sizeof(T) + i,
                         (hi - lo) / (long long)sizeof(T));
      return *reinterpret_cast<T*>(accel_check_sink);
    }
    return p[i];
  }
  template <class I> __device__ T& operator[](I i) const { return at((long long)i); }
  __device__ T& operator*() const { return at(0); }
  __device__ T* operator->() const { return &at(0); }
  __device__ Checked operator+(long long k) const { return {p + k, lo, hi, arg}; }
  __device__ Checked operator-(long long k) const { return {p - k, lo, hi, arg}; }
  __device__ Checked& operator+=(long long k) { p += k; return *this; }
  __device__ Checked& operator-=(long long k) { p -= k; return *this; }
  __device__ Checked& operator++() { ++p; return *this; }
  __device__ Checked& operator--() { --p; return *this; }
  // A pointer again (passed to a __device__ function taking T*): accesses through it are unchecked.
  __device__ operator T*() const { return p; }
  template <class U> __device__ explicit operator U*() const { return reinterpret_cast<U*>(p); }
};

}  // namespace accel_simt
