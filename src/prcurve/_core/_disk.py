"""Count tables on disk: curves longer than memory, mapped from files and read in blocks.

The Dask and Spark engines exist for data that do not fit in memory, and a curve of 10⁸
distinct scores is 2.4 GB of counts (thresholds, TP, FP) before its precision and recall.  Such
a curve is kept in ``.npy`` files and mapped (``numpy.memmap``): every function of prcurve
reads it like any array, and the long passes (areas, hulls, thinning, the operating-point
search) read it block by block (:mod:`._blocks`), so the process holds a few blocks at a time.

A mapped page that was read stays in the process's resident set until the kernel needs the
memory back; :func:`release` hands a block's pages back as soon as a pass is done with them
(``madvise(MADV_DONTNEED)``: the data stay in the file and the page cache, and a later read maps
them again), so the memory a pass holds is what it uses, also by the measure of the resident
set.

The files live in a temporary folder removed when the counts are garbage collected or at exit
(:func:`counts_from_files`).  Columns that are functions of the counts (precision, recall, the
ROC rates, the PRG gains) are computed where read (:class:`._columns.CountColumn`), never
stored; the few arrays that must be stored (:func:`derived_on_disk`) live in unnamed temporary
files beside the counts, freed with their arrays.
"""

from __future__ import annotations

import bisect
import mmap
import shutil
import tempfile
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "block_sum", "counts_from_files", "derived_columns", "derived_on_disk", "discard_files",
    "first_index", "is_on_disk", "n_at_least", "release", "release_all", "release_rows",
    "remembered",
    "search_sorted", "sorted_position", "take",
]  # fmt: skip

#: Every array mapped by this module that is still alive (for :func:`release_all`).
_MAPPED: list[weakref.ref[np.ndarray]] = []


def _remember(*arrays: np.ndarray) -> None:
    _MAPPED[:] = [r for r in _MAPPED if r() is not None] + [weakref.ref(a) for a in arrays]


#: Points per block when an array is written from a mapped table (about 1 MB per float64 array).
WRITE_BLOCK = 1 << 17


def _mapping(a: object) -> mmap.mmap | None:
    """The file mapping ``a``'s memory belongs to (through views and ``np.asarray``), if any."""
    for _ in range(64):  # a chain of views is short; never loop forever
        if isinstance(a, mmap.mmap):
            return a
        if not isinstance(a, np.ndarray):
            return None
        mm = getattr(a, "_mmap", None)
        if isinstance(mm, mmap.mmap):
            return mm
        a = a.base
    return None


def is_on_disk(a: object) -> bool:
    """Whether ``a`` is (a view of) a memory-mapped file, or a column computed from one
    (:class:`._columns.CountColumn`)."""
    return getattr(a, "on_disk", False) is True or _mapping(a) is not None


#: :func:`release` hands pages back in ranges of at least this many bytes: a pass over a table
#: in blocks of 512 kB then makes one system call per 16 blocks, not one per block (each call
#: costs tens of microseconds, more than reading the block).
RELEASE_GRAIN = 8 << 20


