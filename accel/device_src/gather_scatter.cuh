// Advanced indexing on the GPU (CudaBackend::gather / scatter): int64 index arrays of any strides
// pick positions along some axes of the indexed array; negative values count from the end.
// Compiled by NVRTC after nvrtc_std.cuh with -default-device. Elements are moved as raw words
// of their size (E: uint8_t, uint16_t, uint32_t, uint64_t, accel_ix::Bytes16), so one
// instantiation per item size serves every dtype.
//
// The host describes the walk in one int64 table in device memory (gather_scatter.cpp,
// index_layout): B, the index shape (coalesced), the index arrays, the other operand's strides
// over B, and the block of the indexed array's remaining axes. All offsets are in elements.
//
// A bad index records min(position * k + which) in a device word (so the host reports the first
// one in C order, as the CPU does); later ones are skipped. Every kernel is a grid-stride loop
// over 64-bit positions.
#pragma once

namespace accel_ix {

struct Bytes16 {  // complex128; 8-byte aligned, like the host's std::complex<double>
  unsigned long long lo, hi;
};

// A position that must not be written (scatter: a bad index, or a repeated one that lost).
constexpr long long kNoWrite = (long long)0x8000000000000000ull;

struct Layout {
  int nb, k, nblk;
  const long long* shape;     // [nb] B
  const long long* arrays;    // per index array: [address, axis size, axis stride, strides[nb]]
  const long long* other;     // [nb] the other operand's strides over B
  const long long* bshape;    // [nblk] the block of remaining axes
  const long long* bindexed;  // [nblk] its strides in the indexed array
  const long long* bother;    // [nblk] and in the other operand
};

// Table: [nb, k, nblk, shape, arrays, other, bshape, bindexed, bother].
inline Layout read_layout(const long long* t) {
  Layout L;
  L.nb = int(t[0]);
  L.k = int(t[1]);
  L.nblk = int(t[2]);
  const long long* p = t + 3;
  L.shape = p;
  p += L.nb;
  L.arrays = p;
  p += L.k * (3 + L.nb);
  L.other = p;
  p += L.nb;
  L.bshape = p;
  p += L.nblk;
  L.bindexed = p;
  p += L.nblk;
  L.bother = p;
  return L;
}

// Offset of flat position `pos` (C order over shape[0, nd)) under `strides`.
inline long long offset_of(long long pos, int nd, const long long* shape, const long long* strides) {
  if (nd == 0) return 0;
  long long off = 0;
  for (int d = nd - 1; d > 0; --d) {
    const long long q = pos / shape[d];
    off += (pos - q * shape[d]) * strides[d];
    pos = q;
  }
  return off + pos * strides[0];
}

inline void report_fault(unsigned long long* fault, unsigned long long key) {
  // Most faulting threads see a smaller key already there and skip the atomic.
  if (key < *(volatile unsigned long long*)fault) atomicMin(fault, key);
}

// The indexed array's offset for position `pos`, or false (and the fault recorded) when an
// index is out of bounds.
inline bool resolve(const Layout& L, long long pos, long long* indexed, unsigned long long* fault) {
  long long off = 0;
  for (int j = 0; j < L.k; ++j) {
    const long long* a = L.arrays + j * (3 + L.nb);
    const long long* values = reinterpret_cast<const long long*>(a[0]);
    const long long n = a[1];
    long long v = values[offset_of(pos, L.nb, L.shape, a + 3)];
    if (v < 0) v += n;
    if ((unsigned long long)v >= (unsigned long long)n) {
      report_fault(fault, (unsigned long long)pos * (unsigned long long)L.k + j);
      return false;
    }
    off += v * a[2];
  }
  *indexed = off;
  return true;
}

inline long long first_position() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }
inline long long position_step() { return (long long)blockDim.x * gridDim.x; }

// The open-addressing table that picks, among positions writing the same destination, the one
// with the largest position (the last in C order, which the CPU's sequential walk leaves).
// Keys are destination offsets with the sign bit flipped, so no offset maps to kEmpty (all
// ones, as a memset of 0xff leaves it; that offset would be 2^63 - 1).
constexpr unsigned long long kEmpty = ~0ull;
inline unsigned long long table_key(long long offset) {
  return (unsigned long long)offset ^ 0x8000000000000000ull;
}
inline unsigned long long table_slot(unsigned long long key, unsigned long long mask) {
  key ^= key >> 33;  // a 64-bit finaliser (MurmurHash3's): strided offsets spread over slots
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ull;
  key ^= key >> 33;
  return key & mask;
}

}  // namespace accel_ix

