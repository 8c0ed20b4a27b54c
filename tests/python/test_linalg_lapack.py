"""accel.linalg's LAPACK-backed functions and its compositions against numpy.linalg: every
LAPACK dtype (and integers, promoted to float64), batches, non-contiguous views, empty and 1x1
matrices, special values, and the errors (LinAlgError, which is also NumPy's). Results that are
not unique (eigenvectors, singular vectors, Q and R) are checked by reconstruction, orthogonality
and the values NumPy gives; tolerances scale with the dtype's eps and the size."""

import math

import numpy as np
import pytest

import accel as ac

FLOATS = ["float32", "float64", "complex64", "complex128"]
BATCHES = [(), (3,), (2, 2)]


@pytest.fixture
def device(linalg_device):
    return linalg_device


def eps(dtype):
    return np.finfo(np.dtype(dtype)).eps


def tol(dtype, n):
    """A tolerance for well-conditioned problems of size n: a multiple of eps * n."""
    return 200 * eps(dtype) * max(n, 1)


def random(shape, dtype, rng):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if np.dtype(dtype).kind in "iu":
        x = rng.integers(-5, 6, size=shape)
    return np.asarray(x, dtype=dtype)


def well_conditioned(batch, n, dtype, rng):
    """Random matrices pushed away from singular by a multiple of the identity."""
    a = random(batch + (n, n), dtype, rng)
    return (a + (2 * n + 3) * np.eye(n, dtype=a.dtype)).astype(dtype)


def hermitian_pd(batch, n, dtype, rng):
    a = random(batch + (n, n), dtype, rng)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def strided(x, device):
    """An accel view of x with non-unit strides on both matrix axes (and a transposed layout)."""
    big = np.zeros(x.shape[:-2] + (2 * x.shape[-1], 2 * x.shape[-2]), dtype=x.dtype)
    big[..., ::2, ::2] = np.swapaxes(x, -1, -2)
    view = ac.asarray(big, device=device)[..., ::2, ::2]
    return ac.matrix_transpose(view)


def close(got, want, atol_rtol, check_dtype=True):
    got = got if isinstance(got, np.ndarray) else ac.asnumpy(got)
    if check_dtype:
        assert got.dtype == np.asarray(want).dtype, (got.dtype, np.asarray(want).dtype)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    scale = max(1.0, float(np.max(np.abs(want))) if np.size(want) else 1.0)
    np.testing.assert_allclose(got, want, rtol=atol_rtol, atol=atol_rtol * scale)


def ct(x):
    return np.conj(np.swapaxes(x, -1, -2))


# --- solve, inv, det, slogdet ---

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("n", [1, 4, 9])
def test_solve_inv_det_slogdet_match_numpy(device, dtype, batch, n):
    rng = np.random.default_rng(n * 31 + len(batch))
    a = well_conditioned(batch, n, dtype, rng)
    b = random(batch + (n, 2), dtype, rng)
    t = tol(dtype, n)
    for x in (ac.asarray(a, device=device), strided(a, device)):
        close(ac.linalg.solve(x, ac.asarray(b, device=device)), np.linalg.solve(a, b), t)
        close(ac.linalg.inv(x), np.linalg.inv(a), t)
        close(ac.linalg.det(x), np.linalg.det(a), t)
        sign, logabs = ac.linalg.slogdet(x)
        want = np.linalg.slogdet(a)
        close(sign, want.sign, t)
        close(logabs, want.logabsdet, t)


def test_solve_broadcasts_batches_and_takes_b_as_vector_only_when_1d(device):
    rng = np.random.default_rng(1)
    a = well_conditioned((2, 1), 3, "float64", rng)
    b = random((4, 3, 5), "float64", rng)
    got = ac.linalg.solve(ac.asarray(a, device=device), ac.asarray(b, device=device))
    close(got, np.linalg.solve(a, b), tol("float64", 3))
    v = random((3,), "float64", rng)
    got = ac.linalg.solve(ac.asarray(a, device=device), ac.asarray(v, device=device))
    close(got, np.linalg.solve(a, v), tol("float64", 3))
    # A 2-d b is a matrix even when it could be read as a stack of vectors (NumPy 2).
    stack = random((2, 3), "float64", rng)
    with pytest.raises(ValueError):
        np.linalg.solve(a[:, 0], stack)
    with pytest.raises(ValueError, match="rows"):
        ac.linalg.solve(ac.asarray(a[:, 0], device=device), ac.asarray(stack, device=device))


