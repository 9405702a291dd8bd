"""Reading columns of a Parquet file so that Ctrl-C stops it at once.

``ParquetFile.read`` decodes the file in one native call, and Python runs its signal handler
only when that call returns; ``ParquetFile.iter_batches`` returns to Python after every batch of
:data:`BATCH_ROWS` rows, so a Ctrl-C raises ``KeyboardInterrupt`` within one batch's time (and
the reader is closed before the exception leaves).

The columns become NumPy arrays straight from their Arrow buffers, not through pyarrow's
``to_numpy``: that call imports pandas (0.3–0.5 s), and a ``KeyboardInterrupt`` raised during
that import is swallowed inside pyarrow (measured with pyarrow 26: the report then ran to its
end and exited 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["BATCH_ROWS", "numpy_column", "read_columns"]

#: Rows per batch read: about 1.5 MB of float64 per column, decoded in a few milliseconds.
BATCH_ROWS = 1 << 16


def read_columns(pf: Any, columns: Sequence[str], *, batch_rows: int = BATCH_ROWS) -> Any:
    """The ``columns`` of the ``pyarrow.parquet.ParquetFile`` ``pf`` as a ``pyarrow.Table``,
    read batch by batch (interruptible between batches)."""
    import pyarrow as pa

    schema = pa.schema([pf.schema_arrow.field(name) for name in columns])
    batches = pf.iter_batches(batch_size=batch_rows, columns=list(columns))
    try:
        return pa.Table.from_batches(list(batches), schema=schema)
    finally:
        batches.close()  # on Ctrl-C too: the native reader is freed here, not at exit


def numpy_column(column: Any) -> np.ndarray:
    """A ``pyarrow.ChunkedArray`` without nulls as one NumPy array, without pandas.

    Floating point → float64, integers → int64, booleans → bool (each copied from the Arrow
    buffers); any other type → an object array of its Python values (one per distinct value,
    then indexed).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = column.type
    if pa.types.is_floating(kind) or pa.types.is_integer(kind) or pa.types.is_boolean(kind):
        dtype: np.dtype[Any]
        if pa.types.is_floating(kind):
            arrow_type, dtype = pa.float64(), np.dtype(np.float64)
        elif pa.types.is_integer(kind):
            arrow_type, dtype = pa.int64(), np.dtype(np.int64)
        else:  # bit-packed in Arrow: one byte each
            arrow_type, dtype = pa.uint8(), np.dtype(np.uint8)
        parts = [
            np.frombuffer(
                c.buffers()[1], dtype=dtype, count=len(c), offset=c.offset * dtype.itemsize
            )
            for c in pc.cast(column, arrow_type).chunks
            if len(c)
        ]
        values = np.concatenate(parts) if parts else np.empty(0, dtype)
        return values.astype(bool) if pa.types.is_boolean(kind) else values
    parts = []
    for chunk in column.chunks:
        encoded = pc.dictionary_encode(chunk)
        index = pc.cast(encoded.indices, pa.int64())
        at = np.frombuffer(
            index.buffers()[1], dtype=np.int64, count=len(index), offset=8 * index.offset
        )
        values = np.empty(len(encoded.dictionary), dtype=object)
        values[:] = encoded.dictionary.to_pylist()
        parts.append(values[at])
    return np.concatenate(parts) if parts else np.empty(0, dtype=object)
