// CUDA C++ on the CPU, part three (after simt_cpu.h and simt_cpu_block.h): the device functions a
// kernel calls that need no knowledge of how its threads run: assert and printf, fences,
// atomics, the CUDA math API, integer intrinsics and <cuda_fp16.h>'s __half.

// ---- assert, __trap, printf ----
#include <cassert>
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : ::accel_simt::assert_fail(#e, __FILE__, __LINE__))
#endif
[[noreturn]] inline void __trap() { accel_simt::fail(3, "__trap() called"); }
// printf is C's: lines appear as they are printed, not at the next synchronisation.

// ---- memory fences, clocks, loads ----
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
#if defined(__x86_64__)
inline long long clock64() { return (long long)__builtin_ia32_rdtsc(); }
#else
inline long long clock64() { return (long long)__builtin_readcyclecounter(); }
#endif
inline void __nanosleep(unsigned) {}
template <class T> inline T __ldg(const T* p) { return *p; }
template <class T> inline T __ldca(const T* p) { return *p; }
template <class T> inline T __ldcg(const T* p) { return *p; }
template <class T> inline T __ldcs(const T* p) { return *p; }
template <class T> inline T __ldlu(const T* p) { return *p; }
template <class T> inline T __ldcv(const T* p) { return *p; }
template <class T> inline void __stcg(T* p, T v) { *p = v; }
template <class T> inline void __stcs(T* p, T v) { *p = v; }
template <class T> inline void __stwb(T* p, T v) { *p = v; }
template <class T> inline void __stwt(T* p, T v) { *p = v; }

// ---- atomics: relaxed, as CUDA's; floating-point ones through compare-and-swap ----
// Each returns through accel_atomic_done: checked builds tell the race detector that the element
// changed by an atomic (simt_cpu_races.h), which is never a race.
template <class T, class R> inline R accel_atomic_done(T* p, R old) {
#ifdef ACCEL_CHECKED
  accel_simt::races_atomic(p);
#endif
  return old;
}
template <class T> inline T accel_atomic_cas_update(T* p, T (*f)(T, T), T v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 2, "atomic of an unsupported size");
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  for (;;) {
    T next = f(old, v);
    if (__atomic_compare_exchange(p, &old, &next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return accel_atomic_done(p, old);
  }
}
#define ACCEL_ATOMIC_INT(T)                                                                               \
  inline T atomicAdd(T* p, T v) { return accel_atomic_done(p, __atomic_fetch_add(p, v, __ATOMIC_RELAXED)); }                   \
  inline T atomicSub(T* p, T v) { return accel_atomic_done(p, __atomic_fetch_sub(p, v, __ATOMIC_RELAXED)); }                   \
  inline T atomicExch(T* p, T v) { return accel_atomic_done(p, __atomic_exchange_n(p, v, __ATOMIC_RELAXED)); }                 \
  inline T atomicAnd(T* p, T v) { return accel_atomic_done(p, __atomic_fetch_and(p, v, __ATOMIC_RELAXED)); }                   \
  inline T atomicOr(T* p, T v) { return accel_atomic_done(p, __atomic_fetch_or(p, v, __ATOMIC_RELAXED)); }                     \
  inline T atomicXor(T* p, T v) { return accel_atomic_done(p, __atomic_fetch_xor(p, v, __ATOMIC_RELAXED)); }                   \
  inline T atomicMin(T* p, T v) { return accel_atomic_cas_update<T>(p, [](T a, T b) { return b < a ? b : a; }, v); } \
  inline T atomicMax(T* p, T v) { return accel_atomic_cas_update<T>(p, [](T a, T b) { return b > a ? b : a; }, v); } \
  inline T atomicCAS(T* p, T compare, T v) {                                                              \
    __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);               \
    return accel_atomic_done(p, compare);                                                                                       \
  }
ACCEL_ATOMIC_INT(int)
ACCEL_ATOMIC_INT(unsigned int)
ACCEL_ATOMIC_INT(long long)
ACCEL_ATOMIC_INT(unsigned long long)
#undef ACCEL_ATOMIC_INT
inline unsigned short atomicCAS(unsigned short* p, unsigned short compare, unsigned short v) {
  __atomic_compare_exchange_n(p, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return accel_atomic_done(p, compare);
}
// CUDA's wrapping counters: inc goes back to 0 past `limit`, dec to `limit` below 1.
inline unsigned atomicInc(unsigned* p, unsigned limit) {
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), next;
  do next = old >= limit ? 0 : old + 1;
  while (!__atomic_compare_exchange_n(p, &old, next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return accel_atomic_done(p, old);
}
inline unsigned atomicDec(unsigned* p, unsigned limit) {
  unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), next;
  do next = (old == 0 || old > limit) ? limit : old - 1;
  while (!__atomic_compare_exchange_n(p, &old, next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return accel_atomic_done(p, old);
}
inline float atomicAdd(float* p, float v) { return accel_atomic_cas_update<float>(p, [](float a, float b) { return a + b; }, v); }
inline double atomicAdd(double* p, double v) { return accel_atomic_cas_update<double>(p, [](double a, double b) { return a + b; }, v); }
inline float atomicExch(float* p, float v) {
  float old;
  __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);
  return accel_atomic_done(p, old);
}
#define ACCEL_ATOMIC_SCOPES(name)                                                          \
  template <class T, class... A> inline auto name##_block(T* p, A... a) { return name(p, a...); } \
  template <class T, class... A> inline auto name##_system(T* p, A... a) { return name(p, a...); }
ACCEL_ATOMIC_SCOPES(atomicAdd) ACCEL_ATOMIC_SCOPES(atomicSub) ACCEL_ATOMIC_SCOPES(atomicExch)
ACCEL_ATOMIC_SCOPES(atomicMin) ACCEL_ATOMIC_SCOPES(atomicMax) ACCEL_ATOMIC_SCOPES(atomicInc)
ACCEL_ATOMIC_SCOPES(atomicDec) ACCEL_ATOMIC_SCOPES(atomicCAS) ACCEL_ATOMIC_SCOPES(atomicAnd)
ACCEL_ATOMIC_SCOPES(atomicOr) ACCEL_ATOMIC_SCOPES(atomicXor)
#undef ACCEL_ATOMIC_SCOPES

// ---- the CUDA math API beyond C's <math.h> ----
#define ACCEL_MINMAX(T)                                   \
  inline T min(T a, T b) { return b < a ? b : a; }        \
  inline T max(T a, T b) { return a < b ? b : a; }
ACCEL_MINMAX(int) ACCEL_MINMAX(unsigned int) ACCEL_MINMAX(long) ACCEL_MINMAX(unsigned long)
ACCEL_MINMAX(long long) ACCEL_MINMAX(unsigned long long)
#undef ACCEL_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
// Mixed arguments: CUDA's overloads take the usual arithmetic conversions.
template <class A, class B> inline auto min(A a, B b) -> decltype(a + b) { return min(decltype(a + b)(a), decltype(a + b)(b)); }
template <class A, class B> inline auto max(A a, B b) -> decltype(a + b) { return max(decltype(a + b)(a), decltype(a + b)(b)); }
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline float sinpif(float x) { return sinf(float(M_PI) * x); }
inline float cospif(float x) { return cosf(float(M_PI) * x); }
inline double sinpi(double x) { return sin(M_PI * x); }
inline double cospi(double x) { return cos(M_PI * x); }
inline float normcdff(float x) { return 0.5f * erfcf(-x * float(M_SQRT1_2)); }
inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
inline float saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }
inline float __saturatef(float x) { return saturatef(x); }
inline float fdividef(float a, float b) { return a / b; }
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
inline float __powf(float a, float b) { return powf(a, b); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return sqrt(x); }

// ---- integer intrinsics and bit casts ----
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev(unsigned(x)) << 32) | __brev(unsigned(x >> 32));
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= unsigned((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
inline int __mul24(int a, int b) { return int((long long)((a << 8) >> 8) * ((b << 8) >> 8)); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return int(((long long)a * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) { return unsigned(((unsigned long long)a * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline unsigned __sad(int a, int b, unsigned c) { return (a > b ? unsigned(a - b) : unsigned(b - a)) + c; }
inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return (a > b ? a - b : b - a) + c; }
inline int __hadd(int a, int b) { return int(((long long)a + b) >> 1); }
inline int __rhadd(int a, int b) { return int(((long long)a + b + 1) >> 1); }
inline unsigned __uhadd(unsigned a, unsigned b) { return unsigned(((unsigned long long)a + b) >> 1); }
inline unsigned __urhadd(unsigned a, unsigned b) { return unsigned(((unsigned long long)a + b + 1) >> 1); }
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s) {
  return unsigned(((((unsigned long long)hi << 32) | lo) << (s & 31)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) {
  return unsigned(((((unsigned long long)hi << 32) | lo) >> (s & 31)));
}
inline float __int_as_float(int x) { return accel_from_bits<float>((unsigned)x); }
inline int __float_as_int(float x) { return int(unsigned(accel_bits(x))); }
inline float __uint_as_float(unsigned x) { return accel_from_bits<float>(x); }
inline unsigned __float_as_uint(float x) { return unsigned(accel_bits(x)); }
inline double __longlong_as_double(long long x) { return accel_from_bits<double>((unsigned long long)x); }
inline long long __double_as_longlong(double x) { return (long long)accel_bits(x); }
// Conversions with CUDA's rounding suffixes: rn nearest even, rz toward zero, ru up, rd down.
#define ACCEL_F2I(T, name, R)                                                 \
  inline T name##_rn(R x) { return (T)nearbyint(x); }                          \
  inline T name##_rz(R x) { return (T)trunc(x); }                              \
  inline T name##_ru(R x) { return (T)ceil(x); }                               \
  inline T name##_rd(R x) { return (T)floor(x); }
ACCEL_F2I(int, __float2int, float) ACCEL_F2I(unsigned, __float2uint, float)
ACCEL_F2I(long long, __float2ll, float) ACCEL_F2I(unsigned long long, __float2ull, float)
ACCEL_F2I(int, __double2int, double) ACCEL_F2I(unsigned, __double2uint, double)
ACCEL_F2I(long long, __double2ll, double) ACCEL_F2I(unsigned long long, __double2ull, double)
#undef ACCEL_F2I
inline float __int2float_rn(int x) { return float(x); }
inline float __uint2float_rn(unsigned x) { return float(x); }
inline float __ll2float_rn(long long x) { return float(x); }
inline double __int2double_rn(int x) { return double(x); }
inline double __ll2double_rn(long long x) { return double(x); }
inline float __double2float_rn(double x) { return float(x); }

// ---- <cuda_fp16.h>: __half as the compiler's _Float16, arithmetic through float ----
struct __half {
  _Float16 v;
  __half() = default;
  __half(float f) : v(static_cast<_Float16>(f)) {}
  __half(double f) : v(static_cast<_Float16>(f)) {}
  __half(int i) : v(static_cast<_Float16>(float(i))) {}
  operator float() const { return float(v); }
};
struct __half2 {
  __half x, y;
};
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return float(h.v); }
inline __half __double2half(double d) { return __half(d); }
inline __half __int2half_rn(int i) { return __half(float(i)); }
inline int __half2int_rn(__half h) { return int(nearbyintf(float(h))); }
inline int __half2int_rz(__half h) { return int(float(h)); }
inline __half2 __floats2half2_rn(float a, float b) { return {__half(a), __half(b)}; }
inline __half2 __float2half2_rn(float a) { return {__half(a), __half(a)}; }
inline __half2 __halves2half2(__half a, __half b) { return {a, b}; }
inline float __low2float(__half2 h) { return float(h.x); }
inline float __high2float(__half2 h) { return float(h.y); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half __hadd(__half a, __half b) { return __half(float(a) + float(b)); }
inline __half __hsub(__half a, __half b) { return __half(float(a) - float(b)); }
inline __half __hmul(__half a, __half b) { return __half(float(a) * float(b)); }
inline __half __hdiv(__half a, __half b) { return __half(float(a) / float(b)); }
inline __half __hneg(__half a) { return __half(-float(a)); }
inline __half __habs(__half a) { return __half(fabsf(float(a))); }
inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf(float(a), float(b), float(c))); }
inline __half __hmax(__half a, __half b) { return __half(fmaxf(float(a), float(b))); }
inline __half __hmin(__half a, __half b) { return __half(fminf(float(a), float(b))); }
inline bool __heq(__half a, __half b) { return float(a) == float(b); }
inline bool __hne(__half a, __half b) { return float(a) != float(b); }
inline bool __hlt(__half a, __half b) { return float(a) < float(b); }
inline bool __hle(__half a, __half b) { return float(a) <= float(b); }
inline bool __hgt(__half a, __half b) { return float(a) > float(b); }
inline bool __hge(__half a, __half b) { return float(a) >= float(b); }
inline bool __hisnan(__half a) { return float(a) != float(a); }
inline bool __hisinf(__half a) { return isinf(float(a)); }
inline __half hsqrt(__half a) { return __half(sqrtf(float(a))); }
inline __half hrsqrt(__half a) { return __half(1.0f / sqrtf(float(a))); }
inline __half hexp(__half a) { return __half(expf(float(a))); }
inline __half hlog(__half a) { return __half(logf(float(a))); }
inline __half hsin(__half a) { return __half(sinf(float(a))); }
inline __half hcos(__half a) { return __half(cosf(float(a))); }
inline __half hfloor(__half a) { return __half(floorf(float(a))); }
inline __half hceil(__half a) { return __half(ceilf(float(a))); }
inline __half2 __hadd2(__half2 a, __half2 b) { return {__hadd(a.x, b.x), __hadd(a.y, b.y)}; }
inline __half2 __hmul2(__half2 a, __half2 b) { return {__hmul(a.x, b.x), __hmul(a.y, b.y)}; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
#define ACCEL_HALF_OP(op)                                                                         \
  inline __half operator op(__half a, __half b) { return __half(float(a) op float(b)); }          \
  inline __half& operator op##=(__half& a, __half b) { return a = __half(float(a) op float(b)); }
ACCEL_HALF_OP(+) ACCEL_HALF_OP(-) ACCEL_HALF_OP(*) ACCEL_HALF_OP(/)
#undef ACCEL_HALF_OP
inline __half operator-(__half a) { return __hneg(a); }
#define ACCEL_HALF_CMP(op) inline bool operator op(__half a, __half b) { return float(a) op float(b); }
ACCEL_HALF_CMP(==) ACCEL_HALF_CMP(!=) ACCEL_HALF_CMP(<) ACCEL_HALF_CMP(<=) ACCEL_HALF_CMP(>) ACCEL_HALF_CMP(>=)
#undef ACCEL_HALF_CMP
typedef __half half;
typedef __half2 half2;
