"""einsum: NumPy's subscripts (explicit `->` and implicit output, `...`, repeated labels for
diagonals, the interleaved operand/sublist form), evaluated as a sequence of pairwise
contractions, each one batched matmul, so any number of operands runs at matmul speed on every
device. The pair contracted next is the one with the smallest result (a greedy contraction
order, as NumPy's optimize='greedy'), whatever `optimize` says: with matmul doing the work there
is no cheaper unoptimised order worth keeping.

Labels that only one operand carries and the output does not are summed away before any
product; size-1 dimensions broadcast against their label's size in other operands, as in NumPy.
A transpose ('ij->ji') or a diagonal ('ii->i') of one operand is a view, writable, as in NumPy;
other results are new arrays laid out as NumPy's
(_out_order), so a later reshape or ravel('K') sees memory in the same order."""

import string as _string

from . import _core
from ._common import laid_out

__all__ = ["einsum"]

_LETTERS = set(_string.ascii_letters)


def _parse_sublist(sub):
    """The interleaved form's sublist ([0, 1, Ellipsis]) as subscript letters."""
    out = []
    for s in sub:
        if s is Ellipsis:
            out.append("...")
        elif isinstance(s, int) and 0 <= s < 52:
            out.append(_string.ascii_letters[s])
        else:
            raise ValueError(f"subscript is not within the valid range [0, 52): {s!r}")
    return "".join(out)


def _split_terms(subscripts, operands):
    if not isinstance(subscripts, str):  # einsum(op0, sub0, op1, sub1, ..., [sub_out])
        args = [subscripts] + list(operands)
        ops, subs = args[0::2], args[1::2]
        out = None
        if len(ops) > len(subs):  # a trailing output sublist
            out = _parse_sublist(ops.pop())
        subscripts = ",".join(_parse_sublist(s) for s in subs) + ("" if out is None else "->" + out)
        operands = ops
    subscripts = subscripts.replace(" ", "")
    if "->" in subscripts:
        lhs, rhs = subscripts.split("->", 1)
        if "->" in rhs or "-" in rhs.replace("->", "") or ">" in rhs:
            raise ValueError("einsum(): invalid subscript '-' or '>' in the output")
    else:
        lhs, rhs = subscripts, None
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum(): {len(terms)} operand subscripts given for {len(operands)} "
                         f"operands")
    return terms, rhs, list(operands)


def _labels(term, ndim, what):
    """A term's labels per axis: letters, and ('...', k) for ellipsis axes counted from the right
    end of the broadcast ellipsis (so operands with fewer ellipsis axes align to the right)."""
    if term.count("...") > 1 or term.replace("...", "").count(".") > 0:
        raise ValueError(f"einsum(): invalid ellipsis in {what} subscripts '{term}'")
    for ch in term.replace("...", ""):
        if ch not in _LETTERS:
            raise ValueError(f"einsum(): invalid subscript '{ch}' in {what} subscripts '{term}'")
    if "..." not in term:
        if len(term) != ndim:
            raise ValueError(f"einsum(): {what} subscripts '{term}' have {len(term)} labels for "
                             f"an operand of {ndim} dimensions")
        return list(term)
    head, tail = term.split("...")
    n_ell = ndim - len(head) - len(tail)
    if n_ell < 0:
        raise ValueError(f"einsum(): {what} subscripts '{term}' have more labels than the "
                         f"operand's {ndim} dimensions")
    return list(head) + [("...", n_ell - i) for i in range(n_ell)] + list(tail)


def _take_diagonals(x, labels):
    """Repeated labels within one operand select its diagonal (ii->i)."""
    labels = list(labels)
    while True:
        seen = {}
        repeat = None
        for i, lab in enumerate(labels):
            if lab in seen:
                repeat = (seen[lab], i)
                break
            seen[lab] = i
        if repeat is None:
            return x, labels
        i, j = repeat
        if x.shape[i] != x.shape[j]:
            raise ValueError(f"einsum(): dimensions in operand for collapsing index "
                             f"'{labels[i]}' don't match ({x.shape[i]} != {x.shape[j]})")
        x = _core._writable_diagonal(x, i, j)  # the diagonal becomes the last axis
        lab = labels[i]
        labels = [l for k, l in enumerate(labels) if k not in (i, j)] + [lab]


