#include "accel/eval/eval.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstdio>
#include <optional>
#include <vector>

#include "accel/backend/backend.h"
#include "accel/backend/common/coalesce.h"
#include "accel/codegen/emit.h"
#include "accel/eval/region_record.h"
#include "accel/ir/fuse.h"
#include "accel/runtime/config.h"

namespace accel {
namespace {

std::atomic<bool>& fusion_flag() {
  static std::atomic<bool> on{config::flag(config::Var::ACCEL_FUSION, true)};
  return on;
}

bool debug_enabled() {
  static const bool on = config::number(config::Var::ACCEL_DEBUG).value_or(0) >= 1;
  return on;
}

// The input as the unfused loop wants it: cast to the compute dtype, viewed with out's shape.
Array prepare_input(const Array& in, Dtype compute, const Shape& shape, Backend& be) {
  Array a = in;
  a.eval();
  if (a.dtype() != compute) {
    Array cast = Array::empty(a.shape(), compute, a.device());
    be.cast(a, cast);
    a = cast;
  }
  if (a.shape() == shape) return a;
  return Array::view_of(a, shape, broadcast_strides(a.shape(), a.strides(), shape), a.offset());
}

// The region of one node reading Python numbers kept on the host: its kernel takes them by
// value. Its other inputs are computed first, so the region is that node alone.
ir::FusedRegion region_of_node(const Array& a) {
  for (const Array& in : a.impl()->node->inputs)
    if (!in.host_constant()) in.eval();
  return ir::fuse_elementwise(std::span<const Array>(&a, 1));
}

bool reads_host_constant(const Node& node) {
  return std::any_of(node.inputs.begin(), node.inputs.end(),
                     [](const Array& in) { return in.host_constant() != nullptr; });
}

void run_region(ir::FusedRegion& r, std::vector<Array> outputs);

// One node on its own: today's direct path, also used for single-node regions.
void run_node(const Array& a, const Array& out) {
  const Node& node = *a.impl()->node;
  if (reads_host_constant(node)) {
    ir::FusedRegion r = region_of_node(a);
    return run_region(r, {out});
  }
  Backend& be = backend_for(out.device());
  std::vector<Array> inputs;
  inputs.reserve(node.inputs.size());
  for (const Array& in : node.inputs)
    inputs.push_back(prepare_input(in, node.compute, out.shape(), be));
  if (node.op == OpId::cast)
    be.cast(inputs[0], out);
  else
    be.elementwise(node.op, inputs, out);
}

// A buffer for `target`'s value, laid out as the target was promised: C order, or the axis order
// of its inputs (ops/result_layout.h).
Array output_for(const Array& target, const Shape& shape, Dtype dtype) {
  return target.shape() == shape ? Array::empty(shape, dtype, target.device(), target.strides())
                                 : Array::empty(shape, dtype, target.device());
}

void materialize(const Array& target, const Array& out) {
  ArrayImpl& impl = *target.impl();
  impl.buffer = out.impl()->buffer;
  impl.strides = out.strides();
  impl.offset = out.offset();
  impl.node.reset();
  impl.readers.move_to(impl.buffer->pending_readers());
}

void evaluate_unfused(const Array& a) {
  const ArrayImpl* self = a.impl().get();
  RegionRecord record(std::span<const ArrayImpl* const>(&self, 1), false);
  Array out = output_for(a, a.shape(), a.dtype());
  run_node(a, out);
  materialize(a, out);
}

// A Python number of a device array is uploaded only when something needs its memory.
void upload_host_constant(const Array& a, const Array& host) {
  materialize(a, Array::from_host(host.data(), host.dtype(), {}, a.device()));
}

// A region of one node whose inputs need no conversion runs exactly as it would unfused.
// Casts of scalar inputs (a Python number) are what the direct path does anyway.
bool is_single_node(const ir::FusedRegion& r) {
  if (r.num_nodes() != 1 || r.ir.outputs.size() != 1 || r.ir.has_layout(ir::Layout::by_value))
    return false;
  const std::vector<ir::Instr>& ins = r.ir.instrs;
  for (size_t i = 0; i + 1 < ins.size(); ++i) {
    if (ins[i].kind == ir::InstrKind::op) return false;
    if (ins[i].kind == ir::InstrKind::cast) {
      const ir::Instr& arg = ins[static_cast<size_t>(ins[i].args[0])];
      if (arg.kind != ir::InstrKind::load ||
          r.ir.inputs[static_cast<size_t>(arg.args[0])].layout != ir::Layout::scalar)
        return false;
    }
  }
  return true;
}

// The generated source of a region's kernel, in the dialect its device would compile.
std::string kernel_source(const ir::KernelIR& ir, Device device) {
  const codegen::Dialect& d = device.is_cpu() ? codegen::host_dialect() : codegen::cuda_dialect();
  return std::string("source (") + d.name + " dialect, functors from device_src/scalar_ops.h):\n" +
         codegen::emit_kernel_body(ir, d);
}

void log_region(const ir::FusedRegion& r) {
  if (!debug_enabled()) return;
  std::fprintf(stderr, "[accel fusion] %d nodes of shape %s on %s\n%s%s", r.num_nodes(),
               shape_str(r.shape).c_str(), r.device.str().c_str(), r.ir.str().c_str(),
               kernel_source(r.ir, r.device).c_str());
}

// Runs a region; outputs not given go to fresh buffers that their targets then hold.
void run_region(ir::FusedRegion& r, std::vector<Array> outputs) {
  const size_t given = outputs.size();
  for (size_t k = 0; k < r.targets.size(); ++k) {
    if (k >= outputs.size())
      outputs.push_back(output_for(r.targets[k], r.shape, r.ir.outputs[k].dtype));
    r.ir.outputs[k].layout = ir::output_layout(outputs[k]);
  }
  log_region(r);
  RegionRecord record(r.members, r.num_nodes() > 1);
  backend_for(r.device).run_kernel(r.ir, r.inputs, outputs);
  for (size_t k = given; k < r.targets.size(); ++k) materialize(r.targets[k], outputs[k]);
}

// The region of the roots still pending, runnable: the pending inputs it cuts are computed
// first (each fused on its own), and since that may compute some of the roots or of the region's
// nodes too, fused again until nothing is cut. Each round computes at least one array.
std::optional<ir::FusedRegion> ready_region(std::vector<Array> roots) {
  for (;;) {
    std::erase_if(roots, [](const Array& a) { return !a.is_pending(); });
    if (roots.empty()) return std::nullopt;
    ir::FusedRegion r = ir::fuse_elementwise(roots);
    if (r.deferred.empty()) return r;
    record_fusion_cuts(r);
    evaluate_many(r.deferred);
  }
}

void evaluate_group(std::span<const Array> roots) {
  std::optional<ir::FusedRegion> r = ready_region({roots.begin(), roots.end()});
  if (!r) return;
  if (is_single_node(*r)) {
    evaluate_unfused(r->targets[0]);
    return;
  }
  run_region(*r, {});
}

// After `pending` was computed into `out`, it holds no value of its own: it becomes a copy of
// out, registered as out's reader so a later write to out first gives it the current values.
void read_from(const Array& pending, const Array& out) {
  auto node = std::make_shared<Node>();
  node->op = OpId::cast;
  node->compute = out.dtype();
  node->inputs = {out};
  pending.impl()->node = std::move(node);
  out.buffer()->add_pending_reader(pending.impl());
}

// Unfused in-place rule: every input sharing out's memory is exactly out's own view.
bool node_computable_in_place(const Node& node, const Array& dst) {
  for (const Array& in : node.inputs) {
    if (in.is_pending()) {
      for (const Array& inner : in.impl()->node->inputs)
        if (inner.shares_memory_with(dst) || inner.is_pending()) return false;
      continue;
    }
    if (!in.shares_memory_with(dst)) continue;
    if (in.data() != dst.data() || in.shape() != dst.shape() || in.strides() != dst.strides())
      return false;
    if (in.dtype() != node.compute) return false;
  }
  return true;
}

}  // namespace

namespace {

// A pending value laid out in another axis order than C (ops/result_layout.h: its inputs are
// transposed) is reduced over its memory order: the same values, read in order instead of
// across a transposition, and summed in the order a reduction of the stored value takes. `out`
// is laid out as the value's kept axes (reduced_layout), so in the walk's order it is
// C-ordered: the kernel writes it as it walks. Gives the walk's shape, reduced axes and `out`
// in walk order, or nullopt for C order or where the kept axes walk otherwise than out lies.
struct MemoryWalk {
  std::vector<int> perm;  // walk axis i is a's axis perm[i]
  Shape shape;
  std::vector<int> axes;
  Array out;
};
std::optional<MemoryWalk> memory_walk(const Array& a, const std::vector<int>& axes,
                                      const Array& out) {
  if (a.is_contiguous()) return std::nullopt;
  std::vector<int> perm(static_cast<size_t>(a.ndim()));
  if (!plan::memory_order(a.ndim(), a.shape().data(), a.strides().data(), perm.data()))
    return std::nullopt;
  MemoryWalk w{perm, {}, {}, out};
  Shape out_shape;
  Strides out_strides;
  bool kept_in_order = true;
  int last_kept = -1;
  for (size_t i = 0; i < perm.size(); ++i) {
    const int d = perm[i];
    w.shape.push_back(a.shape()[d]);
    if (std::find(axes.begin(), axes.end(), d) != axes.end()) {
      w.axes.push_back(static_cast<int>(i));
      continue;
    }
    // d's axis in out: the kept axes before it.
    int k = 0;
    for (int e = 0; e < d; ++e) k += std::find(axes.begin(), axes.end(), e) == axes.end();
    out_shape.push_back(out.shape()[k]);
    out_strides.push_back(out.strides()[k]);
    kept_in_order = kept_in_order && d > last_kept;
    last_kept = d;
  }
  if (!kept_in_order) {
    w.out = Array::view_of(out, std::move(out_shape), std::move(out_strides), out.offset());
    if (!w.out.is_contiguous()) return std::nullopt;
  }
  return w;
}

// The region's inputs viewed in the walk's axis order (broadcast to the region's shape first).
void walk_region(ir::FusedRegion& r, const MemoryWalk& w) {
  for (size_t k = 0; k < r.inputs.size(); ++k) {
    Array& in = r.inputs[k];
    if (r.ir.inputs[k].layout == ir::Layout::by_value) continue;
    // Length-1 axes step 0: a (1, 1) input broadcast to the walk steps nowhere along them.
    const Strides full = broadcast_strides(in.shape(), in.strides(), r.shape);
    Strides st;
    for (int d : w.perm) {
      const auto i = static_cast<size_t>(d);
      st.push_back(r.shape[i] == 1 ? 0 : full[i]);
    }
    in = Array::view_of(in, w.shape, st, in.offset());
    r.ir.inputs[k].layout = ir::input_layout(in);
  }
  r.shape = w.shape;
}

}  // namespace

bool reduce_pending(ReduceOp op, const Array& a, const std::vector<int>& axes, const Array& out) {
  if (!a.is_pending() || !fusion_enabled()) return false;
  Backend& be = backend_for(a.device());
  std::optional<MemoryWalk> walk = memory_walk(a, axes, out);
  if (walk && !be.reduces_kernel_output(op, walk->shape, walk->axes, walk->out)) walk.reset();
  // Without a walk, a value laid out otherwise than C would be computed in C order, reading its
  // inputs across their memory: storing it in its own order and reducing that is faster (3.97
  // -> 1.67 ms for sum(t * 2 - 1, axis=(0, 1)) of a 200x100x200 float32 transpose).
  if (!walk && !a.is_contiguous()) return false;
  // Without a walk the kernel writes its result C-ordered: into a temporary where out is laid
  // out otherwise (the reduced side, small beside a), copied into out after.
  Array target = out;
  if (!walk && !out.is_contiguous()) target = Array::empty(out.shape(), out.dtype(), out.device());
  if (!walk && !be.reduces_kernel_output(op, a.shape(), axes, target)) return false;
  std::optional<ir::FusedRegion> r = ready_region({a});
  // A region with other outputs (intermediates referenced elsewhere) must store those anyway.
  if (!r || r->targets.size() != 1 || !r->targets[0].is(a)) return false;
  if (walk) walk_region(*r, *walk);
  r->ir.outputs[0].layout = ir::Layout::contiguous;
  log_region(*r);
  RegionRecord record(r->members, true);
  be.reduce_kernel(op, r->ir, r->inputs, r->shape, walk ? walk->axes : axes,
                   walk ? walk->out : target);
  if (!target.is(out)) be.cast(target, out);
  return true;
}

bool fusion_enabled() { return fusion_flag().load(std::memory_order_relaxed); }
void set_fusion_enabled(bool on) { fusion_flag().store(on); }

// A node whose inputs are all computed is a region of one: it runs directly, without building
// a region (which costs more than the whole op on small arrays). Input casts stay in the fused
// path for large arrays, where doing them block by block saves a pass over memory.
bool runs_directly(const Array& a) {
  constexpr int64_t kSmall = 16384;
  const Node& node = *a.impl()->node;
  const bool small = a.size() <= kSmall;
  for (const Array& in : node.inputs)
    if (in.is_pending() || (!small && in.dtype() != node.compute)) return false;
  return true;
}

// Declared in core/array.h; defined here, in the layer that evaluates.
const Array& Array::eval() const {
  if (impl_->node) evaluate(*this);
  return *this;
}

void evaluate(const Array& a) {
  if (!a.is_pending()) return;
  if (const Array* host = a.host_constant()) return upload_host_constant(a, *host);
  profile::WaitScope wait("evaluate");
  if (wait.event()) wait.event()->detail = shape_str(a.shape()) + " " + dtype_name(a.dtype());
  if (!fusion_enabled() || runs_directly(a)) return evaluate_unfused(a);
  evaluate_group(std::span<const Array>(&a, 1));
}

void evaluate_many(std::span<const Array> arrays) {
  if (!fusion_enabled()) {
    for (const Array& a : arrays) a.eval();
    return;
  }
  std::vector<bool> done(arrays.size(), false);
  for (const Array& a : arrays)
    if (a.host_constant()) a.eval();  // an upload, never a region's root
  for (size_t i = 0; i < arrays.size(); ++i) {
    if (done[i]) continue;
    std::vector<Array> group;
    for (size_t j = i; j < arrays.size(); ++j) {
      if (done[j] || !arrays[j].is_pending() || arrays[j].shape() != arrays[i].shape() ||
          arrays[j].device() != arrays[i].device())
        continue;
      group.push_back(arrays[j]);
      done[j] = true;
    }
    // An earlier group may have computed some of these as extra outputs.
    std::erase_if(group, [](const Array& a) { return !a.is_pending(); });
    if (!group.empty()) evaluate_group(group);
  }
}

bool evaluate_into(const Array& pending, const Array& out) {
  if (pending.dtype() != out.dtype() || pending.shape() != out.shape() || pending.host_constant())
    return false;
  if (!fusion_enabled()) {
    out.buffer()->evaluate_pending_readers(pending.impl().get());
    if (!pending.is_pending() || !node_computable_in_place(*pending.impl()->node, out))
      return false;
    run_node(pending, out);
    read_from(pending, out);
    return true;
  }
  std::optional<ir::FusedRegion> region;
  for (;;) {
    region = ready_region({pending});
    if (!region) return false;
    // Arrays still to be computed from out's memory must see its old values; the region's own
    // nodes read it in the same pass, element by element before writing it.
    out.buffer()->evaluate_pending_readers(region->members);
    // Those readers may have computed some of the region's nodes (shared subexpressions):
    // fuse again, so that every target is still pending when the region runs.
    if (std::all_of(region->members.begin(), region->members.end(),
                    [](const ArrayImpl* m) { return m->node != nullptr; }))
      break;
  }
  ir::FusedRegion& r = *region;
  for (const Array& in : r.inputs)
    if (in.shares_memory_with(out) &&
        (in.data() != out.data() || in.strides() != out.strides() || in.dtype() != out.dtype()))
      return false;
  if (is_single_node(r)) {
    run_node(pending, out);
  } else {
    run_region(r, {out});
  }
  read_from(pending, out);
  return true;
}

namespace {

void explain_into(const Array& a, std::string& out, int& group) {
  if (!a.is_pending()) return;
  ir::FusedRegion r = ir::fuse_elementwise(std::span<const Array>(&a, 1));
  for (const Array& d : r.deferred) explain_into(d, out, group);
  out += "group " + std::to_string(group++) + ": " + std::to_string(r.num_nodes()) +
         (r.num_nodes() == 1 ? " node" : " nodes") + " of shape " + shape_str(r.shape) + " on " +
         r.device.str() + (!fusion_enabled() ? " (fusion off: each node runs on its own)" : "") +
         "\n" + r.ir.str() + kernel_source(r.ir, r.device);
}

}  // namespace

std::string explain(const Array& a) {
  if (!a.is_pending()) return "nothing pending: " + a.describe() + " is already computed\n";
  std::string out;
  int group = 0;
  explain_into(a, out, group);
  return out;
}

void eval(std::span<const Array> arrays) { evaluate_many(arrays); }
void eval(std::initializer_list<Array> arrays) {
  evaluate_many(std::span<const Array>(arrays.begin(), arrays.size()));
}

}  // namespace accel