@pytest.mark.parametrize("dtype", ["int64", "int8", "bool"])
def test_integer_and_bool_input_is_computed_in_float64(device, dtype):
    rng = np.random.default_rng(2)
    a = (well_conditioned((), 4, "float64", rng) > 0.3).astype(dtype) + np.eye(4, dtype=dtype)
    x = ac.asarray(a, device=device)
    close(ac.linalg.det(x), np.linalg.det(a), tol("float64", 4))
    if np.linalg.det(a) != 0:
        close(ac.linalg.inv(x), np.linalg.inv(a), tol("float64", 4))
    close(ac.linalg.svdvals(x), np.linalg.svd(a, compute_uv=False), tol("float64", 4))


def test_mixed_dtypes_solve_in_their_promoted_dtype(device):
    rng = np.random.default_rng(3)
    a = well_conditioned((), 3, "float32", rng)
    b = random((3, 1), "complex128", rng)
    close(ac.linalg.solve(ac.asarray(a, device=device), ac.asarray(b, device=device)),
          np.linalg.solve(a, b), tol("float32", 3))


def test_singular_matrices_raise_linalgerror_in_solve_and_inv_but_det_is_zero(device):
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    batch = np.stack([np.eye(2), s])
    x = ac.asarray(batch, device=device)
    for fn in (ac.linalg.inv, lambda m: ac.linalg.solve(m, ac.ones((2, 2, 1), device=device))):
        with pytest.raises(ac.linalg.LinAlgError, match="Singular matrix") as info:
            fn(x)
        assert isinstance(info.value, np.linalg.LinAlgError)
        assert isinstance(info.value, ac.AccelError)
    close(ac.linalg.det(x), np.linalg.det(batch), 1e-15)
    sign, logabs = ac.linalg.slogdet(ac.asarray(s, device=device))
    assert float(sign) == 0.0 and float(logabs) == -math.inf


def rows_permuted(a, rng):
    """a with each matrix's rows shuffled: the same conditioning, but LU must pivot."""
    order = np.argsort(rng.random(a.shape[:-1]), axis=-1)
    return np.take_along_axis(a, order[..., None], axis=-2)


# On CUDA, batches of two or more matrices up to 32x32 go to cuBLAS's batched LU, the rest (one
# matrix, or n > 32) to cuSOLVER one matrix at a time: the cases straddle both limits.
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize(("batch", "n"), [((10000,), 4), ((2,), 3), ((5, 10), 32), ((3,), 33),
                                          ((1,), 4)])
def test_batches_of_small_matrices_solve_inv_det_match_numpy(device, dtype, batch, n):
    rng = np.random.default_rng(n + batch[0])
    a = rows_permuted(well_conditioned(batch, n, dtype, rng) / (2 * n + 3), rng).astype(dtype)
    b = random(batch + (n, 3), dtype, rng)
    t = tol(dtype, n)
    x = ac.asarray(a, device=device)
    close(ac.linalg.solve(x, ac.asarray(b, device=device)), np.linalg.solve(a, b), t)
    # One matrix for the whole batch: a stride-0 batch axis.
    close(ac.linalg.solve(x[:1], ac.asarray(b, device=device)), np.linalg.solve(a[:1], b), t)
    close(ac.linalg.inv(x), np.linalg.inv(a), t)
    close(ac.linalg.inv(strided(a, device)), np.linalg.inv(a), t)
    close(ac.linalg.det(x), np.linalg.det(a), t)
    sign, logabs = ac.linalg.slogdet(x)
    want = np.linalg.slogdet(a)
    close(sign, want.sign, t)
    close(logabs, want.logabsdet, t)


@pytest.mark.parametrize("dtype", FLOATS)
def test_one_singular_matrix_in_a_large_batch_raises_but_its_det_is_zero(device, dtype):
    rng = np.random.default_rng(12)
    a = rows_permuted(well_conditioned((1000,), 4, dtype, rng) / 11, rng).astype(dtype)
    a[537, :, 2] = 0  # a zero column: an exactly zero pivot
    x = ac.asarray(a, device=device)
    for fn in (ac.linalg.inv, lambda m: ac.linalg.solve(m, ac.ones((1000, 4, 2), device=device))):
        with pytest.raises(ac.linalg.LinAlgError, match="Singular matrix"):
            fn(x)
    t = tol(dtype, 4)
    det = ac.asnumpy(ac.linalg.det(x))
    assert det[537] == 0
    close(det, np.linalg.det(a), t)
    sign, logabs = ac.linalg.slogdet(x)
    sign, logabs = ac.asnumpy(sign), ac.asnumpy(logabs)
    assert sign[537] == 0 and logabs[537] == -math.inf
    want = np.linalg.slogdet(np.delete(a, 537, axis=0))
    close(np.delete(sign, 537), want.sign, t)
    close(np.delete(logabs, 537), want.logabsdet, t)


