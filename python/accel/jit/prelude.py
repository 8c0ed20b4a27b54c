"""C++ helpers every generated kernel starts with: Python's integer semantics and atomics that
CUDA lacks, written once for both compilers (the CPU's SIMT prelude and NVRTC)."""

PRELUDE = r"""
// ---- accel.jit helpers: Python/NumPy semantics C++ does not have ----
#define ACCEL_JIT_INF (1e308 * 10.0)
#define ACCEL_JIT_NAN (ACCEL_JIT_INF * 0.0)
// A negative index counts from the end of its axis (NumPy, Numba).
__device__ __forceinline__ long long accel_jit_wrap(long long i, long long n) { return i < 0 ? i + n : i; }
template <class T> __device__ __forceinline__ T accel_jit_floordiv(T a, T b) {
  if constexpr (sizeof(T) <= 8 && (T)0.5 == 0) {  // integers: floor, and 0 for b == 0 (NumPy)
    if (b == 0) return 0;
    if constexpr ((T)-1 < 0) {
      if (b == (T)-1) return (T)(0ull - (unsigned long long)a);  // MIN // -1 wraps, as NumPy
      T q = a / b;
      return (a % b != 0 && ((a < 0) != (b < 0))) ? (T)(q - 1) : q;
    } else {
      return a / b;
    }
  } else {  // NumPy's npy_floor_divide
    if (b == 0) return a / b;
    T mod = sizeof(T) == 4 ? fmodf(a, b) : fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
    if (div != 0) {
      T fl = sizeof(T) == 4 ? floorf(div) : floor(div);
      return div - fl > (T)0.5 ? fl + 1 : fl;
    }
    return sizeof(T) == 4 ? copysignf(0, a / b) : copysign(0.0, a / b);
  }
}
template <class T> __device__ __forceinline__ T accel_jit_mod(T a, T b) {
  if constexpr ((T)0.5 == 0) {  // integers: the sign of b, and 0 for b == 0 (NumPy)
    if (b == 0) return 0;
    if constexpr ((T)-1 < 0) {
      if (b == (T)-1) return 0;
      T r = a % b;
      return (r != 0 && ((r < 0) != (b < 0))) ? (T)(r + b) : r;
    } else {
      return a % b;
    }
  } else {  // NumPy's npy_remainder
    if (b == 0) return sizeof(T) == 4 ? fmodf(a, b) : fmod(a, b);
    T mod = sizeof(T) == 4 ? fmodf(a, b) : fmod(a, b);
    if (mod != 0) return ((b < 0) != (mod < 0)) ? mod + b : mod;
    return sizeof(T) == 4 ? copysignf(0, b) : copysign(0.0, b);
  }
}
// Integer powers by squaring; a negative exponent gives 1/a truncated (1, -1 or 0).
template <class T> __device__ __forceinline__ T accel_jit_ipow(T a, T e) {
  if constexpr ((T)-1 < 0) {
    if (e < 0) return a == 1 ? (T)1 : (a == (T)-1 ? ((e & 1) ? (T)-1 : (T)1) : (T)0);
  }
  T r = 1;
  while (e) {
    if (e & 1) r = (T)(r * a);
    a = (T)(a * a);
    e = (T)(e >> 1);
  }
  return r;
}
// NumPy's shifts: a count past the width gives 0 (or -1 for a negative value shifted right).
template <class T> __device__ __forceinline__ T accel_jit_lshift(T a, T b) {
  return (b < 0 || b >= (T)(8 * sizeof(T))) ? (T)0 : (T)(a << b);
}
template <class T> __device__ __forceinline__ T accel_jit_rshift(T a, T b) {
  return (b < 0 || b >= (T)(8 * sizeof(T))) ? (a < 0 ? (T)-1 : (T)0) : (T)(a >> b);
}
// complex64/complex128: the layout of NumPy's, arithmetic as NumPy's (Smith's division).
template <class T> struct accel_jit_complex {
  typedef accel_jit_complex C;
  T re, im;
  __device__ accel_jit_complex() : re(0), im(0) {}
  __device__ accel_jit_complex(T r, T i = 0) : re(r), im(i) {}
  template <class U> __device__ explicit accel_jit_complex(const accel_jit_complex<U>& o)
      : re((T)o.re), im((T)o.im) {}
#define ACCEL_JIT_TO(U) __device__ explicit operator U() const { return (U)re; }
  ACCEL_JIT_TO(bool) ACCEL_JIT_TO(signed char) ACCEL_JIT_TO(short) ACCEL_JIT_TO(int)
  ACCEL_JIT_TO(long long) ACCEL_JIT_TO(unsigned char) ACCEL_JIT_TO(unsigned short)
  ACCEL_JIT_TO(unsigned int) ACCEL_JIT_TO(unsigned long long) ACCEL_JIT_TO(float)
  ACCEL_JIT_TO(double)
#undef ACCEL_JIT_TO
  friend __device__ C operator+(const C& a, const C& b) { return C(a.re + b.re, a.im + b.im); }
  friend __device__ C operator-(const C& a, const C& b) { return C(a.re - b.re, a.im - b.im); }
  friend __device__ C operator-(const C& a) { return C(-a.re, -a.im); }
  friend __device__ C operator*(const C& a, const C& b) {
    return C(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
  }
  friend __device__ C operator/(const C& a, const C& b) {
    const T abr = b.re < 0 ? -b.re : b.re, abi = b.im < 0 ? -b.im : b.im;
    if (abr >= abi) {
      if (abr == 0 && abi == 0) return C(a.re / abr, a.im / abi);
      const T rat = b.im / b.re, scl = T(1) / (b.re + b.im * rat);
      return C((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
    }
    const T rat = b.re / b.im, scl = T(1) / (b.im + b.re * rat);
    return C((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
  }
  friend __device__ bool operator==(const C& a, const C& b) { return a.re == b.re && a.im == b.im; }
  friend __device__ bool operator!=(const C& a, const C& b) { return !(a == b); }
};
template <class T> __device__ __forceinline__ T accel_jit_abs(accel_jit_complex<T> a) {
  return sizeof(T) == 4 ? hypotf(a.re, a.im) : hypot(a.re, a.im);
}
template <class T> __device__ __forceinline__ accel_jit_complex<T> accel_jit_conj(accel_jit_complex<T> a) {
  return accel_jit_complex<T>(a.re, -a.im);
}

// Python's min and max: the first of equal values, NaN where Python's comparisons give it.
template <class T> __device__ __forceinline__ T accel_jit_min(T a, T b) { return b < a ? b : a; }
template <class T> __device__ __forceinline__ T accel_jit_max(T a, T b) { return b > a ? b : a; }
template <class T> __device__ __forceinline__ T accel_jit_abs(T a) { return a < 0 ? (T)(0 - a) : a; }
__device__ __forceinline__ float accel_jit_abs(float a) { return fabsf(a); }
__device__ __forceinline__ double accel_jit_abs(double a) { return fabs(a); }

"""

