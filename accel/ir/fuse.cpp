#include "accel/ir/fuse.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace accel::ir {

Layout input_layout(const Array& a) {
  bool all_zero = true;
  for (int d = 0; d < a.ndim(); ++d)
    if (a.shape()[d] != 1 && a.strides()[d] != 0) all_zero = false;
  if (all_zero) return Layout::scalar;
  return a.is_contiguous() ? Layout::contiguous : Layout::strided;
}

Layout output_layout(const Array& a) {
  return a.is_contiguous() ? Layout::contiguous : Layout::strided;
}

namespace {

class RegionBuilder {
 public:
  explicit RegionBuilder(FusedRegion& r) : r_(r) {}

  // The instruction holding `a`'s value, emitting what is needed.
  int32_t visit(const Array& a, int depth) {
    const ArrayImpl* key = a.impl().get();
    if (auto it = value_of_.find(key); it != value_of_.end()) return it->second;
    int32_t v = a.host_constant() ? by_value(a, a.dtype())
                : joins(a, depth) ? emit_node(a, depth)
                                  : emit_load(a);
    value_of_[key] = v;
    return v;
  }

  // How many times region members reference `impl` through their inputs.
  int refs_from_members(const ArrayImpl* impl) const {
    auto it = refs_.find(impl);
    return it == refs_.end() ? 0 : it->second;
  }

  int32_t value_of(const ArrayImpl* impl) const { return value_of_.at(impl); }

  // `v` converted to `dtype` (one cast per value and dtype).
  int32_t cast_to(int32_t v, Dtype dtype) {
    Dtype from = r_.ir.instrs[static_cast<size_t>(v)].dtype;
    if (from == dtype) return v;
    auto [it, fresh] = casts_.try_emplace({v, dtype}, 0);
    if (fresh) {
      Instr in{InstrKind::cast, OpId::cast, dtype, from, {v, -1, -1}};
      it->second = push(in);
    }
    return it->second;
  }

 private:
  bool joins(const Array& a, int depth) const {
    if (!a.is_pending() || a.shape() != r_.shape || a.device() != r_.device) return false;
    if (r_.members.empty()) return true;  // the root always does
    return depth < kMaxRegionDepth && static_cast<int>(r_.ir.instrs.size()) < kMaxRegionInstrs &&
           static_cast<int>(r_.inputs.size()) + 3 <= kMaxRegionInputs &&
           temp_bytes_ < kMaxRegionTempBytes;
  }

  int32_t push(const Instr& in) {
    // The same op on the same values is computed once (sin(a) ** 2 + sin(a) builds sin twice).
    if (in.kind == InstrKind::op) {
      auto key = std::make_tuple(static_cast<int>(in.op), static_cast<int>(in.compute), in.args[0],
                                 in.args[1], in.args[2]);
      auto [it, fresh] = ops_.try_emplace(key, static_cast<int32_t>(r_.ir.instrs.size()));
      if (!fresh) return it->second;
    }
    if (in.kind != InstrKind::load) temp_bytes_ += static_cast<int>(itemsize(in.dtype));
    r_.ir.instrs.push_back(in);
    return static_cast<int32_t>(r_.ir.instrs.size() - 1);
  }

  int32_t emit_load(const Array& a) {
    // A pending input that does not join is not computed here: computing it would fuse it on
    // its own and could materialize nodes this region already holds (a shared subexpression),
    // under the builder's feet. The caller computes `deferred` and fuses again.
    if (a.is_pending()) {
      r_.deferred.push_back(a);
      r_.ir.inputs.push_back(
          {a.dtype(), a.shape() == r_.shape ? Layout::contiguous : Layout::strided});
      return push_load(static_cast<int32_t>(r_.ir.inputs.size() - 1), a.dtype());
    }
    Array view =
        a.shape() == r_.shape
            ? a
            : Array::view_of(a, r_.shape, broadcast_strides(a.shape(), a.strides(), r_.shape),
                             a.offset());
    // Two views of the same elements (`m.T * m.T`: two view objects of one buffer) are one
    // input, loaded (and on the CPU gathered) once.
    for (const auto& [seen, value] : loads_)
      if (seen.data() == view.data() && seen.dtype() == view.dtype() &&
          seen.strides() == view.strides())
        return value;
    r_.ir.inputs.push_back({a.dtype(), input_layout(view)});
    r_.inputs.push_back(view);
    const int32_t value = push_load(static_cast<int32_t>(r_.ir.inputs.size() - 1), a.dtype());
    loads_.emplace_back(std::move(view), value);
    return value;
  }

