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
