// NumPy's qr(mode='raw'), which the Array API does not have: geqrf's output as NumPy returns it.
// Apart from linalg_decompose.h (and accel.h) because only the bindings call it.
#pragma once
#include "accel/core/array.h"

namespace accel::linalg {

// h (batch..., n, m) is the transpose of LAPACK's column-major m x n result (R above the
// diagonal, the Householder vectors below it); tau (batch..., min(m, n)) the reflectors' scales.
struct QRRawResult {
  Array h, tau;
};
QRRawResult qr_raw(const Array& x);

}  // namespace accel::linalg
