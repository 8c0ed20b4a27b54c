#include "accel/eval/region_record.h"

#include <string>

namespace accel {

RegionRecord::RegionRecord(std::span<const ArrayImpl* const> members, bool fused) {
  if (!profile::active()) return;
  std::string name;
  for (const ArrayImpl* m : members) {
    if (!m->node) continue;
    name += (name.empty() ? "" : "+");
    name += op_name(m->node->op);
  }
  scope_.emplace(profile::EventKind::region, std::move(name));
  profile::Event& e = scope_->event();
  e.id = profile::next_id();
  e.flags = fused ? profile::kFused : 0u;
  for (const ArrayImpl* m : members) {
    if (m->node && m->node->profile_id) e.members.push_back(m->node->profile_id);
    e.elements = std::max(e.elements, shape_size(m->shape));
    e.device = m->device.is_cpu() ? -1 : m->device.index;
  }
  previous_ = profile::current_region();
  profile::set_current_region(e.id);
}

RegionRecord::~RegionRecord() {
  if (scope_) profile::set_current_region(previous_);
}

void record_fusion_cuts(const ir::FusedRegion& r) {
  if (!profile::active()) return;
  for (const Array& d : r.deferred) {
    profile::Event e;
    e.kind = profile::EventKind::fusion_cut;
    e.name = d.impl()->node ? op_name(d.impl()->node->op) : "input";
    e.id = d.impl()->node ? d.impl()->node->profile_id : 0;
    e.detail = d.shape() != r.shape
                   ? "its result of shape " + shape_str(d.shape()) + " is broadcast to " +
                         shape_str(r.shape) + ": computed on its own, then read by the region"
                   : std::string(
                         "the region reached a fusion cap (depth, instructions, "
                         "inputs or temporaries; accel/ir/fuse.cpp)");
    e.elements = d.size();
    e.start_ns = profile::now_ns();
    profile::record(std::move(e));
  }
}

}  // namespace accel
