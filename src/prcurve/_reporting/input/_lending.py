"""Python memory lent to pyarrow, taken back only once pyarrow's threads have let go of it.

``pyarrow.py_buffer(obj)`` wraps Python memory without a copy; the C++ object holding it must
take the GIL to release it.  pyarrow's multi-threaded CSV reader returns its table before its
background tasks have dropped their references to the input: the last one is dropped a few
milliseconds later on one of pyarrow's pool threads (measured: in 14 of 200 reads of a 2,000-row
file, the buffer was still held when ``read_csv`` returned, for up to 7 ms).  When the process
exits meanwhile (an error found right after reading: ``prcurve report`` with an ``inf`` score),
that thread asks for the GIL of an interpreter that is finalizing; CPython ends such a thread
with ``pthread_exit``, whose unwinding through pyarrow's C++ destructor calls
``std::terminate``: "terminate called without an active exception", SIGABRT, exit status 134
after the correct message.

:class:`ArrowLoan` lends a ``memoryview`` of the data and, when closed, waits until every
``pyarrow.Buffer`` made from it has been released (the view counts its exports), so no pyarrow
thread touches Python memory after the read is over.
"""

from __future__ import annotations

import time
from typing import Any

__all__ = ["ArrowLoan"]

#: How long :meth:`ArrowLoan.close` waits for pyarrow's threads (they take milliseconds).
RETURN_TIMEOUT = 30.0


class ArrowLoan:
    """``data`` (bytes or a buffer) lent to pyarrow: :meth:`buffer` makes ``pyarrow.Buffer``
    views of it; :meth:`close` (or leaving the ``with`` block) waits until none is alive.

    Keep no reference to the buffers beyond the pyarrow calls they are passed to (tables read
    from them are fine: pyarrow copies what it parses).
    """

    def __init__(self, data: Any) -> None:
        self._view = memoryview(data)

    def __enter__(self) -> ArrowLoan:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def buffer(self) -> Any:
        """A ``pyarrow.Buffer`` over the lent memory (no copy)."""
        import pyarrow as pa

        return pa.py_buffer(self._view)

    def close(self, *, timeout: float = RETURN_TIMEOUT) -> bool:
        """Wait until pyarrow has released every buffer of :meth:`buffer`; whether it did
        within ``timeout`` seconds.  Sleeping releases the GIL, which the pool thread holding
        the last reference needs to drop it."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._view.release()  # refused while a buffer made from the view is alive
            except BufferError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.001)
            else:
                return True
