"""Writing a report's files into its output directory, all or nothing.

:func:`write_tree` stages every file as a hidden temporary file in the directory it goes to and
renames them into place only when all are written.  :class:`FilesAhead` stages some of them
earlier, in a background thread, while the report is still being computed (the CLI writes each
scorer's large curve file while the worker processes resample); :func:`write_tree` then commits
them with the rest, and whatever it does not commit is removed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Callable, Iterable, Mapping
from threading import Event
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

__all__ = [
    "STAGING_PREFIX",
    "Content",
    "FilesAhead",
    "OutputError",
    "WriteStopped",
    "check_input_kept",
    "check_writable",
    "write_tree",
]


class OutputError(RuntimeError):
    """The output could not be written (one-line message)."""


def check_writable(out_dir: str, what: str = "the report") -> None:
    """Fail early (before any computing) when ``out_dir`` cannot be written."""
    out_dir = os.path.abspath(out_dir)
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise OutputError(f"cannot write {what} to {out_dir}: it exists and is not a directory")
    existing = out_dir
    while not os.path.isdir(existing):
        up = os.path.dirname(existing)
        if os.path.lexists(existing) or up == existing:
            break
        existing = up
    if not os.path.isdir(existing):
        raise OutputError(f"cannot write {what} to {out_dir}: {existing} is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        reason = "read-only file system" if _read_only(existing) else "permission denied"
        where = "" if existing == out_dir else f" ({existing})"
        raise OutputError(f"cannot write {what} to {out_dir}: {reason}{where}")


#: Where a report writes in its output directory (every report shape): these two files, figures
#: beside them and everything in ``curves/``.
REPORT_FILES = ("report.html", "summary.json")
FIGURE_SUFFIX = ".png"
CURVES_DIR = "curves"


def report_owned(out_dir: str) -> list[str]:
    """The existing files of ``out_dir`` that a report may replace: :data:`REPORT_FILES`, the
    figures (``*.png``) beside them and every file under ``curves/`` (relative paths)."""
    out: list[str] = [rel for rel in REPORT_FILES if os.path.lexists(os.path.join(out_dir, rel))]
    with contextlib.suppress(OSError):
        out += sorted(n for n in os.listdir(out_dir) if n.lower().endswith(FIGURE_SUFFIX))
    for folder, _, names in os.walk(os.path.join(out_dir, CURVES_DIR)):
        rel = os.path.relpath(folder, out_dir).replace(os.sep, "/")
        out += [f"{rel}/{n}" for n in sorted(names)]
    return out


def check_input_kept(
    inputs: Iterable[str],
    out_dir: str,
    *,
    writes: Callable[[str], bool] | None = None,
    what: str = "the report",
) -> None:
    """Refuse (before any work) to write ``out_dir`` when an input file is one of the files the
    report writes there: the same file after symbolic links (the input named by a link inside
    ``out_dir``, or a link to the input placed there) and hard links (one inode under two
    names), which writing the report would replace.

    The candidates are the existing files of :func:`report_owned`; ``writes(rel)`` says whether
    the report writes ``rel`` (asked only of a candidate that is an input; default: every
    candidate is).
    """
    out_dir = os.path.abspath(out_dir)
    if not os.path.isdir(out_dir):
        return
    owned = report_owned(out_dir)
    for path in inputs:
        if not os.path.isfile(path):
            continue  # none, standard input, or missing: reading says so
        for rel in owned:
            with contextlib.suppress(OSError):  # a dangling link is not the input
                same = os.path.samefile(path, os.path.join(out_dir, *rel.split("/")))
                if same and (writes is None or writes(rel)):
                    raise OutputError(
                        f"cannot write {what} to {out_dir}: the input {path} is its file {rel}, "
                        "which the report would replace; expected an output directory apart "
                        "from the input (pass another --out, or move the input)"
                    )


def _read_only(path: str) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


#: Prefix of the temporary files a report is staged in (hidden, beside their final place).
STAGING_PREFIX = ".prcurve-"


#: A file's content for :func:`write_tree`: text, bytes, or a function writing to a binary file
#: (so that large files stream to disk instead of being built in memory first).
Content = str | bytes | Callable[[BinaryIO], object]


def write_tree(
    out_dir: str,
    files: Mapping[str, Content],
    *,
    what: str = "the report",
    ahead: FilesAhead | None = None,
) -> dict[str, str]:
    """Write ``files`` (relative path with ``/`` → content) into ``out_dir``, all or nothing.

    Only the files named in ``files`` are created or replaced; every other file in ``out_dir``
    and its subdirectories is left alone.  Each file is first written completely to a hidden
    temporary file in the directory it goes to (so staging needs no access to the parent of
    ``out_dir`` and never crosses a file system); only when all are written are they renamed
    into place, an older file of the same name being set aside in the same directory and
    restored if a later rename fails.  On error nothing new is left behind, the older files are
    back, and an :class:`OutputError` is raised.  Returns relative path → absolute path.

    A file that ``ahead`` (:class:`FilesAhead` of the same ``out_dir``) has staged already is
    not written again: its temporary file is waited for (its error raised here, as if it were
    written now) and renamed into place with the others.
    """
    out_dir = os.path.abspath(out_dir)
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise OutputError(f"cannot write {what} to {out_dir}: it exists and is not a directory")
    targets = {rel: os.path.join(out_dir, *rel.split("/")) for rel in files}
    if ahead is not None and ahead.out_dir != out_dir:  # staged elsewhere: written here
        ahead = None
    early = [] if ahead is None else [rel for rel in files if rel in ahead]
    own = {rel: content for rel, content in files.items() if rel not in early}
    created: list[str] = []  # directories made here, outermost first
    staged: dict[str, str] = {}  # destination → its temporary file
    try:
        _check_targets(out_dir, [targets[rel] for rel in own])
        for rel in own:
            _make_dirs(os.path.dirname(targets[rel]), created)
        for rel in own:
            staged[targets[rel]] = _temporary_name(targets[rel])
        _write_staged({staged[targets[rel]]: content for rel, content in own.items()})
        if ahead is not None and early:
            staged.update((targets[rel], tmp) for rel, tmp in ahead.wait(early).items())
        _rename_all(staged)
    except BaseException as exc:  # also Ctrl-C: no partial output, the older files back
        for tmp in staged.values():
            _unlink_quietly(tmp)
        for d in reversed(created):
            with contextlib.suppress(OSError):
                os.rmdir(d)
        if not isinstance(exc, OSError):
            raise
        where = (
            f" ({exc.filename})" if exc.filename and exc.filename not in str(exc.strerror) else ""
        )
        raise OutputError(
            f"cannot write {what} to {out_dir}: {exc.strerror or exc}{where}"
        ) from None
    if ahead is not None:
        ahead.committed(early)
    return {rel: targets[rel] for rel in files}


class WriteStopped(Exception):
    """A background write was stopped (the report is abandoned: an error or Ctrl-C)."""


class _Stoppable:
    """A binary file whose every write first checks ``stop``: a content function streaming a
    large file (pyarrow's CSV writer writes a block of rows at a time) ends at its next write
    with :class:`WriteStopped` once ``stop`` is set."""

    def __init__(self, f: BinaryIO, stop: Event) -> None:
        self._f, self._stop = f, stop

    @property
    def closed(self) -> bool:
        return bool(self._f.closed)

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self._stop.is_set():
            raise WriteStopped
        return self._f.write(data)

    def flush(self) -> None:
        self._f.flush()

    def check(self) -> None:
        """Raise :class:`WriteStopped` once ``stop`` is set: a content function that works
        long before it writes (the page draws figures) calls it between steps."""
        if self._stop.is_set():
            raise WriteStopped


def _write_one(tmp: str, content: Content, stop: Event | None = None) -> None:
    """Write ``content`` to the new file ``tmp``; with ``stop``, a streamed content is stopped
    at its next write once ``stop`` is set (see :class:`_Stoppable`)."""
    if stop is not None and stop.is_set():
        raise WriteStopped
    with open(tmp, "xb") as f:
        if callable(content):  # streams a large file instead of building it in memory
            content(f if stop is None else _Stoppable(f, stop))  # type: ignore[arg-type]
        else:
            f.write(content if isinstance(content, bytes) else content.encode("utf-8"))


def _write_staged(contents: dict[str, Content]) -> None:
    """Write each temporary file; the callable contents (curve files streamed by pyarrow's
    writer, which releases the GIL, and the page, whose figures are drawn as it is written) in
    threads, so that drawing and writing overlap.  Every thread has finished when this returns
    or raises (also on Ctrl-C), so the caller may then remove the files."""
    from concurrent.futures import ThreadPoolExecutor

    streams = [(tmp, c) for tmp, c in contents.items() if callable(c)]
    for tmp, content in contents.items():
        if not callable(content):
            _write_one(tmp, content)
    if len(streams) <= 1:
        for tmp, content in streams:
            _write_one(tmp, content)
        return
    pool = ThreadPoolExecutor(max_workers=min(WRITER_THREADS, len(streams)))
    stop = Event()
    try:
        futures = [pool.submit(_write_one, tmp, content, stop) for tmp, content in streams]
        for future in futures:
            future.result()
    except BaseException:  # an error or Ctrl-C: the other writes stop at their next block
        stop.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


#: Threads writing a report's streamed files at once.
WRITER_THREADS = 2


def _check_targets(out_dir: str, targets: Any) -> None:
    """Every destination may take a file: no directory in its place, no file as its parent."""
    for dst in targets:
        if os.path.isdir(dst):
            raise OSError(errno.EEXIST, f"{dst} exists and is a directory", dst)
        parent = os.path.dirname(dst)
        while len(parent) > len(out_dir):
            if os.path.lexists(parent) and not os.path.isdir(parent):
                raise OSError(errno.EEXIST, f"{parent} exists and is not a directory", parent)
            parent = os.path.dirname(parent)


def _make_dirs(path: str, created: list[str]) -> None:
    missing = []
    while not os.path.isdir(path):
        missing.append(path)
        path = os.path.dirname(path)
    for d in reversed(missing):
        os.mkdir(d)
        created.append(d)


def _temporary_name(dst: str) -> str:
    """A fresh hidden name in the directory of ``dst`` (not created)."""
    folder, name = os.path.split(dst)
    return os.path.join(folder, f"{STAGING_PREFIX}{secrets.token_hex(6)}-{name}")


def _rename_all(staged: Mapping[str, str]) -> None:
    """Rename every temporary file onto its destination, or undo every rename done.

    Each rename stays within one directory.  An older destination file is first renamed aside
    (same directory) so that it can be put back if a later rename fails.
    """
    done: list[tuple[str, str | None]] = []  # (destination, where its older file was set aside)
    try:
        for dst, tmp in staged.items():
            aside = None
            if os.path.lexists(dst):
                aside = _temporary_name(dst)
                os.replace(dst, aside)
            done.append((dst, aside))
            os.replace(tmp, dst)
    except BaseException:  # OSError or Ctrl-C: undo every rename done
        for dst, aside in reversed(done):
            if os.path.lexists(staged[dst]):  # the new file never arrived
                if aside is not None:
                    os.replace(aside, dst)
                continue
            _unlink_quietly(dst)
            if aside is not None:
                os.replace(aside, dst)
        raise
    for _, aside in done:
        if aside is not None:
            _unlink_quietly(aside)


def _unlink_quietly(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


# --- files staged ahead ----------------------------------------------------------------------


#: Name prefix of the thread that stages files ahead (see :class:`FilesAhead`).
AHEAD_THREAD = "prcurve-ahead"


class FilesAhead:
    """Files of a report staged ahead of the others, in one background thread.

    Use it as a context manager around computing the report and its :func:`write_tree`
    (``ahead=``).  :meth:`start` stages a file exactly as :func:`write_tree` would (a hidden
    temporary file in the directory it goes to, directories made as needed) but in the
    background, and returns at once; an error is kept and raised by :func:`write_tree`, as if
    the file were written there.  Leaving the block, whatever :func:`write_tree` did not commit
    (on any error or Ctrl-C) is removed: the file being written is stopped at its next block of
    rows and the files not started yet are cancelled, the thread is joined, then the temporary
    files and the directories made for them are removed.

    The thread runs from the first :meth:`start` until the block ends; with the ``fork`` start
    method, fork no more processes meanwhile (a child would inherit locks the thread holds).
    """

    def __init__(self, out_dir: str) -> None:
        self.out_dir = os.path.abspath(out_dir)
        self._pool: ThreadPoolExecutor | None = None
        self._temporary: dict[str, str] = {}  # rel → its temporary file (named before written)
        self._writes: dict[str, Future[None]] = {}  # rel → its write (or its staging error)
        self._created: list[str] = []  # directories made here, outermost first
        self._stop = Event()  # set when the block ends: the files not committed are not needed

    def __enter__(self) -> FilesAhead:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __contains__(self, rel: object) -> bool:
        return rel in self._writes

    def start(self, rel: str, content: Content) -> None:
        """Start staging ``content`` for ``out_dir/rel`` (``/``-separated) in the background."""
        if rel in self._temporary:
            raise ValueError(f"rel: {rel!r} is staged already; expected a new file")
        dst = os.path.join(self.out_dir, *rel.split("/"))
        from concurrent.futures import Future, ThreadPoolExecutor

        tmp = self._temporary[rel] = _temporary_name(dst)  # named first: removed on any exit
        try:  # here, not in the thread: write_tree may be making directories later meanwhile
            _check_targets(self.out_dir, [dst])
            _make_dirs(os.path.dirname(dst), self._created)
        except OSError as exc:
            failed: Future[None] = Future()
            failed.set_exception(exc)
            self._writes[rel] = failed
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=AHEAD_THREAD)
        self._writes[rel] = self._pool.submit(_write_one, tmp, content, self._stop)

    def wait(self, rels: Iterable[str]) -> dict[str, str]:
        """Wait until the files ``rels`` are staged (raising a staging error); rel → temporary
        file.  They stay this object's to remove until :meth:`committed`."""
        out = {}
        for rel in rels:
            self._writes[rel].result()
            out[rel] = self._temporary[rel]
        return out

    def committed(self, rels: Iterable[str]) -> None:
        """The files ``rels`` are in place: no longer this object's to remove."""
        for rel in rels:
            del self._temporary[rel], self._writes[rel]
        if not self._temporary:
            self._created.clear()  # they hold the committed files now

    def close(self) -> None:
        """Join the thread, then remove every file not committed and the directories made."""
        interrupted: BaseException | None = None
        self._stop.set()  # what is still being written is not committed: removed below
        while self._pool is not None:
            try:  # a second Ctrl-C must not leave the thread writing while files are removed
                self._pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None
            except KeyboardInterrupt as exc:
                interrupted = exc
        for tmp in self._temporary.values():
            with contextlib.suppress(OSError):  # also never made (no folder where it goes)
                os.unlink(tmp)
        self._temporary.clear()
        self._writes.clear()
        for d in reversed(self._created):
            with contextlib.suppress(OSError):
                os.rmdir(d)
        self._created.clear()
        if interrupted is not None:
            raise interrupted