@pytest.mark.parametrize("fn", ["inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh", "eig",
                                "eigvals"])
def test_square_functions_reject_non_square_and_1d_input_as_numpy(device, fn):
    f = getattr(ac.linalg, fn)
    with pytest.raises(ac.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        f(ac.ones((2, 3), device=device))
    with pytest.raises(np.linalg.LinAlgError, match="1-dimensional array given"):
        f(ac.ones((3,), device=device))


@pytest.mark.parametrize("batch", [(0,), (2, 0)])
def test_empty_batches_and_0x0_matrices_match_numpy(device, batch):
    for n in (0, 3):
        a = np.zeros(batch + (n, n)) + np.eye(n)
        x = ac.asarray(a, device=device)
        close(ac.linalg.inv(x), np.linalg.inv(a), 0)
        close(ac.linalg.det(x), np.linalg.det(a), 0)
        close(ac.linalg.eigvalsh(x), np.linalg.eigvalsh(a), 0)
        close(ac.linalg.cholesky(x), np.linalg.cholesky(a), 0)
        w, v = ac.linalg.eig(x)
        want = np.linalg.eig(a)
        close(w, want.eigenvalues, 0, check_dtype=False)
        close(v, want.eigenvectors, 0, check_dtype=False)
        assert ac.asnumpy(w).dtype == ac.asnumpy(v).dtype == np.complex128
    z = np.zeros((0, 0))
    close(ac.linalg.det(ac.asarray(z, device=device)), np.linalg.det(z), 0)
    for shape in [(0, 3), (3, 0)]:
        e = np.zeros(shape)
        for full in (True, False):
            u, s, vh = ac.linalg.svd(ac.asarray(e, device=device), full_matrices=full)
            want = np.linalg.svd(e, full_matrices=full)
            close(u, want.U, 0)
            close(s, want.S, 0)
            close(vh, want.Vh, 0)
        for mode in ("reduced", "complete"):
            q, r = ac.linalg.qr(ac.asarray(e, device=device), mode=mode)
            want = np.linalg.qr(e, mode=mode)
            close(q, want.Q, 0)
            close(r, want.R, 0)


# --- cholesky, eigh ---

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("n", [1, 5])
def test_cholesky_matches_numpy_lower_and_upper(device, dtype, batch, n):
    rng = np.random.default_rng(4 + n)
    a = hermitian_pd(batch, n, dtype, rng)
    t = tol(dtype, n)
    for x in (ac.asarray(a, device=device), strided(a, device)):
        close(ac.linalg.cholesky(x), np.linalg.cholesky(a), t)
        close(ac.linalg.cholesky(x, upper=True), np.linalg.cholesky(a, upper=True), t)


def test_cholesky_of_a_matrix_not_positive_definite_raises(device):
    a = np.stack([np.eye(3), -np.eye(3)])
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        ac.linalg.cholesky(ac.asarray(a, device=device))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("n", [1, 6])
def test_eigh_values_match_numpy_and_vectors_reconstruct(device, dtype, batch, n):
    rng = np.random.default_rng(5 + n)
    a = hermitian_pd(batch, n, dtype, rng) - n * np.eye(n, dtype=dtype)
    t = tol(dtype, n)
    want = np.linalg.eigh(a)
    for x in (ac.asarray(a, device=device), strided(a, device)):
        w, v = ac.linalg.eigh(x)
        close(w, want.eigenvalues, t)
        v = ac.asnumpy(v)
        assert v.dtype == want.eigenvectors.dtype
        close(v @ (want.eigenvalues[..., None] * ct(v)).astype(dtype), a, t)
        close(ct(v) @ v, np.broadcast_to(np.eye(n, dtype=dtype), v.shape), t)
        close(ac.linalg.eigvalsh(x), want.eigenvalues, t)


def test_eigh_reads_the_triangle_uplo_names(device):
    rng = np.random.default_rng(6)
    a = random((4, 4), "float64", rng)  # not symmetric: each triangle gives another matrix
    for uplo in ("L", "U"):
        close(ac.linalg.eigvalsh(ac.asarray(a, device=device), UPLO=uplo),
              np.linalg.eigvalsh(a, UPLO=uplo), tol("float64", 4))


# --- eig ---

def complex_of(dtype):
    """The complex dtype of a real or complex one (float32 -> complex64)."""
    return np.result_type(np.dtype(dtype), np.complex64)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("batch", [(), (3,)])
@pytest.mark.parametrize("n", [1, 5])
def test_eig_reconstructs_and_values_match_numpy(device, dtype, batch, n):
    """Eigenvalues sorted against NumPy's; eigenvectors (not unique) through A V = V diag(w) and
    unit norms. eig reads A itself and eigvals may read its transpose (cuSOLVER): both checked,
    on a contiguous array and on a strided view."""
    rng = np.random.default_rng(7 + n)
    a = random(batch + (n, n), dtype, rng)
    want = np.sort_complex(np.linalg.eigvals(a)).astype(complex_of(dtype))
    t = 10 * tol(dtype, n)
    for x in (ac.asarray(a, device=device), strided(a, device)):
        w, v = (ac.asnumpy(r) for r in ac.linalg.eig(x))
        assert w.dtype == complex_of(dtype) and v.dtype == complex_of(dtype)
        close(a.astype(w.dtype) @ v, v * w[..., None, :], t)
        close(np.linalg.norm(v, axis=-2), np.ones(batch + (n,)), t, check_dtype=False)
        close(np.sort_complex(w), want, t)
        close(np.sort_complex(ac.asnumpy(ac.linalg.eigvals(x))), want, t)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eig_of_real_input_is_complex_even_when_every_eigenvalue_is_real(device, dtype):
    """The Array API standard (and torch.linalg.eig): complex results always. NumPy gives real
    ones where every eigenvalue of the whole batch is real; accel's values are NumPy's, with a
    zero imaginary part. `mixed` has a conjugate pair between two real eigenvalues (geev's
    real eigenvectors of a pair are packed into two columns)."""
    sym = np.array([[2.0, 1.0], [1.0, 3.0]], dtype)
    rot = np.array([[0.0, -1.0], [1.0, 0.0]], dtype)
    mixed = np.array([[2.0, 0, 0, 0], [0, 0, -2.0, 0], [0, 1.0, 0, 0], [0, 0, 0, -1.0]], dtype)
    t = 10 * tol(dtype, 4)
    for a in (sym, rot, np.stack([sym, rot]), mixed):
        got = ac.linalg.eig(ac.asarray(a, device=device))
        want = np.linalg.eig(a)
        w, v = ac.asnumpy(got.eigenvalues), ac.asnumpy(got.eigenvectors)
        assert w.dtype == v.dtype == complex_of(dtype)
        values = ac.linalg.eigvals(ac.asarray(a, device=device))
        assert ac.asnumpy(values).dtype == complex_of(dtype)
        close(np.sort_complex(w), np.sort_complex(want.eigenvalues).astype(w.dtype), t)
        close(a.astype(w.dtype) @ v, v * w[..., None, :], t)
        if want.eigenvalues.dtype.kind == "f":  # NumPy's real case: exactly real values
            assert (w.imag == 0).all() and (v.imag == 0).all()


def test_eig_rejects_nan_and_inf_as_numpy(device):
    for bad in (np.nan, np.inf):
        a = np.array([[bad, 1.0], [1.0, 1.0]])
        with pytest.raises(np.linalg.LinAlgError, match="Array must not contain infs or NaNs"):
            ac.linalg.eigvals(ac.asarray(a, device=device))


# --- svd, qr ---

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("shape", [(1, 1), (5, 3), (3, 5), (4, 4)])
def test_svd_reconstructs_and_singular_values_match_numpy(device, dtype, batch, shape):
    rng = np.random.default_rng(8 + shape[0])
    a = random(batch + shape, dtype, rng)
    m, n = shape
    k = min(m, n)
    t = tol(dtype, max(m, n))
    want = np.linalg.svd(a, compute_uv=False)
    for x in (ac.asarray(a, device=device), strided(a, device)):
        for full in (True, False):
            u, s, vh = (ac.asnumpy(r) for r in ac.linalg.svd(x, full_matrices=full))
            assert u.shape == batch + (m, m if full else k) and vh.shape == batch + (n if full else k, n)
            close(s, want, t)
            close((u[..., :, :k] * s[..., None, :].astype(dtype)) @ vh[..., :k, :], a, t)
            close(ct(u) @ u, np.broadcast_to(np.eye(u.shape[-1], dtype=dtype), batch + (u.shape[-1],) * 2), t)
            close(vh @ ct(vh), np.broadcast_to(np.eye(vh.shape[-2], dtype=dtype), batch + (vh.shape[-2],) * 2), t)
        close(ac.linalg.svdvals(x), want, t)
        close(ac.linalg.svd(x, compute_uv=False), want, t)


def test_svd_of_nan_raises_linalgerror_as_numpy(device):
    a = np.array([[np.nan, 1.0], [1.0, 1.0]])
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.svd(a)
    with pytest.raises(ac.linalg.LinAlgError, match="SVD did not converge"):
        ac.linalg.svd(ac.asarray(a, device=device))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("shape", [(1, 1), (6, 3), (3, 6), (4, 4)])
def test_qr_reconstructs_with_orthonormal_q_and_r_matching_numpy_up_to_signs(device, dtype, batch, shape):
    rng = np.random.default_rng(9 + shape[1])
    a = random(batch + shape, dtype, rng)
    m, n = shape
    t = tol(dtype, max(m, n))
    for x in (ac.asarray(a, device=device), strided(a, device)):
        for mode in ("reduced", "complete"):
            q, r = (ac.asnumpy(v) for v in ac.linalg.qr(x, mode=mode))
            want = np.linalg.qr(a, mode=mode)
            assert q.shape == want.Q.shape and r.shape == want.R.shape
            close(q @ r, a, t)
            close(ct(q) @ q, np.broadcast_to(np.eye(q.shape[-1], dtype=dtype), batch + (q.shape[-1],) * 2), t)
            assert np.all(np.tril(r, -1) == 0)
            close(np.abs(r), np.abs(want.R), t)  # R is unique up to the signs (phases) of rows
        close(np.abs(ac.asnumpy(ac.linalg.qr(x, mode="r"))), np.abs(np.linalg.qr(a, mode="r")), t)


@pytest.mark.parametrize("dtype", FLOATS + ["int64"])
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("shape", [(1, 1), (6, 3), (3, 6), (4, 4), (0, 3), (3, 0)])
def test_qr_raw_gives_geqrf_h_transposed_and_tau_as_numpy(device, dtype, batch, shape):
    """Both call geqrf, whose reflectors are fixed (LAPACK's larfg), so h and tau match NumPy's
    themselves, not only up to signs."""
    rng = np.random.default_rng(17 + shape[0])
    a = random(batch + shape, dtype, rng)
    want_h, want_tau = np.linalg.qr(a, mode="raw")
    t = tol("float64" if dtype == "int64" else dtype, max(shape))
    for x in (ac.asarray(a, device=device), strided(a, device)):
        got = ac.linalg.qr(x, mode="raw")
        assert type(got) is tuple and len(got) == 2  # a plain tuple, as NumPy's
        close(got[0], want_h, t)
        close(got[1], want_tau, t)


def test_qr_rejects_an_unknown_mode(device):
    with pytest.raises(ValueError, match="mode must be 'reduced', 'complete', 'r' or 'raw'"):
        ac.linalg.qr(ac.eye(2, device=device), mode="economic")


# --- compositions ---

@pytest.mark.parametrize("dtype", FLOATS)
def test_pinv_matrix_rank_lstsq_cond_match_numpy(device, dtype):
    rng = np.random.default_rng(10)
    t = 10 * tol(dtype, 6)
    a = random((2, 6, 4), dtype, rng)
    low = (random((6, 2), dtype, rng) @ random((2, 4), dtype, rng)).astype(dtype)
    for m in (a, low):
        # rtol=None: the Array API's cutoff, max(M, N) * eps, also accel's default (NumPy's
        # default 1e-15 keeps float32 noise in a rank-deficient matrix).
        close(ac.linalg.pinv(ac.asarray(m, device=device)), np.linalg.pinv(m, rtol=None), t)
        close(ac.linalg.pinv(ac.asarray(m, device=device), rtol=1e-3),
              np.linalg.pinv(m, rtol=1e-3), t)
        assert np.array_equal(ac.asnumpy(ac.linalg.matrix_rank(ac.asarray(m, device=device))),
                              np.linalg.matrix_rank(m))
    close(ac.linalg.cond(ac.asarray(a, device=device)), np.linalg.cond(a), t)
    sq = well_conditioned((), 4, dtype, rng)
    for p in (None, 1, -1, 2, -2, np.inf, "fro", "nuc"):
        close(ac.linalg.cond(ac.asarray(sq, device=device), p), np.linalg.cond(sq, p), t)
    b = random((6, 3), dtype, rng)
    for rhs in (b, b[:, 0]):
        got = ac.linalg.lstsq(ac.asarray(a[0], device=device), ac.asarray(rhs, device=device))
        want = np.linalg.lstsq(a[0], rhs)
        close(got[0], want[0], t)
        close(got[1], want[1], t)
        assert got[2] == want[2]
        close(got[3], want[3], t)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64"])
def test_norms_match_numpy(device, dtype):
    rng = np.random.default_rng(11)
    x = random((3, 4, 5), dtype, rng)
    a = ac.asarray(x, device=device)
    t = tol("float32" if dtype == "float32" else "float64", 20)
    for ord in (2, 1, 0, np.inf, -np.inf, 3, 0.5):
        for axis in (None, -1, (0, 2)):
            for keepdims in (False, True):
                close(ac.linalg.vector_norm(a, axis=axis, keepdims=keepdims, ord=ord),
                      np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord), t)
    for ord in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        for keepdims in (False, True):
            close(ac.linalg.matrix_norm(a, keepdims=keepdims, ord=ord),
                  np.linalg.matrix_norm(x, keepdims=keepdims, ord=ord), t)
    close(ac.linalg.norm(a), np.linalg.norm(x), t)
    close(ac.linalg.norm(a, axis=1), np.linalg.norm(x, axis=1), t)
    close(ac.linalg.norm(a, ord=1, axis=(2, 0), keepdims=True),
          np.linalg.norm(x, ord=1, axis=(2, 0), keepdims=True), t)
    close(ac.linalg.norm(a[0], ord="nuc"), np.linalg.norm(x[0], ord="nuc"), t)


