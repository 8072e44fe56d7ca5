"""Row sums, gathers and scatters of (n, w) arrays, for chance's batch draws
(the numbers the compiled engines reproduce one game at a time).

numpy runs a separate inner loop for each row when it reduces a C-ordered
array along its last axis, so for short rows (50 card kinds) `.sum(axis=1)`
costs many times an elementwise pass, while `einsum` has fast loops for it
(4,096 rows of 50 int32: 110 us against 30 us; the results are identical).
Gathering and scattering whole rows of a pile by fancy indexing likewise
copies each count as its own item; `take_rows` and `put_rows` copy a row as
one record instead. (The other reductions here served the numpy lockstep
engines and went with them.)
"""

from __future__ import annotations

import numpy as np


def row_sum(a: np.ndarray) -> np.ndarray:
    """(n,) int32 (float32 for floats): the sums of the rows of (n, w) `a`."""
    if a.dtype.kind == "f" or a.dtype == np.int32:
        return np.einsum("ij->i", a)
    return np.einsum("ij->i", a, dtype=np.int32)  # narrower ints summed in int32


_RECORDS: dict[int, np.dtype] = {}  # row size in bytes -> its record type


def records(a: np.ndarray) -> np.ndarray:
    """(...) a view of (..., K) `a` whose items are whole rows of K counts.
    Fancy indexing copies a row as one item instead of K one-byte items: about
    twice as fast for the engine's gathers and scatters of pile rows (4,096
    rows of 50 counts: 18 us against 39 us)."""
    size = a.shape[-1] * a.itemsize
    record = _RECORDS.get(size)
    if record is None:
        record = _RECORDS[size] = np.dtype((np.void, size))
    return a.view(record)[..., 0]


def take_rows(a: np.ndarray, index) -> np.ndarray:
    """(n, K) a copy of a[index] (index picks whole rows of (..., K) `a`)."""
    if a.strides[-1] != a.itemsize:  # rows not contiguous: no records
        return a[index]
    return records(a)[index].view(a.dtype).reshape(-1, a.shape[-1])


def put_rows(a: np.ndarray, index, values: np.ndarray) -> None:
    """a[index] = values, for (n, K) values and an index that picks whole rows."""
    if a.strides[-1] != a.itemsize:
        a[index] = values
        return
    records(a)[index] = records(np.ascontiguousarray(values, dtype=a.dtype))
