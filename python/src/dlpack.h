// DLPack in both directions (docs/ARCHITECTURE.md, "DLPack and __cuda_array_interface__"):
// __dlpack__ / __dlpack_device__ on accel arrays and accel.from_dlpack of any producer, with
// the 1.x versioned capsules (read-only and copied flags) and the legacy ones.
#pragma once
#include <memory>
#include <optional>

#include "bindings.h"
#include "dlpack_abi.h"

namespace accel::py {

// The DLPack element type of an accel dtype: the one place dtypes meet DLPack type codes
// (from_dl_dtype is derived from it).
dlpack::DLDataType to_dl_dtype(Dtype d);
// The accel dtype with that DLPack element type; nullopt when there is none.
std::optional<Dtype> from_dl_dtype(dlpack::DLDataType t);

// x.__dlpack__(stream=, max_version=, dl_device=, copy=) as the Array API standard defines it.
nb::object export_dlpack(const Array& a, nb::handle stream, nb::handle max_version,
                         nb::handle dl_device, nb::handle copy);
// x.__dlpack_device__(): (DLDeviceType, index).
nb::tuple dlpack_device(const Array& a);
// Installs the methods' fast paths (keywords read without nanobind's dispatch); after the
// methods themselves are defined (init_array).
void init_dlpack_fast_paths(nb::module_& m);
// accel.from_dlpack(x, device=, copy=): zero copy of the producer's memory unless a copy or
// another device is asked for.
Array from_dlpack(nb::handle x, std::optional<Device> device, std::optional<bool> copy);

// Raises unless memory on `device` can be used here: BackendUnavailable for CUDA memory without
// a usable driver, DeviceError for a CUDA device that does not exist. `what` names the source.
void check_importable(Device device, const std::string& op, const std::string& what);
// An array over memory another library owns (DLPack, __cuda_array_interface__): `first` is the
// address of element [0, ..., 0], strides are in elements; `keepalive` holds the owner. Its
// owner may write it behind accel's back (Buffer::share_with_foreign_writers).
Array wrap_foreign_memory(void* first, const Shape& shape, const Strides& strides, Dtype dtype,
                          Device device, std::shared_ptr<void> keepalive, bool read_only);

}  // namespace accel::py