@pytest.mark.parametrize("dtype", ["float32", "complex64", "float64"])
def test_norm_over_every_axis_is_a_dot_of_the_flattened_array(device, dtype):
    """norm(x) and vector_norm(x) over all axes are BLAS dots, as NumPy's norm (of the real and
    imaginary parts for complex x): a million values as close to the exact norm as NumPy's
    (float32's dot is 1.4e-6 off; the others within 1e-6), transposed and empty inputs, inf
    and NaN."""
    rng = np.random.default_rng(5)
    x = random((1000, 1003), dtype, rng)
    exact = np.sqrt(np.sum(np.abs(x.astype("complex128")) ** 2))
    for view, view_n in ((ac.asarray(x, device=device), x), (ac.asarray(x, device=device).T, x.T)):
        for got in (ac.linalg.norm(view), ac.linalg.vector_norm(view),
                    ac.linalg.vector_norm(view, axis=(1, 0))):
            assert got.dtype == np.linalg.norm(view_n).dtype
            numpy_error = abs(float(np.linalg.norm(view_n)) - exact)
            assert abs(float(got) - exact) <= max(1e-6 * exact, numpy_error)
        assert ac.linalg.norm(view, keepdims=True).shape == (1, 1)
    assert float(ac.linalg.norm(ac.zeros((0, 3), device=device))) == 0.0
    special = ac.asarray(np.array([1.0, -np.inf, 2.0], dtype), device=device)
    assert float(ac.linalg.norm(special)) == np.inf
    special = ac.asarray(np.array([np.nan, -np.inf], dtype), device=device)
    assert np.isnan(float(ac.linalg.norm(special)))


