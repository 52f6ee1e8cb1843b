"""The table sockets' database calls: one lane per table on a shared pool (consumers.TablePool, TableLane)."""

from __future__ import annotations

import threading
import time

from rooms.tables.consumers import TableLane, TablePool


def test_a_table_s_calls_run_one_at_a_time_in_order_while_other_tables_use_free_threads():
    pool = TablePool(3)
    slow, other = TableLane(pool), TableLane(pool)
    running, overlapped, done = [], [], []
    lock = threading.Lock()

    def call(name: str, seconds: float) -> str:
        with lock:
            if any(r.startswith(name[0]) for r in running):
                overlapped.append(name)
            running.append(name)
        time.sleep(seconds)
        with lock:
            running.remove(name)
            done.append(name)
        return name

    slow_calls = [slow.submit(call, f"s{n}", 0.05) for n in range(4)]
    time.sleep(0.01)
    quick = other.submit(call, "o0", 0)
    assert quick.result(timeout=1) == "o0"
    assert "s3" not in done  # the other table did not wait for the slow table's queue
    assert [f.result(timeout=2) for f in slow_calls] == ["s0", "s1", "s2", "s3"]
    assert [name for name in done if name[0] == "s"] == ["s0", "s1", "s2", "s3"]
    assert overlapped == []  # never two calls of one table at once


def test_an_error_goes_to_its_caller_and_the_lane_goes_on():
    lane = TableLane(TablePool(1))

    def fail():
        raise ValueError("refused")

    failing = lane.submit(fail)
    after = lane.submit(lambda: "next")
    try:
        failing.result(timeout=1)
    except ValueError as error:
        assert str(error) == "refused"
    else:
        raise AssertionError("the error was lost")
    assert after.result(timeout=1) == "next"


def test_every_thread_of_the_pool_runs_a_job():
    pool = TablePool(4)
    seen = set()
    pool.on_every_thread(lambda: seen.add(threading.get_ident()))
    assert seen == {thread.ident for thread in pool.threads}


def test_shutdown_finishes_the_running_and_the_queued_calls_then_refuses_new_ones():
    pool = TablePool(1)
    lane, other = TableLane(pool), TableLane(pool)
    release = threading.Event()
    done = []

    def call(name: str) -> str:
        if name == "first":
            release.wait(5)
        done.append(name)
        return name

    futures = [lane.submit(call, "first"), lane.submit(call, "second"), other.submit(call, "other")]
    stopping = threading.Thread(target=pool.shutdown)
    stopping.start()
    time.sleep(0.05)
    assert stopping.is_alive()  # waits for the calls already made
    release.set()
    stopping.join(5)
    assert not stopping.is_alive()
    assert [f.result(timeout=0) for f in futures] == ["first", "second", "other"]
    assert sorted(done) == ["first", "other", "second"]
    assert not any(thread.is_alive() for thread in pool.threads)
    try:
        lane.submit(call, "late")
    except RuntimeError:
        pass
    else:
        raise AssertionError("a call was accepted after the shutdown")
    pool.shutdown()  # again: nothing to do


def _exit_with(script: str) -> tuple[str, float]:
    import os
    import subprocess
    import sys

    code = "import django; django.setup()\nfrom rooms.tables.consumers import TableLane, TablePool\n" + script
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="platform.settings")
    started = time.monotonic()
    finished = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, env=env, check=True
    )
    return finished.stdout, time.monotonic() - started


def test_the_calls_already_made_finish_when_the_process_exits():
    # The main thread returns while one call runs and another waits in its lane:
    # both finish before the process is gone (the threads are daemon threads).
    out, _seconds = _exit_with(
        "import time\n"
        "lane = TableLane(TablePool(2))\n"
        "def call(name):\n"
        "    time.sleep(0.3)\n"
        "    print(name, flush=True)\n"
        "lane.submit(call, 'running'); lane.submit(call, 'queued')\n"
        "time.sleep(0.05)\n"
    )
    assert out.split() == ["running", "queued"]


def test_an_idle_pool_does_not_hold_the_exit():
    out, seconds = _exit_with("lane = TableLane(TablePool(4))\nprint(lane.submit(lambda: 'done').result())\n")
    assert out.split() == ["done"]
    assert seconds < 20