def _sum_unneeded(x, labels, needed):
    axes = tuple(i for i, lab in enumerate(labels) if lab not in needed)
    if not axes:
        return x, labels
    return _core.sum(x, axis=axes), [lab for lab in labels if lab in needed]


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _contract(a, la, b, lb, needed_later, sizes):
    """The product of two labelled operands, summing labels neither the output nor any other
    operand needs, as one batched matmul: (batch, free_a, k) @ (batch, k, free_b)."""
    shared = [lab for lab in la if lab in lb]
    batch = [lab for lab in shared if lab in needed_later]
    inner = [lab for lab in shared if lab not in needed_later]
    free_a = [lab for lab in la if lab not in lb]
    free_b = [lab for lab in lb if lab not in la]

    def arrange(x, lx, order):
        x = _core.permute_dims(x, tuple(lx.index(lab) for lab in order))
        return _core.broadcast_to(x, tuple(sizes[lab] if lab in shared else x.shape[i]
                                           for i, lab in enumerate(order)))

    a2 = arrange(a, la, batch + free_a + inner)
    b2 = arrange(b, lb, batch + inner + free_b)
    nb = _size([sizes[lab] for lab in batch])
    fa = _size(a2.shape[len(batch):len(batch) + len(free_a)])
    fb = _size(b2.shape[len(batch) + len(inner):])
    k = _size([sizes[lab] for lab in inner])
    prod = _core.matmul(_core.reshape(a2, (nb, fa, k)), _core.reshape(b2, (nb, k, fb)))
    shape = (tuple(sizes[lab] for lab in batch) + tuple(a2.shape[len(batch):len(batch) + len(free_a)])
             + tuple(b2.shape[len(batch) + len(inner):]))
    return _core.reshape(prod, shape), batch + free_a + free_b


def _combined(x, labels):
    """x's length and step (bytes) per label, in order of first appearance: a repeated label
    steps by the sum of its axes' strides (NumPy's combined view, a diagonal)."""
    shape, steps = {}, {}
    for d, l in enumerate(labels):
        shape[l] = x.shape[d]
        steps[l] = steps.get(l, 0) + x.strides[d]
    return shape, steps


def _fortran_contiguous(shape, steps, itemsize):
    """Whether axes of these lengths and steps (label order) are Fortran-contiguous; axes of
    length 1 step anywhere, as NumPy's flags say."""
    expect = itemsize
    for l, n in shape.items():
        if n != 1:
            if steps[l] != expect:
                return False
            expect *= n
    return True


def _out_order(ops, labels, out_labels, sizes, order):
    """The output's axis order, outermost first, as NumPy's einsum allocates it: through an
    iterator whose axes are the output labels, then the summed ones in letter order, sorted by
    the operands' steps (NumPy's insertion sort, innermost first; a step of 0 or an axis of
    length 1 tells nothing, operands that disagree keep C order) for order 'K', and taken in
    order 'C' or 'F' as asked ('A': F when every operand is Fortran-contiguous, 1-d ones too)."""
    nd = len(out_labels)
    order = order.upper() if isinstance(order, str) else order
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"einsum(): order must be one of 'C', 'F', 'A' or 'K', got {order!r}")
    if order == "A":
        order = "F" if all(_fortran_contiguous(*_combined(o, lab), o.itemsize) for o, lab in
                           zip(ops, labels)) else "C"
    if nd < 2 or order == "C":
        return None
    if order == "F":
        return list(range(nd - 1, -1, -1))
    summed = sorted({l for lab in labels for l in lab if isinstance(l, str)} - set(out_labels))
    axes = list(out_labels) + summed

    def steps(o, lab):
        shape, st = _combined(o, lab)
        return [abs(st[l]) if shape.get(l, 1) != 1 and sizes[l] != 1 else 0 for l in axes]

    all_steps = [steps(o, lab) for o, lab in zip(ops, labels)]
    perm = list(range(len(axes) - 1, -1, -1))  # innermost first
    for i0 in range(1, len(perm)):
        moving, to = perm[i0], i0
        for i1 in range(i0 - 1, -1, -1):
            verdict = None
            for st in all_steps:
                s_moving, s_ahead = st[moving], st[perm[i1]]
                if s_moving and s_ahead:
                    if s_ahead <= s_moving:
                        verdict = False
                    elif verdict is None:
                        verdict = True
            if verdict is None:
                continue
            if not verdict:
                break
            to = i1
        perm[to + 1:i0 + 1] = perm[to:i0]
        perm[to] = moving
    outer_first = [a for a in reversed(perm) if a < nd]
    return None if outer_first == list(range(nd)) else outer_first


