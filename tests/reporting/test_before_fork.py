import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

from prcurve._reporting import _before_fork


def test_settle_waits_for_registered_work_and_forgets_it():
    release = threading.Event()
    with ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(lambda: release.wait(5) and time.sleep(0.05))
        _before_fork.register(future)
        threading.Timer(0.05, release.set).start()
        _before_fork.settle()
        assert future.done()
    assert _before_fork._PENDING == []


def test_settle_leaves_failures_to_their_owner_and_skips_cancelled_work():
    failed: Future = Future()
    failed.set_exception(RuntimeError("boom"))
    cancelled: Future = Future()
    cancelled.cancel()
    _before_fork.register(failed)
    _before_fork.register(cancelled)
    _before_fork.settle()  # no error here: the owner raises it when it asks for the result
    assert _before_fork._PENDING == []
