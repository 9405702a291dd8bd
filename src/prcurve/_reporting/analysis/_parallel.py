"""Running the report's resampling steps: here, or in worker processes when they pay.

Each step is ``(key, label, function, args, plan)``; :func:`_run_tasks` runs them one after
the other, or in ``jobs`` processes (forked where safe, so the workers inherit the rows instead
of unpickling a copy per step), and stops the workers cleanly on Ctrl-C.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..._core._disk import release_all
from .._before_fork import settle
from .._interrupts import interrupts_deferred
from .._memory import trim_memory
from .._progress import announce
from ._sizing import Plan

__all__ = [
    "PARALLEL_MIN_SECONDS",
    "Results",
    "SideTask",
    "Task",
    "available_cpus",
    "worker_count",
]

Task = tuple[tuple[str, str], str, Callable[..., Any], tuple[Any, ...], Plan]


def _timed(task: Callable[..., tuple[Any, list[str]]], *args: Any, **kw: Any) -> Any:
    """Run a task; return its result, its notes and its wall time (measured where it runs)."""
    t0 = time.perf_counter()
    res, notes = task(*args, **kw)
    release_all()  # a curve on disk: the pages its reads mapped go back between steps
    return res, notes, time.perf_counter() - t0


#: Below this many expected seconds of resampling (one core, ``_sizing.COST``) the steps run in
#: this process: starting worker processes costs something.  Forked workers are cheap: on 2 shared
#: CPUs the report took as long or less with them at 3000, 10⁴, 10⁵ and 10⁶ rows (2026); 0.3
#: keeps the small reports (≈ 0.2 expected seconds at a few thousand rows) in this process.
PARALLEL_MIN_SECONDS = 0.3


def worker_count(jobs: int, *, auto: bool) -> int:
    """Worker processes for ``jobs`` processes: ``jobs``, or ``jobs - 1`` when ``auto``
    (``--jobs`` not given: ``jobs`` is the CPUs available), so that the main process keeps a
    CPU for its own work beside the workers (the derived curves, the curve files, loading
    matplotlib and drawing the figures); at least one.

    Measured on 2 CPUs (2026-11-26, ``prcurve report``, two scorers, 5 % positives; one worker
    against two): 10⁶ rows 2.24 s against 2.53 s (medians of 7 alternating runs); 10⁷ rows
    8.3–10.2 s and a peak of 1,318–1,323 MiB summed over the processes (PSS) against
    7.5–7.9 s and 1,424–1,555 MiB (each worker resamples every row for the operating points);
    the Dask report on 10⁸ rows took as long with either.
    """
    return jobs - 1 if auto and jobs > 1 else max(jobs, 1)


def available_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _start_method() -> str:
    import multiprocessing

    # fork is fastest, but from Python 3.12 forking a process with threads is deprecated
    if sys.platform.startswith("linux") and sys.version_info < (3, 12):
        return "fork"
    if "forkserver" in multiprocessing.get_all_start_methods():
        return "forkserver"
    return "spawn"


#: The steps a forked worker runs, inherited from the main process instead of pickled: each
#: step's arrays would otherwise be copied into a pickle per step (the main process's peak).
_FORKED_STEPS: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []


def _forked_step(index: int) -> Any:
    """Run step ``index`` of :data:`_FORKED_STEPS` (in a forked worker)."""
    fn, args = _FORKED_STEPS[index]
    return _timed(fn, *args)


@contextlib.contextmanager
def _frozen_objects(forked: bool) -> Iterator[None]:
    """While the workers are forked, this process's objects are out of the garbage
    collector's reach (``gc.freeze``): a forked worker's collections then never write to the
    inherited objects' headers, which would copy every page of them (matplotlib, SciPy and
    the data's Python objects) into each worker."""
    if not forked:
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _executor(jobs: int) -> Any:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = _start_method()
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context(method),
        initializer=_ignore_interrupts,
    )


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process (which stops them): no traceback from each."""
    import signal

    from .._memory import THRESHOLD, set_mmap_threshold, single_blas_thread

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    set_mmap_threshold(THRESHOLD)  # blocks re-use freed memory (see ._memory)
    single_blas_thread()  # no BLAS helper thread spinning on another worker's CPU


def _stop_workers(pool: Any) -> None:
    """Cancel what has not started, end the workers now (on Ctrl-C) and join the pool's
    manager thread: left running, it raced the interpreter's exit (``concurrent.futures``'
    exit hook woke it through a pipe it had closed: "Exception ignored ... Bad file
    descriptor" after the one-line message)."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # shutdown forgets them
    manager = getattr(pool, "_executor_manager_thread", None)  # and its thread
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in workers:
        proc.terminate()
    for proc in workers:
        proc.join(STOP_SECONDS)
    if manager is not None:
        manager.join(STOP_SECONDS)  # it ends once it sees the workers gone