def release(view: np.ndarray, *, exact: bool = False) -> None:
    """Hand the pages of ``view`` (a slice of a memory-mapped array) back to the kernel.

    The file keeps the data; only this process's mapping of those pages goes (a page handed
    back is mapped again if read again).  The slices of one mapping are gathered into one
    range, handed back once it spans :data:`RELEASE_GRAIN` bytes (a pass in blocks, forwards
    or backwards, makes one system call per grain); ``exact`` hands back the slice's pages,
    and what was gathered, now.  Arrays not mapped from a file, and platforms without
    ``madvise``, are left as they are.
    """
    mm = _mapping(view)
    if mm is None or not hasattr(mm, "madvise") or not hasattr(mmap, "MADV_DONTNEED"):
        return
    if view.nbytes == 0:
        return
    start = np.frombuffer(mm, dtype=np.uint8)[:0].ctypes.data  # the mapping's first byte
    first = view.ctypes.data - start  # of the view's first element (the highest, if reversed)
    last = first + (view.shape[0] - 1) * view.strides[0] if view.ndim == 1 else first
    lo = min(first, last)
    hi = max(first, last) + view.itemsize if view.ndim == 1 else lo + view.nbytes
    with _pending_lock:
        entry = _pending.pop(id(mm), None)
        held = entry[1:] if entry is not None and entry[0]() is mm else None  # (not a dead one's)
        if held is not None and held[0] <= hi and lo <= held[1]:  # one range, still
            lo, hi = min(lo, held[0]), max(hi, held[1])
        elif held is not None:  # elsewhere now: the gathered range goes back first
            _advise(mm, *held)
        if not exact and hi - lo < RELEASE_GRAIN:
            _pending[id(mm)] = (weakref.ref(mm), lo, hi)
            return
    _advise(mm, lo, hi)


#: Per mapping (by id, with a weak reference to it: an id may be reused once the mapping is
#: gone), the byte range of the slices :func:`release` holds back.
_pending: dict[int, tuple[weakref.ref[mmap.mmap], int, int]] = {}
_pending_lock = threading.Lock()