@pytest.mark.parametrize("shape", [(0, 1), (1, 0), (0, 0), (2, 0, 3), (3, 0)])
def test_matrix_norms_of_empty_matrices_are_zero_or_raise_as_numpy(device, shape):
    """NumPy takes the max forms (2, 1, inf) with initial=0 and raises for the min forms on an
    empty axis (fuzz seed 1223: matrix_norm(ord=2) of a (0, 1) matrix)."""
    x = np.zeros(shape)
    a = ac.asarray(x, device=device)
    for ord in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        try:
            want = np.linalg.matrix_norm(x, ord=ord)
        except ValueError:
            with pytest.raises(ValueError):
                ac.linalg.matrix_norm(a, ord=ord)
            continue
        close(ac.linalg.matrix_norm(a, ord=ord), want, 0.0)


def test_cross_trace_diagonal_outer_matrix_power_multi_dot_match_numpy(device):
    rng = np.random.default_rng(12)
    x1, x2 = random((4, 3), "float64", rng), random((2, 1, 3), "float64", rng)
    close(ac.linalg.cross(ac.asarray(x1, device=device), ac.asarray(x2, device=device)),
          np.linalg.cross(x1, x2), 1e-14)
    y1, y2 = random((3, 5), "float64", rng), random((3, 5), "float64", rng)
    close(ac.linalg.cross(ac.asarray(y1, device=device), ac.asarray(y2, device=device), axis=0),
          np.cross(y1, y2, axis=0), 1e-14)
    with pytest.raises(ValueError, match="3 elements"):
        ac.linalg.cross(ac.ones((4,), device=device), ac.ones((4,), device=device))
    m = random((2, 4, 4), "float64", rng)
    a = ac.asarray(m, device=device)
    close(ac.linalg.trace(a, offset=1), np.linalg.trace(m, offset=1), 1e-14)
    close(ac.linalg.diagonal(a, offset=-1), np.linalg.diagonal(m, offset=-1), 0)
    v, w = random((3,), "float64", rng), random((4,), "float64", rng)
    close(ac.linalg.outer(ac.asarray(v, device=device), ac.asarray(w, device=device)),
          np.linalg.outer(v, w), 0)
    sq = well_conditioned((2,), 4, "float64", rng) / 11
    for n in (0, 1, 2, 5, -3):
        close(ac.linalg.matrix_power(ac.asarray(sq, device=device), n),
              np.linalg.matrix_power(sq, n), 1e-12)
    mats = [random((3, 4), "float64", rng), random((4, 5), "float64", rng), random((5,), "float64", rng)]
    close(ac.linalg.multi_dot([ac.asarray(x, device=device) for x in mats]),
          np.linalg.multi_dot(mats), 1e-13)


