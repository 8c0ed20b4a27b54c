// A vector of trivially copyable values that keeps its first N elements inside the object:
// shapes and strides. Every array, view and plan holds a few of them, and with std::vector each
// cost a heap allocation and a free; a small call (`x[1:]`, `a.argmax()` on 10 elements) spent
// a fifth of its time in malloc and free for them. Past N elements it moves to the heap, so any
// length still works. The interface is std::vector's, as far as accel uses it.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <type_traits>
#include <vector>

namespace accel {

template <class T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable values");

 public:
  using value_type = T;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  SmallVector() = default;
  explicit SmallVector(size_t n) { resize(n); }
  SmallVector(size_t n, const T& value) { assign(n, value); }
  SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  // From and to std::vector: the public API and the bindings speak std::vector in places.
  SmallVector(const std::vector<T>& v) { assign(v.begin(), v.end()); }  // NOLINT: implicit
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }  // NOLINT
  SmallVector(const SmallVector& o) { copy_from(o); }
  SmallVector(SmallVector&& o) noexcept { take(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) copy_from(o);
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  ~SmallVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T* cbegin() const { return data_; }
  const T* cend() const { return data_ + size_; }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void reserve(size_t n) {
    if (n <= capacity_) return;
    T* p = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!p) throw std::bad_alloc();
    if (size_) std::memcpy(p, data_, size_ * sizeof(T));
    if (data_ != inline_) std::free(data_);
    data_ = p;
    capacity_ = n;
  }
  void resize(size_t n) { resize(n, T()); }
  void resize(size_t n, const T& value) {
    grow_for(n);
    for (size_t i = size_; i < n; ++i) data_[i] = value;
    size_ = n;
  }
  void clear() { size_ = 0; }
  void assign(size_t n, const T& value) {
    size_ = 0;
    resize(n, value);
  }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  void assign(It first, It last) {
    const auto n = static_cast<size_t>(std::distance(first, last));
    size_ = 0;
    grow_for(n);
    std::copy(first, last, data_);
    size_ = n;
  }
  void push_back(const T& value) {
    const T v = value;  // value may live in this vector, which grow_for may move
    grow_for(size_ + 1);
    data_[size_++] = v;
  }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
    return back();
  }
  void pop_back() { --size_; }

  T* insert(const T* pos, const T& value) { return insert(pos, size_t{1}, value); }
  T* insert(const T* pos, size_t n, const T& value) {
    const size_t at = static_cast<size_t>(pos - data_);
    const T v = value;
    open_gap(at, n);
    std::fill_n(data_ + at, n, v);
    return data_ + at;
  }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  T* insert(const T* pos, It first, It last) {
    const size_t at = static_cast<size_t>(pos - data_);
    const SmallVector values(first, last);  // the range may be inside this vector
    open_gap(at, values.size());
    std::copy(values.begin(), values.end(), data_ + at);
    return data_ + at;
  }
  T* insert(const T* pos, std::initializer_list<T> values) {
    return insert(pos, values.begin(), values.end());
  }
  T* erase(const T* pos) { return erase(pos, pos + 1); }
  T* erase(const T* first, const T* last) {
    const size_t at = static_cast<size_t>(first - data_);
    const size_t n = static_cast<size_t>(last - first);
    // The last elements (x[i] of a vector's only axis): nothing to move, no memmove call.
    if (at + n < size_) std::memmove(data_ + at, data_ + at + n, (size_ - at - n) * sizeof(T));
    size_ -= n;
    return data_ + at;
  }
  void swap(SmallVector& o) noexcept {
    SmallVector t(std::move(o));
    o = std::move(*this);
    *this = std::move(t);
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    // A plain loop: std::equal becomes a memcmp call, which costs more than comparing the few
    // dimensions of a shape (compared several times per op).
    if (a.size_ != b.size_) return false;
    for (size_t i = 0; i < a.size_; ++i)
      if (!(a.data_[i] == b.data_[i])) return false;
    return true;
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }
  friend bool operator<(const SmallVector& a, const SmallVector& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  void grow_for(size_t n) {
    if (n > capacity_) reserve(std::max(n, 2 * capacity_));
  }
  void open_gap(size_t at, size_t n) {
    grow_for(size_ + n);
    std::memmove(data_ + at + n, data_ + at, (size_ - at) * sizeof(T));
    size_ += n;
  }
  void release() {
    if (data_ != inline_) std::free(data_);
    data_ = inline_;
    capacity_ = N;
    size_ = 0;
  }
  // N elements from `from` to `to`, each through a general register. Not memcpy of the N: a
  // copy of o.size_ elements is a call of memmove (a tenth of a small view), and a copy of fixed
  // size becomes 32-byte vector loads, which stall (~5 ns) when the source was just written
  // element by element, as most shapes are: the store buffer cannot forward several 8-byte
  // stores to one wide load. The empty asm keeps the compiler from merging the moves again.
  static void copy_n_words(T* to, const T* from) {
    static_assert(sizeof(T) == sizeof(uint64_t), "SmallVector copies 8-byte values");
    for (size_t i = 0; i < N; ++i) {
      uint64_t w;
      std::memcpy(&w, from + i, sizeof w);
      asm("" : "+r"(w));
      std::memcpy(to + i, &w, sizeof w);
    }
  }
  // o's elements copied here. Up to N of them as N (copy_n_words): whatever holds them, this
  // and o have room for N.
  void copy_from(const SmallVector& o) {
    if (o.size_ <= N) {
      copy_n_words(data_, o.data_);
      size_ = o.size_;
    } else {
      assign(o.begin(), o.end());
    }
  }
  // Moves o's elements here (this is empty, inline): a heap block is taken over, inline
  // elements copied (all N, copy_n_words).
  void take(SmallVector& o) {
    if (o.data_ != o.inline_) {
      data_ = o.data_;
      capacity_ = o.capacity_;
      size_ = o.size_;
      o.data_ = o.inline_;
      o.capacity_ = N;
    } else {
      copy_n_words(inline_, o.inline_);
      size_ = o.size_;
    }
    o.size_ = 0;
  }

  T* data_ = inline_;
  size_t size_ = 0;
  size_t capacity_ = N;
  T inline_[N] = {};  // zeroed: the fixed-size copies read all N
};

}  // namespace accel