# Only kernels (the SIMT runtime, NVRTC) have atomics; vectorize/reduce run as templates.
ATOMICS = r"""
// ---- atomics: CUDA's own where it has them, else a compare-and-swap loop on the bits ----
template <class T> struct accel_jit_word { typedef unsigned int type; };
template <> struct accel_jit_word<double> { typedef unsigned long long type; };
template <> struct accel_jit_word<long long> { typedef unsigned long long type; };
template <> struct accel_jit_word<unsigned long long> { typedef unsigned long long type; };
// Bit casts through CUDA's intrinsics (NVRTC has no memcpy without headers).
__device__ __forceinline__ unsigned int accel_jit_to_word(float v) { return (unsigned)__float_as_int(v); }
__device__ __forceinline__ unsigned long long accel_jit_to_word(double v) { return (unsigned long long)__double_as_longlong(v); }
__device__ __forceinline__ unsigned int accel_jit_to_word(int v) { return (unsigned)v; }
__device__ __forceinline__ unsigned int accel_jit_to_word(unsigned int v) { return v; }
__device__ __forceinline__ unsigned long long accel_jit_to_word(long long v) { return (unsigned long long)v; }
__device__ __forceinline__ unsigned long long accel_jit_to_word(unsigned long long v) { return v; }
template <class T, class W> __device__ __forceinline__ T accel_jit_from_word(W w) {
  if constexpr ((T)0.5 == 0) return (T)w;
  else if constexpr (sizeof(T) == 4) return __int_as_float((int)w);
  else return __longlong_as_double((long long)w);
}
template <class T, class F> __device__ __forceinline__ T accel_jit_atomic_update(T* p, F f) {
  typedef typename accel_jit_word<T>::type W;
  W* w = (W*)p;
  W old = *(volatile W*)w, seen;
  do {
    seen = old;
    old = atomicCAS(w, seen, accel_jit_to_word(f(accel_jit_from_word<T, W>(seen))));
  } while (old != seen);
  return accel_jit_from_word<T, W>(old);
}
template <class T> __device__ __forceinline__ T accel_jit_atomic_add(T* p, T v) {
  if constexpr (sizeof(T) == 8 && (T)0.5 == 0)
    return (T)atomicAdd((unsigned long long*)p, (unsigned long long)v);
  else
    return atomicAdd(p, v);
}
template <class T> __device__ __forceinline__ T accel_jit_atomic_sub(T* p, T v) {
  if constexpr ((T)0.5 != 0) return atomicAdd(p, -v);
  else if constexpr (sizeof(T) == 8)
    return (T)atomicAdd((unsigned long long*)p, 0ull - (unsigned long long)v);
  else return atomicSub(p, v);
}
template <class T> __device__ __forceinline__ T accel_jit_atomic_max(T* p, T v) {
  if constexpr ((T)0.5 != 0) return accel_jit_atomic_update(p, [v](T a) { return v > a ? v : a; });
  else return atomicMax(p, v);
}
template <class T> __device__ __forceinline__ T accel_jit_atomic_min(T* p, T v) {
  if constexpr ((T)0.5 != 0) return accel_jit_atomic_update(p, [v](T a) { return v < a ? v : a; });
  else return atomicMin(p, v);
}
template <class T> __device__ __forceinline__ T accel_jit_atomic_exch(T* p, T v) {
  return accel_jit_atomic_update(p, [v](T) { return v; });
}
template <class T> __device__ __forceinline__ T accel_jit_atomic_cas(T* p, T cmp, T v) {
  typedef typename accel_jit_word<T>::type W;
  return accel_jit_from_word<T, W>(atomicCAS((W*)p, accel_jit_to_word(cmp),
                                             accel_jit_to_word(v)));
}
"""

# Checked builds: each index is checked against its axis; the assert names the Python line.
CHECKED = r"""
#if defined(__CUDACC_RTC__) && !defined(assert)
extern "C" __device__ void __assertfail(const char*, const char*, unsigned, const char*,
                                        decltype(sizeof(0)));
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, 1))
#endif
#define ACCEL_JIT_CHECK(i, n, what) \
  ([&]() { const long long accel_i = (i); assert(accel_i >= 0 && accel_i < (n) && what); \
           return accel_i; }())
"""
ASSERT = CHECKED.split("#define ACCEL_JIT_CHECK")[0]
