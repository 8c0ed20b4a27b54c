"""Small helpers the Python modules share: an accel array of an argument, the device of the
first accel array among arguments, an axis checked against a number of dimensions."""

import operator as _operator

from . import _core


def write_target(x, name):
    """The array a NumPy function writes into: an accel array, or a NumPy array's memory viewed
    without a copy (np.putmask(numpy_array, accel_mask, ...) reaches accel through
    __array_function__ and writes into the NumPy array, as NumPy's own would)."""
    if isinstance(x, _core.ndarray):
        return x
    if type(x).__module__ == "numpy" and type(x).__name__ == "ndarray":
        return _core.asarray(x)
    raise TypeError(f"[{name}] the array to write into must be an array, got {type(x).__name__}")


def as_array(x, device=None):
    """x itself when it is an accel array, else accel's asarray of it (on device, if given)."""
    if isinstance(x, _core.ndarray):
        return x
    return _core.asarray(x) if device is None else _core.asarray(x, device=device)


def device_of(*objs):
    """The device of the first accel array among objs (None: the default device)."""
    return next((x.device for x in objs if isinstance(x, _core.ndarray)), None)


def axis_index(axis, ndim, name, what="axis"):
    """axis (an integer, negative counting from the end) as 0..ndim-1; AxisError (an IndexError
    and a ValueError, as NumPy's) naming the function `name` and the argument `what`."""
    axis = _operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _core.AxisError(f"[{name}] {what} {axis} is out of bounds for an array of {ndim} "
                              "dimensions")
    return axis % ndim


def axis_tuple(axis, ndim, name):
    """axis (an integer or a sequence of them) as a tuple of axes 0..ndim-1, as NumPy's
    normalize_axis_tuple: AxisError for one out of range, ValueError for a repeated one."""
    axes = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
    out = tuple(axis_index(a, ndim, name) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"[{name}] repeated axis in {tuple(axes)}")
    return out


def laid_out(x, outer_first):
    """A copy of x with its axes laid out in `outer_first` order (C order for None)."""
    if outer_first is None:
        return _core.asarray(x, copy=True, order="C")
    dense = _core.asarray(_core.permute_dims(x, tuple(outer_first)), copy=True, order="C")
    return _core.permute_dims(dense, _inverse_permutation(outer_first))


def _inverse_permutation(outer_first):
    """The axes that put an array stored in `outer_first` order back in its own order."""
    inverse = [0] * len(outer_first)
    for i, a in enumerate(outer_first):
        inverse[a] = i
    return tuple(inverse)


def iteration_order(shape, inputs):
    """The axes of an elementwise result of `shape` over `inputs` (broadcast to it), outermost
    first, as NumPy's iterator lays such a result out (order='K')."""
    steps = _core._kept_layout(tuple(shape), list(inputs))
    if steps is None:
        return list(range(len(shape)))
    return sorted(range(len(shape)), key=lambda a: (-steps[a], a))


def empty_in_order(shape, outer_first, dtype, device):
    """An empty array of `shape` with its axes laid out in `outer_first` order: the memory of
    a result NumPy allocates through its iterator, to be filled through views."""
    dense = _core.empty(tuple(shape[a] for a in outer_first), dtype=dtype, device=device)
    return _core.permute_dims(dense, _inverse_permutation(outer_first))


def ufunc_output(operands, dtype):
    """An empty array for a ufunc written as several steps: the operands' broadcast shape, laid
    out as NumPy's iterator lays out the ufunc's result over the operands as given (casts and
    broadcasts along the way would lose that order); Python scalars among them take no part."""
    arrays = [x for x in operands if isinstance(x, _core.ndarray)]
    shape = _core.broadcast_shapes(*(tuple(x.shape) for x in arrays)) if arrays else ()
    device = arrays[0].device if arrays else None
    return empty_in_order(shape, iteration_order(shape, arrays), dtype, device)
