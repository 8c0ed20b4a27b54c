// __cuda_array_interface__ (version 3) in both directions; see cuda_array_interface.cpp.
#pragma once
#include <optional>

#include "bindings.h"

namespace accel::py {

// The protocol's dict for a CUDA array; AttributeError for other arrays, so that hasattr() is
// False for them, as libraries probe.
nb::dict cuda_array_interface(const Array& a);
// A zero-copy array over the memory an object exposes through __cuda_array_interface__, ordered
// after the object's stream; nullopt when it has none. ValueError for a malformed dict,
// BackendUnavailable when CUDA is not usable here.
std::optional<Array> from_cuda_array_interface(nb::handle obj);

}  // namespace accel::py