#: How long stopping waits for each terminated worker and for the pool's thread.
STOP_SECONDS = 5.0


Results = dict[tuple[str, str], tuple[Any, list[str], float]]


#: Work that is not a resampling step but may run beside them: ``(key, label, function, args)``,
#: the function returning ``(result, notes)`` like a step's.
SideTask = tuple[tuple[str, str], str, Callable[..., Any], tuple[Any, ...]]


def _run_tasks(
    tasks: list[Task],
    jobs: int,
    progress: Any,
    meanwhile: Callable[[], None] | None = None,
    on_result: Callable[[Results], None] | None = None,
    side: list[SideTask] | None = None,
    jobs_auto: bool = False,
) -> Results:
    """Run the steps, in ``jobs`` processes when the work is large enough to pay for them
    (in :func:`worker_count` worker processes, beside this one; ``jobs_auto``: ``jobs`` was not
    asked for).

    ``meanwhile`` is work of the main process that the steps do not need: it runs while the
    worker processes resample (before the steps, when they run here).  ``on_result(results)``
    is called after each step's result is in (the results so far).  ``side`` tasks (not
    steps: not planned, not counted on the progress bar) run in the workers too, queued after
    the first ``jobs`` steps, or here after the steps; their results are in the returned dict
    under their keys.  Steps start in the order given.
    """
    results: Results = {}
    side = side or []
    if min(jobs, len(tasks)) > 1 and sum(t[4].seconds for t in tasks) >= PARALLEL_MIN_SECONDS:
        from concurrent.futures import as_completed

        jobs = min(worker_count(jobs, auto=jobs_auto), len(tasks))  # no idle worker
        announce(progress, f"bootstrap ({jobs} processes)")
        forked = _start_method() == "fork"
        queue = [(key, fn, args) for key, _, fn, args, _ in tasks]
        queue[jobs:jobs] = [(key, fn, args) for key, _, fn, args in side]  # after the first steps
        if forked:  # set before the pool forks its workers
            _FORKED_STEPS[:] = [(fn, args) for _, fn, args in queue]
        if forked:
            settle()  # no thread importing while the workers are forked (see _before_fork)
            trim_memory()  # free heap pages not inherited: re-used here, they would be copied
        try:
            with _executor(jobs) as pool:
                try:
                    # the workers are forked here: a Ctrl-C inside a fork's handlers (logging's
                    # lock release) left that lock held and the report hung; held back to after
                    with interrupts_deferred(), _frozen_objects(forked):
                        futures = {
                            pool.submit(_forked_step, i)
                            if forked
                            else pool.submit(_timed, fn, *args): key
                            for i, (key, fn, args) in enumerate(queue)
                        }
                    if meanwhile is not None:  # with fork, all workers exist now: may start threads
                        meanwhile()
                        announce(progress, f"bootstrap ({jobs} processes)")
                    sides = {key for key, _, _, _ in side}
                    done = 0
                    for fut in as_completed(futures):
                        results[futures[fut]] = fut.result()
                        if futures[fut] in sides:
                            continue
                        done += 1
                        if on_result is not None:
                            on_result(results)
                        if progress is not None:
                            progress(done, len(tasks))
                except KeyboardInterrupt:
                    _stop_workers(pool)
                    raise
        finally:
            _FORKED_STEPS.clear()
    else:
        if meanwhile is not None:
            meanwhile()
        for key, label, fn, args, _ in tasks:
            announce(progress, label)
            results[key] = _timed(fn, *args, progress=progress)
            if on_result is not None:
                on_result(results)
            if progress is not None:
                progress(1, 1)
        for key, label, fn, args in side:  # after the steps: the figures wait for the bands
            announce(progress, label)
            results[key] = _timed(fn, *args)
    return results