def test_numpy_linalg_functions_dispatch_to_accel(device):
    rng = np.random.default_rng(13)
    a = well_conditioned((2,), 3, "float64", rng)
    x = ac.asarray(a, device=device)
    for name in ("inv", "det", "eigvalsh", "svd", "norm", "pinv", "cholesky"):
        m = hermitian_pd((2,), 3, "float64", rng) if name in ("cholesky", "eigvalsh") else a
        got = getattr(np.linalg, name)(ac.asarray(m, device=device))
        assert isinstance(got[0] if isinstance(got, tuple) else got, ac.ndarray), name
    close(np.linalg.solve(x, ac.asarray(a[:, :, :1], device=device)),
          np.linalg.solve(a, a[:, :, :1]), tol("float64", 3))


def test_pinv_and_matrix_rank_take_a_tolerance_per_matrix_and_numpys_absolute_tol(device):
    rng = np.random.default_rng(14)
    # Singular values 1, 1e-2, 1e-4 in each matrix: the cutoff decides the rank.
    u = np.linalg.qr(random((2, 5, 3), "float64", rng)).Q
    a = (u * np.array([1, 1e-2, 1e-4])) @ np.linalg.qr(random((2, 3, 3), "float64", rng)).Q
    x = ac.asarray(a, device=device)
    rtol = np.array([1e-3, 1e-1])
    got = ac.linalg.matrix_rank(x, rtol=ac.asarray(rtol, device=device))
    assert np.array_equal(ac.asnumpy(got), np.linalg.matrix_rank(a, rtol=rtol))
    assert np.array_equal(ac.asnumpy(ac.linalg.matrix_rank(x, tol=1e-3)),
                          np.linalg.matrix_rank(a, tol=1e-3))
    close(ac.linalg.pinv(x, rtol=ac.asarray(rtol, device=device)), np.linalg.pinv(a, rtol=rtol),
          1e-10)
    close(ac.linalg.pinv(ac.zeros((0, 3), device=device)), np.linalg.pinv(np.zeros((0, 3))), 0)


