#include "accel/backend/cpu/fused_interpreter.h"

#include <algorithm>
#include <memory>
#include <string>

#include "accel/backend/cpu/elementwise_loops.h"
#include "accel/backend/cpu/fused_rows.h"
#include "accel/backend/cpu/strided_loop.h"
#include "accel/backend/cpu/thread_pool.h"
#include "accel/runtime/errors.h"

namespace accel::cpu {
namespace {

using ir::Instr;
using ir::InstrKind;

// What to do for each instruction, worked out once per run.
struct Plan {
  std::vector<InnerLoop> loops;          // op and cast instructions, and gathered loads
  std::vector<bool> gathered;            // a load copied into its block first (strided input)
  std::vector<int> direct;               // output written straight from the loop, or -1
  std::vector<size_t> scratch_offset;    // byte offset of the value's block temporary
  std::vector<std::vector<int>> stores;  // outputs copied from the value once computed
  std::vector<InnerLoop> store_loops;    // per output
  size_t scratch_bytes = 0;              // per block
};

Plan make_plan(const ir::KernelIR& ir, const FusedSpace& space, int64_t block) {
  const size_t n = ir.instrs.size();
  Plan p;
  p.loops.assign(n, nullptr);
  p.gathered.assign(n, false);
  p.direct.assign(n, -1);
  p.scratch_offset.assign(n, 0);
  p.stores.resize(n);
  std::vector<size_t> last_use(n, 0), consumers(n, 0), result_uses(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const Instr& in = ir.instrs[i];
    if (in.kind == InstrKind::load) continue;
    for (int a = 0; a < in.nargs(); ++a) {
      last_use[static_cast<size_t>(in.args[a])] = i;
      ++consumers[static_cast<size_t>(in.args[a])];
    }
  }
  for (int32_t r : ir.results) ++result_uses[static_cast<size_t>(r)];
  for (size_t k = 0; k < ir.results.size(); ++k) {
    const size_t r = static_cast<size_t>(ir.results[k]);
    const Instr& in = ir.instrs[r];
    if (in.kind != InstrKind::load && consumers[r] == 0 && result_uses[r] == 1) {
      p.direct[r] = static_cast<int>(k);
    } else {
      p.stores[r].push_back(static_cast<int>(k));
      last_use[r] = n;  // held until its store
    }
    p.store_loops.push_back(cast_loop(in.dtype, ir.outputs[k].dtype));
  }
  // Block temporaries are reused once their value is dead (linear scan, one free list per
  // element size), so a long chain needs only a few blocks of scratch.
  std::vector<std::pair<size_t, size_t>> free_slots;  // (itemsize, offset)
  std::vector<std::vector<size_t>> dies_at(n + 1);
  for (size_t i = 0; i < n; ++i) {
    const Instr& in = ir.instrs[i];
    if (in.kind == InstrKind::load) {
      // An input with a step along the row (a transposed or stepped view) is copied into a
      // block, as NumPy's buffered iteration does: the ops' contiguous (vector) paths then run.
      // sin(m.T) * 2 on a 4000² float32 m took 4x as long as sin(m) * 2 without it.
      const int64_t step = space.inner[static_cast<size_t>(in.args[0])];
      if (step == 0 || step == static_cast<int64_t>(itemsize(in.dtype))) continue;
      p.gathered[i] = true;
      p.loops[i] = cast_loop(in.dtype, in.dtype);
    } else {
      p.loops[i] = in.kind == InstrKind::cast ? cast_loop(in.compute, in.dtype)
                                              : elementwise_loop(in.op, in.compute);
    }
    if (!p.loops[i])
      throw DTypeError(std::string("[fused] no CPU loop for ") +
                       (in.kind == InstrKind::cast ? "cast" : op_name(in.op)) + " on " +
                       dtype_name(in.compute));
    if (p.direct[i] < 0) {
      const size_t size = itemsize(in.dtype);
      auto it = std::find_if(free_slots.begin(), free_slots.end(),
                             [&](const auto& s) { return s.first == size; });
      if (it != free_slots.end()) {
        p.scratch_offset[i] = it->second;
        free_slots.erase(it);
      } else {
        p.scratch_offset[i] = p.scratch_bytes;
        p.scratch_bytes += (size * static_cast<size_t>(block) + 63) / 64 * 64;
      }
      dies_at[std::max(last_use[i], i)].push_back(i);
    }
    // Arguments whose last use is this instruction free their blocks only now, after the
    // destination was chosen, so a loop never writes over its own input.
    for (size_t d : dies_at[i])
      if (d != i || consumers[i] == 0)
        free_slots.emplace_back(itemsize(ir.instrs[d].dtype), p.scratch_offset[d]);
  }
  return p;
}

// Runs units [begin, end) of the walk (fused_rows.h), a block of each row at a time.
void run_range(const ir::KernelIR& ir, const Plan& plan, const FusedSpace& s, const TileWalk& w,
               int64_t block, int64_t begin, int64_t end) {
  const size_t nin = ir.inputs.size(), ninstr = ir.instrs.size();
  std::unique_ptr<char[]> scratch_mem(new char[plan.scratch_bytes + 64]);
  char* scratch = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(scratch_mem.get()) + 63) &
                                          ~uintptr_t(63));
  const std::vector<int64_t>& row_stride = s.inner;
  std::vector<char*> vp(ninstr);
  std::vector<int64_t> vs(ninstr);
  for_each_walk_row(s, w, begin, end, [&](char* const* row, int64_t row_n) {
    for (int64_t j = 0; j < row_n; j += block) {
      const int64_t n = std::min(block, row_n - j);
      for (size_t i = 0; i < ninstr; ++i) {
        const Instr& in = ir.instrs[i];
        if (in.kind == InstrKind::load) {
          const size_t k = static_cast<size_t>(in.args[0]);
          vp[i] = row[k] + j * row_stride[k];
          vs[i] = row_stride[k];
          if (plan.gathered[i]) {
            char* ptrs[2] = {vp[i], scratch + plan.scratch_offset[i]};
            int64_t strides[2] = {vs[i], static_cast<int64_t>(itemsize(in.dtype))};
            plan.loops[i](ptrs, strides, n);
            vp[i] = ptrs[1];
            vs[i] = strides[1];
          }
        } else {
          char* ptrs[4];
          int64_t strides[4];
          const int na = in.nargs();
          bool uniform = true;  // every argument is one value for the whole block
          for (int a = 0; a < na; ++a) {
            ptrs[a] = vp[static_cast<size_t>(in.args[a])];
            strides[a] = vs[static_cast<size_t>(in.args[a])];
            uniform = uniform && strides[a] == 0;
          }
          if (int k = plan.direct[i]; k >= 0) {
            const size_t o = nin + static_cast<size_t>(k);
            ptrs[na] = row[o] + j * row_stride[o];
            strides[na] = row_stride[o];
            uniform = false;
          } else {
            ptrs[na] = scratch + plan.scratch_offset[i];
            strides[na] = uniform ? 0 : static_cast<int64_t>(itemsize(in.dtype));
          }
          // A value computed from scalars only (a cast of a Python number) is computed once
          // and stays a broadcast scalar, so the ops using it take their scalar fast paths.
          plan.loops[i](ptrs, strides, uniform ? 1 : n);
          vp[i] = ptrs[na];
          vs[i] = strides[na];
        }
        for (int k : plan.stores[i]) {
          const size_t o = nin + static_cast<size_t>(k);
          char* ptrs[2] = {vp[i], row[o] + j * row_stride[o]};
          int64_t strides[2] = {vs[i], row_stride[o]};
          plan.store_loops[static_cast<size_t>(k)](ptrs, strides, n);
        }
      }
    }
  });
}

}  // namespace

void interpret_fused(const ir::KernelIR& ir, const FusedSpace& b) {
  const int64_t total = shape_size(b.shape);
  if (total == 0) return;
  const TileWalk w = plan_walk(b);
  const int64_t block = std::min(kFusedBlock, total);
  const Plan plan = make_plan(ir, b, block);
  const int64_t grain = std::max<int64_t>(32768 / ir.cost(), kFusedBlock);
  if (total < 2 * grain || num_threads() == 1) return run_range(ir, plan, b, w, block, 0, w.units);
  parallel_for(w.units, std::max<int64_t>(grain / w.unit_elements, 1),
               [&](int64_t lo, int64_t hi) { run_range(ir, plan, b, w, block, lo, hi); });
}

FusedRangeRunner fused_range_runner(const ir::KernelIR& ir, const FusedSpace& s) {
  auto plan = std::make_shared<const Plan>(make_plan(ir, s, kFusedBlock));
  return [&ir, plan](const FusedSpace& space, int64_t begin, int64_t end) {
    TileWalk rows;  // untiled: units are flat elements
    rows.units = shape_size(space.shape);
    run_range(ir, *plan, space, rows, kFusedBlock, begin, end);
  };
}

}  // namespace accel::cpu
