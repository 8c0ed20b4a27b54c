// The kernel cache on disk (accel/runtime/kernel_cache.h), for `python -m accel cache` and info.
#include "accel/runtime/kernel_cache.h"
#include "bindings.h"

namespace accel::py {

void init_kernel_cache(nb::module_& m) {
  m.def("kernel_cache_stats", [] {
    KernelCache& cache = KernelCache::instance();
    KernelCacheStats s = cache.stats();
    nb::dict d;
    d["dir"] = cache.dir().string();
    d["max_bytes"] = cache.max_bytes();
    d["entries"] = s.entries;
    d["bytes"] = s.bytes;
    d["hits"] = s.hits;
    d["misses"] = s.misses;
    d["evictions"] = s.evictions;
    d["corrupt"] = s.corrupt;
    return d;
  }, "The kernel cache's directory, cap, size on disk, and this process's hit/miss counters.");
  m.def("kernel_cache_clear", [] { KernelCache::instance().clear(); },
        "Removes every compiled kernel from the cache directory.");
}

}  // namespace accel::py