def _advise(mm: mmap.mmap, lo: int, hi: int) -> None:
    """``madvise(MADV_DONTNEED)`` on the whole pages of bytes ``[lo, hi)`` of ``mm``."""
    lo -= lo % mmap.PAGESIZE
    hi = min(-(-hi // mmap.PAGESIZE) * mmap.PAGESIZE, len(mm))
    if hi > lo:
        mm.madvise(mmap.MADV_DONTNEED, lo, hi - lo)


#: Indices per chunk of :func:`take`.
TAKE_CHUNK = 1 << 16
#: Bytes of the array a chunk of :func:`take` may span.
TAKE_SPAN = 32 << 20


def take(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``a[idx]`` for increasing indices ``idx``; from an array on disk a chunk of indices at
    a time, the pages each chunk mapped handed back (scattered reads map the pages around each
    index too: all of ``a`` for a gather spread over it).

    A chunk holds at most :data:`TAKE_CHUNK` indices spanning at most :data:`TAKE_SPAN` bytes
    of ``a``: 65,536 indices spread over a table of 10⁸ points (a thinned curve's) mapped
    nearly all of its 800 MB before they were handed back.
    """
    if not isinstance(a, np.ndarray) or not is_on_disk(a) or idx.shape[0] == 0:
        return a[idx]  # (a column computed from counts on disk gathers them this way itself)
    span = max(1, TAKE_SPAN // a.itemsize)
    cuts = np.searchsorted(idx, np.arange(int(idx[0]) + span, int(idx[-1]) + 1, span))
    starts = np.union1d(np.arange(0, idx.shape[0], TAKE_CHUNK), cuts[cuts < idx.shape[0]])
    parts = []
    for lo, hi in zip(starts, [*starts[1:], idx.shape[0]], strict=True):
        chunk = idx[lo:hi]
        parts.append(a[chunk])
        release(a[int(chunk[0]) : int(chunk[-1]) + 1], exact=True)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def release_rows(a: Any, rows: slice) -> None:
    """:func:`release` of ``a[rows]`` when ``a`` is a mapped array; nothing for a column
    computed from counts (:class:`._columns.CountColumn`, whose reads hand their pages back
    themselves), which slicing would compute again only to be dropped."""
    if isinstance(a, np.ndarray):
        release(a[rows])


def release_all() -> None:
    """Hand back the pages of every array this module mapped (:func:`release` of each whole).

    Random reads -- binary searches, gathers at scattered indices -- map more than they read:
    on each page fault the kernel maps the neighbouring cached pages too, so a few hundred
    searches can map a whole array.  The functions that read a curve on disk that way call
    this when they are done, as the report does between its steps.
    """
    for ref in list(_MAPPED):
        a = ref()
        if a is not None:
            release(a, exact=True)


#: The folders of :func:`counts_from_files` (for :func:`discard_files`).
_FOLDERS: set[Path] = set()


def discard_files() -> None:
    """Remove the folders of every count table on disk now, not when the tables are garbage
    collected (the command line, once its report is written).  Where the system allows it
    (POSIX) the arrays still mapped stay readable: a mapping keeps its file's data."""
    while _FOLDERS:
        shutil.rmtree(_FOLDERS.pop(), ignore_errors=True)


def counts_from_files(
    folder: Path, names: tuple[str, ...], raw: tuple[Any, int] | None = None
) -> tuple[np.ndarray, ...]:
    """The ``.npy`` arrays ``folder/<name>.npy`` (the process's own temporary files), mapped
    shared and writeable; ``folder`` is removed when the first of them is garbage collected
    (or at exit).  With ``raw`` (a dtype per name, and the length): the headerless files
    ``folder/<name>`` instead.

    Writeable: NumPy copies a read-only array whole before some operations, which would read
    all of it into memory.  Shared, not copy-on-write: :func:`release` drops a private
    mapping's written pages, a shared one's stay in the file.
    """
    if raw is None:
        arrays = tuple(np.load(folder / f"{name}.npy", mmap_mode="r+") for name in names)
    else:
        dtypes, length = raw
        arrays = tuple(
            np.memmap(folder / name, dtype=dtype, mode="r+", shape=(length,))
            for name, dtype in zip(names, dtypes, strict=True)
        )
    weakref.finalize(arrays[0], shutil.rmtree, folder, True)
    _FOLDERS.add(folder)
    _remember(*arrays)
    return arrays


_memos: list[tuple[weakref.ref[np.ndarray], tuple[np.ndarray, ...], dict[Any, Any]]] = []
_memos_lock = threading.RLock()  # (re-entered when a finalizer runs during a collection)


def _forget_dead() -> None:
    """Drop the memo entries of curves that are gone, and with them the strong references to
    their other arrays (whose mapped files would otherwise stay open)."""
    with _memos_lock:
        _memos[:] = [e for e in _memos if e[0]() is not None]


def remembered(arrays: tuple[np.ndarray, ...], key: Any, compute: Callable[[], Any]) -> Any:
    """``compute()``, once per ``key`` while the arrays ``arrays`` of a curve on disk live
    (computed every time for arrays in memory).

    A curve of 10⁸ points on disk is asked for the same pass-over-everything results by
    several steps of the report -- its areas, its ROC AUC, its ROC hull (for the ROC, the PRG
    and the achievable curve, and the curve file's thinning) -- and each costs a pass over the
    whole table.  The memo holds the first array weakly and the others strongly (they live as
    long as the curve anyway); the entry goes when the first array does.
    """
    if not is_on_disk(arrays[0]):
        return compute()
    with _memos_lock:
        _memos[:] = [e for e in _memos if e[0]() is not None]
        memo = next(
            (m for ref, rest, m in _memos
             if ref() is arrays[0] and len(rest) == len(arrays) - 1
             and all(a is b for a, b in zip(rest, arrays[1:], strict=True))),
            None,
        )  # fmt: skip
        if memo is None:
            memo = {}
            _memos.append((weakref.ref(arrays[0]), tuple(arrays[1:]), memo))
            weakref.finalize(arrays[0], _forget_dead)
        if key in memo:
            return memo[key]
        # one thread computes, another asking meanwhile waits for it (the analysis and the
        # curve file's writer ask for the same hull at the same time)
        computing = memo.setdefault(("computing", key), threading.RLock())
    with computing:
        with _memos_lock:
            if key in memo:
                return memo[key]
        value = compute()
        if isinstance(value, np.ndarray):
            value.flags.writeable = False  # shared by every caller
        with _memos_lock:
            memo[key] = value
    return value


def derived_on_disk(
    like: np.ndarray,
    func: Callable[[slice], np.ndarray],
    dtype: np.dtype | type = np.float64,
    *,
    reads: tuple[np.ndarray, ...] = (),
) -> np.ndarray:
    """An array of ``like``'s length, ``func(block slice)`` block by block, on disk beside
    ``like`` (an unnamed temporary file in its folder: freed with the array).

    For an array that is not cheap to compute again at each read (a column computed where read
    is :class:`._columns.CountColumn`): the whole array never exists in memory.  The pages of
    ``like`` and of ``reads`` (the arrays ``func`` reads) are handed back after each block.
    """
    (out,) = derived_columns(like, lambda part: (func(part),), (dtype,), reads=reads)
    return out


def derived_columns(
    like: np.ndarray,
    func: Callable[[slice], tuple[Any, ...]],
    dtypes: tuple[np.dtype | type, ...],
    *,
    reads: tuple[np.ndarray, ...] = (),
    block: int = WRITE_BLOCK,
) -> tuple[np.ndarray, ...]:
    """Arrays of ``like``'s length (one per dtype of ``dtypes``), ``func(block slice)`` giving
    each one's values on the block, the blocks in increasing order (``func`` may carry a
    running total from one to the next): on disk beside ``like`` when it is on disk, in memory
    otherwise.

    On disk each block is written to its file with ``write`` and the files are mapped once
    complete: writing through a fresh mapping instead took a page fault (and a block
    allocation) per 4 kB page, 1.7 s against 0.14 s for 800 MB.  The pages of ``like`` and of
    ``reads`` are handed back after each block.
    """
    k = like.shape[0]
    if k == 0 or not is_on_disk(like):
        outs = tuple(np.empty(k, dtype=d) for d in dtypes)
        for lo in range(0, k, block):
            part = slice(lo, min(lo + block, k))
            for out, values in zip(outs, func(part), strict=True):
                out[part] = values
        return outs
    files = [_temporary_file(like) for _ in dtypes]
    try:
        for lo in range(0, k, block):
            part = slice(lo, min(lo + block, k))
            for file, dtype, values in zip(files, dtypes, func(part), strict=True):
                values = np.broadcast_to(
                    np.asarray(values).astype(dtype, copy=False), (part.stop - lo,)
                )
                file.write(np.ascontiguousarray(values).data)
            for a in (like, *reads):
                release(a[part])
        mapped: list[np.ndarray] = []
        for file, dtype in zip(files, dtypes, strict=True):
            file.flush()
            mapped.append(np.memmap(file, dtype=dtype, mode="r+", shape=(k,)))
            _remember(mapped[-1])
        return tuple(mapped)
    finally:
        for file in files:
            file.close()  # the mappings keep the (unnamed) files


def _temporary_file(like: np.ndarray) -> Any:
    """An unnamed temporary file in the folder of ``like``'s file (or the system's)."""
    filename = getattr(_owner(like), "filename", None)
    folder = Path(filename).parent if filename else None
    return tempfile.TemporaryFile(dir=folder if folder is not None and folder.is_dir() else None)


def _owner(a: object) -> object:
    """The ``np.memmap`` that ``a`` is a view of (``a`` itself when there is none)."""
    for _ in range(64):
        if isinstance(a, np.memmap) and getattr(a, "filename", None):
            return a
        base = getattr(a, "base", None)
        if base is None:
            break
        a = base
    return a


def block_sum(k: int, term: Callable[[slice], np.ndarray], *arrays: np.ndarray) -> float:
    """``Σ term(block)`` over the blocks of ``range(k)`` (each block's sum added in turn),
    the pages of ``arrays`` handed back after each block."""
    total = 0.0
    for lo in range(0, k, WRITE_BLOCK):
        part = slice(lo, min(lo + WRITE_BLOCK, k))
        total += float(np.sum(term(part)))
        for a in arrays:
            release_rows(a, part)
    return total


def first_index(k: int, test: Callable[[slice], np.ndarray], *arrays: np.ndarray) -> int:
    """The first index where the boolean ``test(block)`` holds (``k`` when nowhere)."""
    for lo in range(0, k, WRITE_BLOCK):
        part = slice(lo, min(lo + WRITE_BLOCK, k))
        hit = np.flatnonzero(test(part))
        for a in arrays:
            release_rows(a, part)
        if hit.shape[0]:
            return lo + int(hit[0])
    return k


#: Above this length a sorted array is searched by bisection on its elements rather than by
#: ``np.searchsorted`` on a negated or reversed copy of it (a copy of the whole array).
SEARCH_COPY_LIMIT = 1 << 20


def n_at_least(thresholds: np.ndarray, t: Any, *, strict: bool = False) -> Any:
    """How many of the decreasing ``thresholds`` are ``>= t`` (``> t`` with ``strict``), for a
    number or an array of them: ``np.searchsorted(-thresholds, -t, side)`` without the negated
    copy of a long array (bisection on its elements, about 30 reads per value)."""
    k = thresholds.shape[0]
    if k <= SEARCH_COPY_LIMIT:  # k minus those below (reversed: increasing; no negation, which
        ascending = np.asarray(thresholds)[::-1]  # wraps unsigned and the int64 minimum)
        return k - np.searchsorted(ascending, np.asarray(t), side="right" if strict else "left")
    values = np.asarray(t)
    out = np.empty(values.shape, dtype=np.intp)
    for j, value in enumerate(values.ravel().tolist()):
        out.flat[j] = bisect.bisect_left(range(k), True, key=_below(thresholds, value, strict))
    release(thresholds)
    return out if values.ndim else out[()]


def _below(thresholds: np.ndarray, value: float, strict: bool) -> Callable[[int], bool]:
    """Whether ``thresholds[i]`` is below ``value`` (not above it, with ``strict``): False,
    then True along decreasing thresholds."""
    if strict:
        return lambda i: not thresholds[i] > value
    return lambda i: not thresholds[i] >= value


def search_sorted(a: np.ndarray, v: Any, side: str = "left") -> Any:
    """``np.searchsorted(a, v, side)`` on a long ``a`` without the copy NumPy makes of it
    when ``v`` needs another dtype (integer counts searched for float targets): bisection on
    its elements then (about 30 reads per value)."""
    values = np.asarray(v)
    if a.shape[0] <= SEARCH_COPY_LIMIT:
        return np.searchsorted(a, values, side=side)  # type: ignore[call-overload]
    if np.result_type(a.dtype, values.dtype) == a.dtype:  # no copy: searched in chunks of
        flat = values.ravel()  # values, each chunk's mapped pages handed back after it
        out: np.ndarray = np.empty(flat.shape, dtype=np.intp)
        for lo in range(0, flat.shape[0], TAKE_CHUNK // 16):
            part = slice(lo, lo + TAKE_CHUNK // 16)
            out[part] = np.searchsorted(a, flat[part], side=side)  # type: ignore[call-overload]
            release(a)
        out = out.reshape(values.shape)
    else:
        k = a.shape[0]
        out = np.array(
            [sorted_position(k, a.__getitem__, x, side) for x in values.ravel().tolist()],
            dtype=np.intp,
        ).reshape(values.shape)
    release(a)
    return out if values.ndim else out[()]


def sorted_position(k: int, value_at: Callable[[int], float], v: float, side: str) -> int:
    """``np.searchsorted(a, v, side)`` for the nondecreasing ``a[i] = value_at(i)``, ``i < k``,
    read at about 30 points (an array that would be a whole-length temporary)."""
    if side == "left":
        return bisect.bisect_left(range(k), v, key=value_at)
    return bisect.bisect_right(range(k), v, key=value_at)