def test_a_singular_matrix_deep_in_a_large_batch_raises_from_the_worker_threads(device):
    rng = np.random.default_rng(15)
    for n in (3, 12):  # the inline LU and LAPACK
        a = well_conditioned((2000,), n, "float64", rng)
        a[1500] = 0
        with pytest.raises(ac.linalg.LinAlgError, match="Singular matrix"):
            ac.linalg.inv(ac.asarray(a, device=device))
        close(ac.linalg.det(ac.asarray(a, device=device)), np.linalg.det(a), tol("float64", n))


def test_without_a_blas_library_linalg_raises_backend_unavailable_naming_lapack():
    # A child process: the library search runs once per process, and this one has found it.
    import os
    import subprocess
    import sys
    code = ("import accel as ac\n"
            "try:\n    ac.linalg.inv(ac.eye(2))\n"
            "except ac.BackendUnavailable as e:\n    print(e)\n")
    env = dict(os.environ, ACCEL_BLAS_PATH="none")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert "[inv] needs LAPACK" in out.stdout and "ACCEL_BLAS_PATH=none" in out.stdout, out


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("batch", BATCHES)
def test_hermitian_svd_pinv_and_rank_match_numpy(device, dtype, batch):
    # Hermitian, indefinite (negative eigenvalues: the sign goes into Vh), one matrix of rank 2.
    rng = np.random.default_rng(21)
    a = random(batch + (4, 4), dtype, rng)
    h = (a + np.conj(np.swapaxes(a, -1, -2))).astype(dtype)
    v = random((4, 2), dtype, rng)
    low = (v @ np.diag([3.0, -2.0]).astype(dtype) @ np.conj(v.T)).astype(dtype)
    for m in (h, np.broadcast_to(low, batch + (4, 4)).copy()):
        x = ac.asarray(m, device=device)
        t = tol(dtype, 4) * 10
        u, s, vh = ac.linalg.svd(x, hermitian=True)
        close(s, np.linalg.svd(m, hermitian=True, compute_uv=False), t)
        close(ac.linalg.svd(x, hermitian=True, compute_uv=False), np.linalg.svd(m, compute_uv=False), t)
        # The singular vectors are unique only up to phase (and within repeated values): the
        # factors must rebuild m, with U unitary.
        un, sn, vhn = (ac.asnumpy(r) for r in (u, s, vh))
        close((un * sn[..., None, :].astype(un.dtype)) @ vhn, m, t, check_dtype=False)
        close(np.conj(np.swapaxes(un, -1, -2)) @ un, np.broadcast_to(np.eye(4), m.shape), t,
              check_dtype=False)
        # An explicit cutoff: NumPy's pinv defaults to rcond=1e-15, accel's to the Array API's
        # max(M, N) * eps; the rank-2 matrices' zero singular values fall between the two.
        close(ac.linalg.pinv(x, rcond=1e-3, hermitian=True),
              np.linalg.pinv(m, rcond=1e-3, hermitian=True), t * 100)
        rank = ac.linalg.matrix_rank(x, hermitian=True)
        np.testing.assert_array_equal(ac.asnumpy(rank), np.linalg.matrix_rank(m, hermitian=True))
        np.testing.assert_array_equal(ac.asnumpy(ac.linalg.matrix_rank(x, tol=2.5, hermitian=True)),
                                      np.linalg.matrix_rank(m, tol=2.5, hermitian=True))