// gather, one element per position (no remaining axes): out[other(p)] = src[indexed(p)].
template <class E>
__global__ void accel_gather_elements(const E* __restrict__ src, E* __restrict__ out,
                                      const long long* table, long long positions,
                                      unsigned long long* fault) {
  const accel_ix::Layout L = accel_ix::read_layout(table);
  for (long long p = accel_ix::first_position(); p < positions; p += accel_ix::position_step()) {
    long long s;
    if (accel_ix::resolve(L, p, &s, fault)) out[accel_ix::offset_of(p, L.nb, L.shape, L.other)] = src[s];
  }
}

// Checks every index and stores, per position, the offset into the indexed array (kNoWrite for
// a bad one) and into the other operand; either output may be null (a check only).
extern "C" __global__ void accel_index_resolve(const long long* table, long long positions,
                                               long long* indexed_off, long long* other_off,
                                               unsigned long long* fault) {
  const accel_ix::Layout L = accel_ix::read_layout(table);
  for (long long p = accel_ix::first_position(); p < positions; p += accel_ix::position_step()) {
    long long s;
    const bool ok = accel_ix::resolve(L, p, &s, fault);
    if (indexed_off) indexed_off[p] = ok ? s : accel_ix::kNoWrite;
    if (other_off) other_off[p] = accel_ix::offset_of(p, L.nb, L.shape, L.other);
  }
}

// gather of blocks, after accel_index_resolve: thread i moves element i % block of position
// i / block.
template <class E>
__global__ void accel_gather_blocks(const E* __restrict__ src, E* __restrict__ out,
                                    const long long* table, const long long* src_off,
                                    const long long* out_off, long long positions, long long block) {
  const accel_ix::Layout L = accel_ix::read_layout(table);
  const long long total = positions * block;
  for (long long i = accel_ix::first_position(); i < total; i += accel_ix::position_step()) {
    const long long p = i / block, e = i - p * block;
    const long long s = src_off[p];
    if (s == accel_ix::kNoWrite) continue;
    out[out_off[p] + accel_ix::offset_of(e, L.nblk, L.bshape, L.bother)] =
        src[s + accel_ix::offset_of(e, L.nblk, L.bshape, L.bindexed)];
  }
}

// scatter, after accel_index_resolve (and the repeat pass): dst[dst_off[p] + block element] =
// values[val_off[p] + block element], skipping positions marked kNoWrite.
template <class E>
__global__ void accel_scatter_blocks(E* __restrict__ dst, const E* __restrict__ values,
                                     const long long* table, const long long* dst_off,
                                     const long long* val_off, long long positions, long long block) {
  const accel_ix::Layout L = accel_ix::read_layout(table);
  const long long total = positions * block;
  for (long long i = accel_ix::first_position(); i < total; i += accel_ix::position_step()) {
    const long long p = i / block, e = i - p * block;
    const long long d = dst_off[p];
    if (d == accel_ix::kNoWrite) continue;
    dst[d + accel_ix::offset_of(e, L.nblk, L.bshape, L.bindexed)] =
        values[val_off[p] + accel_ix::offset_of(e, L.nblk, L.bshape, L.bother)];
  }
}

// Repeated destinations, pass 1: every position claims its destination's slot and raises the
// slot's winner to its own position. keys start as kEmpty, winners as -1.
extern "C" __global__ void accel_repeat_claim(const long long* dst_off, long long positions,
                                              unsigned long long* keys, long long* winners,
                                              unsigned long long mask) {
  for (long long p = accel_ix::first_position(); p < positions; p += accel_ix::position_step()) {
    const unsigned long long key = accel_ix::table_key(dst_off[p]);
    unsigned long long slot = accel_ix::table_slot(key, mask);
    for (;;) {
      const unsigned long long seen = atomicCAS(&keys[slot], accel_ix::kEmpty, key);
      if (seen == accel_ix::kEmpty || seen == key) break;
      slot = (slot + 1) & mask;
    }
    atomicMax(&winners[slot], p);
  }
}

// Pass 2: positions that did not win their destination are not written.
extern "C" __global__ void accel_repeat_drop(long long* dst_off, long long positions,
                                             const unsigned long long* keys,
                                             const long long* winners, unsigned long long mask) {
  for (long long p = accel_ix::first_position(); p < positions; p += accel_ix::position_step()) {
    const unsigned long long key = accel_ix::table_key(dst_off[p]);
    unsigned long long slot = accel_ix::table_slot(key, mask);
    while (keys[slot] != key) slot = (slot + 1) & mask;
    if (winners[slot] != p) dst_off[p] = accel_ix::kNoWrite;
  }
}
