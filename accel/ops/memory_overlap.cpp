// The exact overlap test of memory_overlap.h. Two elements overlap when their byte addresses
// satisfy  base_a + sum_i sa_i * x_i + u  =  base_b + sum_j sb_j * y_j + v  with every index in
// its axis's range and u, v inside an item. Moving everything to one side and flipping each
// negative coefficient (c * x = c * ub + |c| * (ub - x)) gives a bounded equation with positive
// coefficients, sum_k c_k * z_k = rhs, 0 <= z_k <= ub_k, which a depth-first search over the
// largest coefficients first decides; terms of equal coefficient merge (their bounds add), and
// a remainder not divisible by the gcd of the coefficients left prunes a branch. Strides of real
// layouts are multiples of each other, so the search is short (NumPy solves the same problem
// in mem_overlap.c).
#include "accel/ops/memory_overlap.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

namespace accel {
namespace {

struct Term {
  int64_t coefficient;  // > 0
  int64_t bound;        // the variable runs over 0..bound
};

class Search {
 public:
  Search(std::vector<Term> terms, int64_t max_work) : terms_(std::move(terms)), budget_(max_work) {
    // Largest coefficients first: their ranges are the narrowest.
    std::sort(terms_.begin(), terms_.end(),
              [](const Term& x, const Term& y) { return x.coefficient > y.coefficient; });
    const size_t n = terms_.size();
    reach_.assign(n + 1, 0);
    gcd_.assign(n + 1, 0);
    for (size_t k = n; k-- > 0;) {
      reach_[k] = reach_[k + 1] + terms_[k].coefficient * terms_[k].bound;
      gcd_[k] = std::gcd(gcd_[k + 1], terms_[k].coefficient);
    }
  }

  // Whether sum_{k >= from} c_k z_k = rhs has a solution; nullopt when out of budget.
  std::optional<bool> solve(size_t from, int64_t rhs) {
    if (rhs < 0 || rhs > reach_[from]) return false;
    if (from == terms_.size()) return rhs == 0;
    if (gcd_[from] != 0 && rhs % gcd_[from] != 0) return false;
    const Term& t = terms_[from];
    if (from + 1 == terms_.size()) return rhs % t.coefficient == 0 && rhs / t.coefficient <= t.bound;
    // z must leave a remainder the later terms can reach: rhs - c z <= reach_[from + 1].
    const int64_t rest = reach_[from + 1];
    int64_t lo = rhs > rest ? (rhs - rest + t.coefficient - 1) / t.coefficient : 0;
    const int64_t hi = std::min(t.bound, rhs / t.coefficient);
    for (int64_t z = lo; z <= hi; ++z) {
      if (budget_ >= 0 && budget_-- == 0) return std::nullopt;
      std::optional<bool> found = solve(from + 1, rhs - t.coefficient * z);
      if (!found || *found) return found;
    }
    return false;
  }

 private:
  std::vector<Term> terms_;
  std::vector<int64_t> reach_;  // the largest sum the terms from k on can make
  std::vector<int64_t> gcd_;    // the gcd of the coefficients from k on
  int64_t budget_;
};

}  // namespace

std::optional<bool> shares_memory_exactly(const Array& a, const Array& b, int64_t max_work) {
  if (!a.shares_memory_with(b)) return false;  // disjoint address ranges (or pending, empty)
  // Byte addresses relative to a's buffer start: a's side positive, b's negative.
  std::map<int64_t, int64_t> bounds;  // coefficient -> summed bound
  const auto address = [](const Array& x) {
    return reinterpret_cast<intptr_t>(x.impl()->buffer->data()) +
           x.offset() * static_cast<int64_t>(x.itemsize());
  };
  int64_t rhs = address(b) - address(a);
  const auto add = [&](int64_t coefficient, int64_t bound) {
    if (coefficient == 0 || bound == 0) return;
    if (coefficient < 0) {  // c x = c ub + |c| (ub - x)
      rhs -= coefficient * bound;
      coefficient = -coefficient;
    }
    bounds[coefficient] += bound;
  };
  for (int d = 0; d < a.ndim(); ++d)
    add(a.strides()[d] * static_cast<int64_t>(a.itemsize()), a.shape()[d] - 1);
  for (int d = 0; d < b.ndim(); ++d)
    add(-b.strides()[d] * static_cast<int64_t>(b.itemsize()), b.shape()[d] - 1);
  add(1, static_cast<int64_t>(a.itemsize()) - 1);   // u, a byte within a's item
  add(-1, static_cast<int64_t>(b.itemsize()) - 1);  // v, within b's
  std::vector<Term> terms;
  for (const auto& [c, ub] : bounds) terms.push_back({c, ub});
  return Search(std::move(terms), max_work).solve(0, rhs);
}

}  // namespace accel
