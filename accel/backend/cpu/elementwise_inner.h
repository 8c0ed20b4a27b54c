// The inner-loop templates behind elementwise_loops.h; included only by the table sources.
#pragma once
#include <cstdint>
#include <utility>

#include "accel/backend/cpu/strided_loop.h"
#include "accel/backend/cpu/vector_math.h"
#include "accel/device_src/scalar_ops.h"

namespace accel::cpu {

template <class Op, class T, int N> struct Inner;

template <class Op, class T> struct Inner<Op, T, 1> {
  using R = decltype(Op::apply(std::declval<T>()));
  static void run(char* const* p, const int64_t* s, int64_t n) {
    if (s[0] == sizeof(T) && s[1] == sizeof(R)) {
      const T* __restrict a = reinterpret_cast<const T*>(p[0]);
      R* __restrict o = reinterpret_cast<R*>(p[1]);
      if constexpr (VectorMath<Op, T>::available) {
        VectorMath<Op, T>::run(a, o, n);
        return;
      }
      for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[i]);
      return;
    }
    char* a = p[0];
    char* o = p[1];
    for (int64_t i = 0; i < n; ++i, a += s[0], o += s[1])
      *reinterpret_cast<R*>(o) = Op::apply(*reinterpret_cast<const T*>(a));
  }
};

template <class Op, class T> struct Inner<Op, T, 2> {
  using R = decltype(Op::apply(std::declval<T>(), std::declval<T>()));
  static void run(char* const* p, const int64_t* s, int64_t n) {
    R* __restrict o = reinterpret_cast<R*>(p[2]);
    if (s[2] == sizeof(R)) {
      if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
        const T* __restrict a = reinterpret_cast<const T*>(p[0]);
        const T* __restrict b = reinterpret_cast<const T*>(p[1]);
        for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[i], b[i]);
        return;
      }
      if (s[0] == sizeof(T) && s[1] == 0) {
        const T* __restrict a = reinterpret_cast<const T*>(p[0]);
        const T b = *reinterpret_cast<const T*>(p[1]);
        for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[i], b);
        return;
      }
      if (s[0] == 0 && s[1] == sizeof(T)) {
        const T a = *reinterpret_cast<const T*>(p[0]);
        const T* __restrict b = reinterpret_cast<const T*>(p[1]);
        for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a, b[i]);
        return;
      }
    }
    char* a = p[0];
    char* b = p[1];
    char* out = p[2];
    for (int64_t i = 0; i < n; ++i, a += s[0], b += s[1], out += s[2])
      *reinterpret_cast<R*>(out) =
          Op::apply(*reinterpret_cast<const T*>(a), *reinterpret_cast<const T*>(b));
  }
};

template <class Op, class T> struct Inner<Op, T, 3> {
  using R = decltype(Op::apply(std::declval<T>(), std::declval<T>(), std::declval<T>()));
  static void run(char* const* p, const int64_t* s, int64_t n) {
    char* a = p[0];
    char* b = p[1];
    char* c = p[2];
    char* out = p[3];
    for (int64_t i = 0; i < n; ++i, a += s[0], b += s[1], c += s[2], out += s[3])
      *reinterpret_cast<R*>(out) = Op::apply(*reinterpret_cast<const T*>(a),
                                             *reinterpret_cast<const T*>(b),
                                             *reinterpret_cast<const T*>(c));
  }
};

template <class From, class To> struct CastInner {
  static void run(char* const* p, const int64_t* s, int64_t n) {
    if (s[0] == sizeof(From) && s[1] == sizeof(To)) {
      const From* __restrict a = reinterpret_cast<const From*>(p[0]);
      To* __restrict o = reinterpret_cast<To*>(p[1]);
      for (int64_t i = 0; i < n; ++i) o[i] = scalar::convert<To>(a[i]);
      return;
    }
    char* a = p[0];
    char* o = p[1];
    for (int64_t i = 0; i < n; ++i, a += s[0], o += s[1])
      *reinterpret_cast<To*>(o) = scalar::convert<To>(*reinterpret_cast<const From*>(a));
  }
};

}  // namespace accel::cpu
