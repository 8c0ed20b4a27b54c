// The butterflies and Stockham passes of accel's FFT. Complex products are written out by hand:
// std::complex's operator* checks for NaN/inf and calls __mulsc3 (Annex G), which would cost more
// than the whole butterfly; the transform's NaN and inf follow plain IEEE arithmetic instead.
#include "accel/backend/cpu/fft_kernels.h"

#include <cmath>

namespace accel::cpu::fft {
namespace {

template <class T> using C = std::complex<T>;

template <class T> inline C<T> mul(C<T> a, C<T> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
// a * conj(b): the backward transform uses the conjugate twiddles of the same table.
template <class T> inline C<T> mul_conj(C<T> a, C<T> b) {
  return {a.real() * b.real() + a.imag() * b.imag(), a.imag() * b.real() - a.real() * b.imag()};
}
template <class T> inline C<T> scale(C<T> a, T f) { return {a.real() * f, a.imag() * f}; }
// a * (-i) forward, a * (+i) backward: the quarter-turn root in the transform's direction.
template <bool Fwd, class T> inline C<T> quarter(C<T> a) {
  return Fwd ? C<T>{a.imag(), -a.real()} : C<T>{-a.imag(), a.real()};
}

// In-place DFT of length P on a[0, P) in the direction Fwd.
template <class T, bool Fwd, int P> struct Butterfly;

template <class T, bool Fwd> struct Butterfly<T, Fwd, 2> {
  void operator()(C<T>* a) const {
    const C<T> d = a[0] - a[1];
    a[0] += a[1];
    a[1] = d;
  }
};

template <class T, bool Fwd> struct Butterfly<T, Fwd, 3> {
  void operator()(C<T>* a) const {
    const T h = static_cast<T>(0.86602540378443864676);  // sin(2 pi / 3)
    const C<T> t = a[1] + a[2];
    const C<T> m = a[0] - scale(t, T(0.5));
    const C<T> u = scale(quarter<Fwd>(a[1] - a[2]), h);
    a[0] += t;
    a[1] = m + u;
    a[2] = m - u;
  }
};

template <class T, bool Fwd> struct Butterfly<T, Fwd, 4> {
  void operator()(C<T>* a) const {
    const C<T> t0 = a[0] + a[2], t1 = a[0] - a[2];
    const C<T> t2 = a[1] + a[3], t3 = quarter<Fwd>(a[1] - a[3]);
    a[0] = t0 + t2;
    a[2] = t0 - t2;
    a[1] = t1 + t3;
    a[3] = t1 - t3;
  }
};

template <class T, bool Fwd> struct Butterfly<T, Fwd, 5> {
  void operator()(C<T>* a) const {
    const T c1 = static_cast<T>(0.30901699437494742410);   // cos(2 pi / 5)
    const T c2 = static_cast<T>(-0.80901699437494742410);  // cos(4 pi / 5)
    const T s1 = static_cast<T>(0.95105651629515357212);   // sin(2 pi / 5)
    const T s2 = static_cast<T>(0.58778525229247312917);   // sin(4 pi / 5)
    const C<T> t1 = a[1] + a[4], t2 = a[2] + a[3];
    const C<T> u1 = a[1] - a[4], u2 = a[2] - a[3];
    const C<T> m1 = a[0] + scale(t1, c1) + scale(t2, c2);
    const C<T> m2 = a[0] + scale(t1, c2) + scale(t2, c1);
    const C<T> n1 = quarter<Fwd>(scale(u1, s1) + scale(u2, s2));
    const C<T> n2 = quarter<Fwd>(scale(u1, s2) - scale(u2, s1));
    a[0] += t1 + t2;
    a[1] = m1 + n1;
    a[4] = m1 - n1;
    a[2] = m2 + n2;
    a[3] = m2 - n2;
  }
};

// Any odd prime p <= kMaxGenericRadix: pairs k, p - k share a cosine and an opposite sine, so
// b_r = a_0 + sum_k (a_k + a_{p-k}) cos(2 pi rk/p) -/+ i sum_k (a_k - a_{p-k}) sin(2 pi rk/p).
// `cs` holds cos and sin of 2 pi idx/p at 2 idx and 2 idx + 1.
template <class T, bool Fwd> struct GenericButterfly {
  int p;
  const T* cs;
  void operator()(C<T>* a) const {
    const int h = (p - 1) / 2;
    C<T> t[kMaxGenericRadix / 2 + 1], u[kMaxGenericRadix / 2 + 1], b[kMaxGenericRadix];
    C<T> b0 = a[0];
    for (int k = 1; k <= h; ++k) {
      t[k] = a[k] + a[p - k];
      u[k] = a[k] - a[p - k];
      b0 += t[k];
    }
    for (int r = 1; r <= h; ++r) {
      C<T> re = a[0], im{};
      int idx = 0;
      for (int k = 1; k <= h; ++k) {
        idx += r;
        if (idx >= p) idx -= p;
        re += scale(t[k], cs[2 * idx]);
        im += scale(u[k], cs[2 * idx + 1]);
      }
      im = quarter<Fwd>(im);
      b[r] = re + im;
      b[p - r] = re - im;
    }
    a[0] = b0;
    for (int r = 1; r < p; ++r) a[r] = b[r];
  }
};

// P > 0 fixes the radix at compile time (the loops over k and r unroll); P == 0 is the generic
// butterfly with stage.radix. The j == 0 column has unit twiddles and skips the products.
template <class T, bool Fwd, int P, class B>
void pass(const Stage& st, const C<T>* tw, const C<T>* x, C<T>* y, const B& butterfly) {
  const int p = P > 0 ? P : st.radix;
  const int64_t m = st.m, s = st.stride;
  C<T> a[P > 0 ? P : kMaxGenericRadix];
  for (int64_t q = 0; q < s; ++q) {
    for (int k = 0; k < p; ++k) a[k] = x[q + s * k * m];
    butterfly(a);
    for (int r = 0; r < p; ++r) y[q + s * r] = a[r];
  }
  for (int64_t j = 1; j < m; ++j) {
    const C<T>* w = tw + j * (p - 1);
    const C<T>* in = x + s * j;
    C<T>* out = y + s * p * j;
    for (int64_t q = 0; q < s; ++q) {
      for (int k = 0; k < p; ++k) a[k] = in[q + s * k * m];
      butterfly(a);
      out[q] = a[0];
      for (int r = 1; r < p; ++r)
        out[q + s * r] = Fwd ? mul(a[r], w[r - 1]) : mul_conj(a[r], w[r - 1]);
    }
  }
}

template <class T, bool Fwd>
void run_pass_in(const Stage& st, const C<T>* tw, const T* generic, const C<T>* x, C<T>* y) {
  switch (st.radix) {
    case 2: return pass<T, Fwd, 2>(st, tw, x, y, Butterfly<T, Fwd, 2>{});
    case 3: return pass<T, Fwd, 3>(st, tw, x, y, Butterfly<T, Fwd, 3>{});
    case 4: return pass<T, Fwd, 4>(st, tw, x, y, Butterfly<T, Fwd, 4>{});
    case 5: return pass<T, Fwd, 5>(st, tw, x, y, Butterfly<T, Fwd, 5>{});
    default:
      return pass<T, Fwd, 0>(st, tw, x, y, GenericButterfly<T, Fwd>{st.radix, generic});
  }
}

}  // namespace

template <class T>
void run_pass(const Stage& stage, const std::complex<T>* twiddles, const T* generic,
              const std::complex<T>* x, std::complex<T>* y, bool forward) {
  if (forward) run_pass_in<T, true>(stage, twiddles, generic, x, y);
  else run_pass_in<T, false>(stage, twiddles, generic, x, y);
}

template void run_pass<float>(const Stage&, const std::complex<float>*, const float*,
                              const std::complex<float>*, std::complex<float>*, bool);
template void run_pass<double>(const Stage&, const std::complex<double>*, const double*,
                               const std::complex<double>*, std::complex<double>*, bool);

}  // namespace accel::cpu::fft
