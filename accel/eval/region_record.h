// Evaluation as the profiler sees it (runtime/profiler.h): which ops a region computed, fused
// or alone (the kernels it runs carry its id), and where a fused chain was cut and why.
// Both record nothing unless a session is active.
#pragma once
#include <optional>
#include <span>

#include "accel/core/array.h"
#include "accel/ir/fuse.h"
#include "accel/runtime/profiler.h"

namespace accel {

class RegionRecord {
 public:
  RegionRecord(std::span<const ArrayImpl* const> members, bool fused);
  ~RegionRecord();
  RegionRecord(const RegionRecord&) = delete;
  RegionRecord& operator=(const RegionRecord&) = delete;

 private:
  std::optional<profile::Scope> scope_;
  int64_t previous_ = 0;
};

// One fusion_cut event per pending input of `r` that could not join it.
void record_fusion_cuts(const ir::FusedRegion& r);

}  // namespace accel
