"""interrupts_deferred: a SIGINT inside the block is raised only when the block ends."""

import os
import signal
import threading

import pytest

from prcurve._reporting._interrupts import interrupts_deferred


def test_signal_inside_is_raised_at_the_end():
    reached_end_of_block = False
    with pytest.raises(KeyboardInterrupt), interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs at one of these bytecodes: it only records
            pass
        reached_end_of_block = True
    assert reached_end_of_block
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_no_signal_no_exception_and_the_handler_restored():
    with interrupts_deferred():
        value = 1
    assert value == 1
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_other_threads_and_other_handlers_are_left_alone():
    seen = []

    def mine(signum, frame):
        seen.append(signum)

    old = signal.signal(signal.SIGINT, mine)
    try:
        with interrupts_deferred():
            assert signal.getsignal(signal.SIGINT) is mine
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):
                pass
        assert seen == [signal.SIGINT]  # the caller's own handler ran, nothing deferred
    finally:
        signal.signal(signal.SIGINT, old)
    errors = []

    def in_thread():
        try:
            with interrupts_deferred():  # signal.signal would fail here: nothing is replaced
                pass
        except Exception as exc:  # pragma: no cover - the failure this test catches
            errors.append(exc)

    t = threading.Thread(target=in_thread)
    t.start()
    t.join()
    assert errors == []


def test_a_held_back_signal_wins_over_an_error_in_the_block():
    with pytest.raises(KeyboardInterrupt) as info, interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass
        raise ImportError("a module failing to load after the Ctrl-C")
    assert isinstance(info.value.__cause__, ImportError)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_error_without_a_signal_passes_through():
    with pytest.raises(ImportError, match="no signal"), interrupts_deferred():
        raise ImportError("no signal")
