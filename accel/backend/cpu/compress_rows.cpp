// x[mask] on the CPU in two passes over the same chunks of rows: count each chunk's picked rows,
// then each chunk copies its rows at its prefix-sum offset (threads never share an output
// row). nonzero + gather (the Backend default, kept for rows that are not contiguous) writes an
// int64 index array and walks it again: three arrays made for one result, most of the time of
// `x[x > 0]` on a few elements, and twice the memory traffic on many.
#include <algorithm>
#include <cstring>

#include "accel/backend/cpu/cpu_backend.h"
#include "accel/backend/cpu/thread_pool.h"

namespace accel::cpu {
namespace {

// Bytes of x per chunk at least: below two of them one thread does it all.
constexpr int64_t kChunkBytes = 256 * 1024;
constexpr int64_t kMaxChunks = 64;

// True when each row x[i] is C-contiguous (axes 1.. at their C strides; size-1 axes may have
// any stride): a row is then one block of bytes.
bool rows_contiguous(const Array& x) {
  int64_t expected = 1;
  for (int d = x.ndim() - 1; d >= 1; --d) {
    if (x.shape()[d] != 1 && x.strides()[d] != expected) return false;
    expected *= x.shape()[d];
  }
  return true;
}

// Copies the picked rows of `row_bytes` each. Rows of a compile-time size are copied without a
// branch (every row is written at the next free slot, which advances only past picked ones: a
// mask of random values mispredicts half its branches); the last picked row ends that loop, so
// no write lands past the output.
template <size_t kBytes>
void copy_rows(const char* src, int64_t src_step, const unsigned char* m, int64_t m_step,
               int64_t rows, size_t row_bytes, char* dst) {
  if constexpr (kBytes == 0) {
    for (int64_t i = 0; i < rows; ++i, src += src_step, m += m_step) {
      if (!*m) continue;
      std::memcpy(dst, src, row_bytes);
      dst += row_bytes;
    }
  } else {
    int64_t last = rows - 1;  // a picked row exists (the caller counted at least one)
    while (!m[last * m_step]) --last;
    for (int64_t i = 0; i < last; ++i, src += src_step, m += m_step) {
      std::memcpy(dst, src, kBytes);
      dst += (*m != 0) * kBytes;
    }
    std::memcpy(dst, src, kBytes);
  }
}

}  // namespace

Array CpuBackend::compress_rows(const Array& x, const Array& mask) {
  if (!rows_contiguous(x)) return Backend::compress_rows(x, mask);
  const int64_t rows = x.shape()[0];
  const auto* m = static_cast<const unsigned char*>(mask.data());
  const int64_t m_step = mask.strides()[0];  // bool: one byte per element
  const int64_t bytes = static_cast<int64_t>(x.nbytes());
  const int64_t chunks = bytes < 2 * kChunkBytes
                             ? 1
                             : std::min({int64_t{num_threads()}, bytes / kChunkBytes, kMaxChunks});
  auto chunk_begin = [&](int64_t c) { return rows * c / chunks; };
  int64_t counts[kMaxChunks + 1] = {};  // counts[c + 1]: picked rows of chunks 0..c
  parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      int64_t count = 0;
      for (int64_t i = chunk_begin(c); i < chunk_begin(c + 1); ++i) count += m[i * m_step] != 0;
      counts[c + 1] = count;
    }
  });
  for (int64_t c = 0; c < chunks; ++c) counts[c + 1] += counts[c];
  Shape shape = x.shape();
  shape[0] = counts[chunks];
  Array out = Array::empty(shape, x.dtype(), device());
  int64_t row_elems = 1;
  for (int d = 1; d < x.ndim(); ++d) row_elems *= x.shape()[d];
  const size_t row_bytes = static_cast<size_t>(row_elems) * x.itemsize();
  if (out.size() == 0) return out;
  const auto* src = static_cast<const char*>(x.data());
  const int64_t src_step = x.strides()[0] * static_cast<int64_t>(x.itemsize());
  auto* dst = static_cast<char*>(out.data());
  parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      if (counts[c + 1] == counts[c]) continue;  // nothing picked (copy_rows needs a row)
      const int64_t b = chunk_begin(c), n = chunk_begin(c + 1) - b;
      const char* s = src + b * src_step;
      const unsigned char* mc = m + b * m_step;
      char* d = dst + counts[c] * static_cast<int64_t>(row_bytes);
      switch (row_bytes) {
        case 1: copy_rows<1>(s, src_step, mc, m_step, n, row_bytes, d); break;
        case 2: copy_rows<2>(s, src_step, mc, m_step, n, row_bytes, d); break;
        case 4: copy_rows<4>(s, src_step, mc, m_step, n, row_bytes, d); break;
        case 8: copy_rows<8>(s, src_step, mc, m_step, n, row_bytes, d); break;
        case 16: copy_rows<16>(s, src_step, mc, m_step, n, row_bytes, d); break;
        default: copy_rows<0>(s, src_step, mc, m_step, n, row_bytes, d); break;
      }
    }
  });
  return out;
}

}  // namespace accel::cpu