  // A Python number kept on the host, as a kernel parameter of `dtype`: the launch converts it
  // as the CPU's cast would, so a node's compute dtype costs no cast in the kernel.
  int32_t by_value(const Array& a, Dtype dtype) {
    auto [it, fresh] = by_value_.try_emplace({a.impl().get(), dtype}, 0);
    if (fresh) {
      r_.ir.inputs.push_back({dtype, Layout::by_value});
      r_.inputs.push_back(a);
      it->second = push_load(static_cast<int32_t>(r_.ir.inputs.size() - 1), dtype);
    }
    return it->second;
  }

  int32_t push_load(int32_t input, Dtype dtype) {
    return push({InstrKind::load, OpId::cast, dtype, dtype, {input, -1, -1}});
  }

  int32_t emit_node(const Array& a, int depth) {
    const Node& node = *a.impl()->node;
    r_.members.push_back(a.impl().get());
    for (const Array& in : node.inputs) ++refs_[in.impl().get()];
    int32_t args[3] = {-1, -1, -1};
    for (size_t k = 0; k < node.inputs.size(); ++k)
      args[k] = node.inputs[k].host_constant()
                    ? by_value(node.inputs[k], node.compute)
                    : cast_to(visit(node.inputs[k], depth + 1), node.compute);
    // A copy is a cast to the same dtype: kept as an instruction so that no output is ever
    // stored from a load (an in-place output may overwrite that input within the block).
    if (node.op == OpId::cast)
      return push({InstrKind::cast, OpId::cast, a.dtype(), node.compute, {args[0], -1, -1}});
    return push({InstrKind::op, node.op, a.dtype(), node.compute, {args[0], args[1], args[2]}});
  }

  FusedRegion& r_;
  std::unordered_map<const ArrayImpl*, int32_t> value_of_;
  std::unordered_map<const ArrayImpl*, int> refs_;
  std::map<std::pair<int32_t, Dtype>, int32_t> casts_;
  std::map<std::pair<const ArrayImpl*, Dtype>, int32_t> by_value_;
  std::map<std::tuple<int, int, int32_t, int32_t, int32_t>, int32_t> ops_;
  std::vector<std::pair<Array, int32_t>> loads_;  // computed inputs and their load's value
  int temp_bytes_ = 0;
};

}  // namespace

FusedRegion fuse_elementwise(std::span<const Array> roots) {
  FusedRegion r;
  r.shape = roots[0].shape();
  r.device = roots[0].device();
  RegionBuilder b(r);
  std::vector<const Array*> outs;
  for (const Array& root : roots) {
    if (std::find_if(outs.begin(), outs.end(), [&](const Array* o) { return o->is(root); }) !=
        outs.end())
      continue;
    b.visit(root, 0);
    outs.push_back(&root);
  }
  for (const Array* root : outs) {
    r.targets.push_back(*root);
    r.ir.results.push_back(b.value_of(root->impl().get()));
  }
  // Intermediates someone else still holds (a variable, a node outside the region) are stored
  // too: this pass computes them anyway, and later readers must not recompute them from inputs
  // that may have been overwritten by then.
  for (const ArrayImpl* m : r.members) {
    if (std::any_of(outs.begin(), outs.end(), [&](const Array* o) { return o->impl().get() == m; }))
      continue;
    const std::shared_ptr<ArrayImpl>* owner = nullptr;
    for (const ArrayImpl* p : r.members)
      for (const Array& in : p->node->inputs)
        if (in.impl().get() == m) owner = &in.impl();
    if (owner->use_count() > b.refs_from_members(m)) {
      r.targets.push_back(Array(*owner));
      r.ir.results.push_back(b.value_of(m));
    }
  }
  for (size_t k = 0; k < r.targets.size(); ++k) {
    Dtype dt = r.targets[k].dtype();
    r.ir.results[k] = b.cast_to(r.ir.results[k], dt);
    r.ir.outputs.push_back({dt, Layout::contiguous});
  }
  return r;
}

}  // namespace accel::ir