def einsum(subscripts, *operands, out=None, dtype=None, order="K", casting="safe",
           optimize=False):
    """Einstein summation over the operands, as NumPy's einsum."""
    terms, rhs, ops = _split_terms(subscripts, operands)
    ops = [o if isinstance(o, _core.ndarray) else _core.asarray(o) for o in ops]
    if ops:
        device = ops[0].device
        ops = [o if o.device == device else _core.asarray(o, device=device) for o in ops]
    labels = [_labels(t, o.ndim, "input") for t, o in zip(terms, ops)]
    # Every label's size; 1 broadcasts against the others (NumPy's rule).
    sizes = {}
    for o, lab in zip(ops, labels):
        for d, l in zip(o.shape, lab):
            if sizes.get(l, 1) == 1:
                sizes[l] = d
            elif d not in (1, sizes[l]):
                raise ValueError(f"einsum(): operands could not be broadcast together: label "
                                 f"'{l if isinstance(l, str) else '...'}' has sizes "
                                 f"{sizes[l]} and {d}")
    ell = sorted({l for lab in labels for l in lab if not isinstance(l, str)},
                 key=lambda l: -l[1])
    if rhs is None:  # implicit output: the ellipsis, then letters seen once, in code order
        counts = {}
        for lab in labels:
            for l in lab:
                if isinstance(l, str):
                    counts[l] = counts.get(l, 0) + 1
        out_labels = ell + sorted(l for l, c in counts.items() if c == 1)  # A-Z before a-z
    else:
        if "..." in rhs:
            head, tail = rhs.split("...", 1)
            if "..." in tail:
                raise ValueError("einsum(): output subscripts have more than one ellipsis")
            out_labels = list(head) + ell + list(tail)
        else:
            if ell and any(sizes[l] != 1 for l in ell):
                raise ValueError("einsum(): output has more dimensions than subscripts given in "
                                 "einstein sum, but no '...' ellipsis provided to broadcast the "
                                 "extra dimensions.")
            out_labels = list(rhs)
        for l in out_labels:
            if isinstance(l, str):
                if l not in _LETTERS:
                    raise ValueError(f"einsum(): invalid subscript '{l}' in the output")
                if l not in sizes:
                    raise ValueError(f"einsum(): output subscript '{l}' does not appear in the "
                                     f"input subscripts")
        if len(set(out_labels)) != len(out_labels):
            raise ValueError("einsum(): output subscript appears more than once in the output")
    result_dtype = dtype if dtype is not None else _core.result_type(*ops)
    outer_first = _out_order(ops, labels, out_labels, sizes, order)
    if len(ops) == 1 and out is None and result_dtype == ops[0].dtype:
        x, lx = _take_diagonals(ops[0], labels[0])
        if sorted(lx, key=str) == sorted(out_labels, key=str):
            # A transpose, or a diagonal: NumPy returns a view, and so does accel (writes show
            # through).
            return _core.permute_dims(x, tuple(lx.index(l) for l in out_labels))
    is_bool = result_dtype == _core.bool
    work = _core.int64 if is_bool else result_dtype
    # No copies: nothing below writes to an operand (diagonals are views, the rest new arrays).
    ops = [_core.astype(o, work, copy=False) for o in ops]

    terms_ = []
    for o, lab in zip(ops, labels):
        o, lab = _take_diagonals(o, lab)
        terms_.append((o, lab))

    def needed(exclude):
        return set(out_labels).union(*[set(l) for i, (_, l) in enumerate(terms_) if i not in exclude])

    terms_ = [_sum_unneeded(o, lab, needed({i})) for i, (o, lab) in enumerate(terms_)]
    while len(terms_) > 1:
        best = None
        for i in range(len(terms_)):
            for j in range(i + 1, len(terms_)):
                li, lj = terms_[i][1], terms_[j][1]
                keep = needed({i, j})
                res = [l for l in dict.fromkeys(li + lj) if l in keep]
                cost = _size([sizes[l] for l in res])
                if best is None or cost < best[0]:
                    best = (cost, i, j)
        _, i, j = best
        keep = needed({i, j})
        (a, la), (b, lb) = terms_[i], terms_[j]
        a, la = _sum_unneeded(a, la, set(lb) | keep)
        b, lb = _sum_unneeded(b, lb, set(la) | keep)
        c = _contract(a, la, b, lb, keep, sizes)
        terms_ = [t for k, t in enumerate(terms_) if k not in (i, j)] + [c]
    x, lx = terms_[0] if terms_ else (None, [])
    x, lx = _sum_unneeded(x, lx, set(out_labels))
    x = _core.permute_dims(x, tuple(lx.index(l) for l in out_labels))
    x = _core.broadcast_to(x, tuple(sizes[l] for l in out_labels))
    x = (x != 0) if is_bool else _core.astype(x, result_dtype, copy=False)
    if out is not None:
        out[...] = x
        return out
    # x is a new array here (a single operand that could be returned as a view was, above):
    # copied only when it is not laid out as NumPy's result already, or is a broadcast
    # (read-only) view.
    c_contiguous, _, writeable = _core._layout_flags(
        _core.permute_dims(x, tuple(outer_first)) if outer_first is not None and x.ndim else x)
    if c_contiguous and writeable:
        return x
    return laid_out(x, outer_first) if x.ndim else _core.asarray(x, copy=True)