def test_multi_dot_picks_numpys_cheapest_order_and_its_1d_ends(device):
    rng = np.random.default_rng(22)
    for dims in ([10, 100, 5, 50, 2], [3, 40, 2, 60, 7, 1, 30], [8, 8, 8, 8], [2, 30, 4]):
        mats = [random((dims[i], dims[i + 1]), "float64", rng) for i in range(len(dims) - 1)]
        np_split = np.linalg._linalg._multi_dot_matrix_chain_order(mats)
        got = ac.linalg._chain_order(dims)
        n = len(mats)
        for i in range(n):
            for j in range(i + 1, n):
                assert got[i][j] == np_split[i, j], (dims, i, j)
        close(ac.linalg.multi_dot([ac.asarray(m, device=device) for m in mats]),
              np.linalg.multi_dot(mats), 1e-12)
    v, w = random((10,), "float64", rng), random((2,), "float64", rng)
    mats = [random((10, 100), "float64", rng), random((100, 5), "float64", rng),
            random((5, 2), "float64", rng)]
    for ends in ([v] + mats, mats + [w], [v] + mats + [w]):
        close(ac.linalg.multi_dot([ac.asarray(m, device=device) for m in ends]),
              np.linalg.multi_dot(ends), 1e-12)
    with pytest.raises(ac.linalg.LinAlgError, match="2-dimensional"):
        ac.linalg.multi_dot([ac.ones((2, 2), device=device), ac.ones((2,), device=device),
                             ac.ones((2, 2), device=device)])
