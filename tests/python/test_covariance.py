"""cov and corrcoef against NumPy: real, integer, bool and complex data; one and two variables;
rowvar, bias, ddof, fweights, aweights (and both), dtype=, a second array y; empty inputs; and
the errors NumPy raises. Values agree to rounding (matmul sums in the BLAS's order)."""

import warnings

import numpy as np
import pytest

import accel as ac

SHAPES = [(3, 10), (1, 5), (5,), (4, 1), (2, 0), (0, 3), (10, 3)]


def _kwargs(rng, shape):
    n = shape[-1]
    return [{}, {"rowvar": False}, {"bias": True}, {"ddof": 3},
            {"fweights": rng.integers(0, 4, n)}, {"aweights": rng.random(n)},
            {"fweights": rng.integers(1, 4, n), "aweights": rng.random(n), "ddof": 2},
            {"dtype": "float32"}, {"y": rng.normal(size=shape)}]


def _to_accel(kw, device):
    out = {k: ac.asarray(v, device=device) if isinstance(v, np.ndarray) else v
           for k, v in kw.items()}
    if "dtype" in out:
        out["dtype"] = getattr(ac, out["dtype"])
    return out


@pytest.mark.parametrize("fn", ["cov", "corrcoef"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex128", "bool"])
def test_matches_numpy(device, fn, dtype):
    rng = np.random.default_rng(5)
    for shape in SHAPES:
        m = rng.normal(size=shape)
        m = (m + 1j * rng.normal(size=shape)) if dtype == "complex128" else m.astype(dtype)
        for kw in _kwargs(rng, shape):
            if fn == "corrcoef":
                kw = {k: v for k, v in kw.items() if k in ("rowvar", "dtype", "y")}
            if dtype == "complex128" and kw.get("ddof", 0) >= shape[-1]:
                continue  # 1/0 times a complex: NumPy's inf*(a+bj) NaN parts are its own
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    want = np.asarray(getattr(np, fn)(m, **kw))
                except Exception as e:
                    with pytest.raises(type(e)):
                        getattr(ac, fn)(ac.asarray(m, device=device), **_to_accel(kw, device))
                    continue
                got = ac.asnumpy(getattr(ac, fn)(ac.asarray(m, device=device),
                                                 **_to_accel(kw, device)))
            assert got.dtype == want.dtype and got.shape == want.shape, (shape, kw)
            tol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)


def test_errors(device):
    x = ac.asarray(np.ones((2, 4)), device=device)
    with pytest.raises(ValueError, match="more than 2 dimensions"):
        ac.cov(ac.ones((2, 2, 2), device=device))
    with pytest.raises(ValueError, match="ddof must be integer"):
        ac.cov(x, ddof=1.5)
    with pytest.raises(TypeError, match="fweights must be integer"):
        ac.cov(x, fweights=[1, 2.5, 1, 1])
    with pytest.raises(ValueError, match="aweights cannot be negative"):
        ac.cov(x, aweights=[1, -1, 1, 1])
    with pytest.raises(RuntimeError, match="incompatible numbers of samples"):
        ac.cov(x, fweights=[1, 2])


def test_numpy_dispatch(device):
    x = ac.asarray(np.array([[1.0, 2.0, 4.0], [1.0, 0.0, -1.0]]), device=device)
    c = np.cov(x)
    assert isinstance(c, ac.ndarray)
    np.testing.assert_allclose(ac.asnumpy(c), np.cov(ac.asnumpy(x)))
    assert isinstance(np.corrcoef(x), ac.ndarray)
