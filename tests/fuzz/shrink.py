"""Shrinks a failing program to a short reproducer (delta debugging).

fails(program) -> bool says whether a candidate still fails the same way (and is still a
valid program: NumPy accepts it). Passes, repeated until none helps:
1. drop chunks of statements, halving the chunk size down to one statement; a dropped statement
   takes with it every later statement that reads a name it (transitively) defined;
2. drop inputs the same way;
3. cut a dependency: a statement whose value later ones read becomes an input holding
   NumPy's value of it (so the statements before it can go);
4. make inputs simpler: the first elements only, then small repeating values.
"""

import numpy as np

from program import Input, Invalid, Program, input_array, run_numpy


def without(program, drop_stmts=(), drop_inputs=()):
    """The program minus the given statements/inputs and everything that depends on them."""
    gone = {program.inputs[i].name for i in drop_inputs}
    stmts = []
    for i, s in enumerate(program.stmts):
        if i in drop_stmts or gone & set(s.uses):
            if s.defines:
                gone.add(s.defines)
            continue
        stmts.append(s)
    inputs = [x for i, x in enumerate(program.inputs) if i not in drop_inputs]
    return Program(program.seed, inputs, stmts)


def drop_chunks(program, fails, count, make):
    """ddmin-style: try removing chunks of `count` items, largest chunks first."""
    n = count(program)
    chunk = max(n // 2, 1)
    while chunk >= 1:
        i = 0
        while i < count(program):
            candidate = make(program, range(i, min(i + chunk, count(program))))
            if count(candidate) < count(program) and fails(candidate):
                program = candidate
            else:
                i += chunk
        chunk //= 2
    return program


def cuts(program):
    """Programs where one statement's value becomes an input (the latest statements first)."""
    for i in reversed(range(len(program.stmts))):
        s = program.stmts[i]
        if not s.defines or s.kind == "view":
            continue
        try:
            value = run_numpy(Program(program.seed, program.inputs, program.stmts[: i + 1]))[s.defines]
        except Invalid:
            continue
        if value.size <= 64:
            yield Program(program.seed, program.inputs + [Input(s.defines, literal(value))],
                          program.stmts[:i] + program.stmts[i + 1:])


def literal(a):
    """A NumPy expression that rebuilds array a."""
    def element(x):
        if a.dtype.kind == "c":
            return f"complex({float(x.real)!r}, {float(x.imag)!r})"
        if a.dtype.kind == "f":
            return repr(float(x))
        return repr(x.item())
    body = element(a.reshape(())[()]) if a.ndim == 0 else \
        "[" + ", ".join(element(x) for x in a.reshape(-1)) + "]"
    text = f"np.array({body}, dtype={str(a.dtype)!r})"
    return text if a.ndim <= 1 else f"{text}.reshape({a.shape})"


def simpler_inputs(program, index):
    """Simpler versions of input `index`: fewer elements along each axis, then plain values."""
    a = input_array(program.inputs[index])
    options = []
    for axis in range(a.ndim):
        if a.shape[axis] > 1:
            for keep in (1, a.shape[axis] // 2):
                options.append(np.take(a, range(keep), axis=axis))
    if a.size:
        plain = (np.arange(a.size) % 3).reshape(a.shape).astype(a.dtype)
        if not np.array_equal(plain, a):
            options.append(plain)
    if a.size <= 64 and "random" in program.inputs[index].values:
        options.append(a)  # the same values, as a literal
    for values in options:
        inputs = list(program.inputs)
        inputs[index] = Input(inputs[index].name, literal(values))
        yield Program(program.seed, inputs, program.stmts)


def shrink(program, fails, budget=400):
    """The smallest program found that still fails, trying at most `budget` candidates."""
    tries = [0]

    def limited(candidate):
        tries[0] += 1
        return tries[0] <= budget and fails(candidate)

    while True:
        before = (len(program.stmts), len(program.inputs), program.to_json())
        program = drop_chunks(program, limited, lambda p: len(p.stmts),
                              lambda p, r: without(p, drop_stmts=set(r)))
        program = drop_chunks(program, limited, lambda p: len(p.inputs),
                              lambda p, r: without(p, drop_inputs=set(r)))
        for candidate in cuts(program):
            if limited(candidate):
                program = candidate
                break
        for i in range(len(program.inputs)):
            for candidate in simpler_inputs(program, i):
                if limited(candidate):
                    program = candidate
                    break
        if (len(program.stmts), len(program.inputs), program.to_json()) == before or \
                tries[0] > budget:
            return program
