"""uvicorn serving ``platform.asgi:application``, plus a probe of the process's per-table structures.

    python bench/soak_asgi.py --port 18800 --probe /tmp/probe.jsonl [--every 10] [--tracemalloc]

Used only by ``bench/soak.py`` (never imported by the site). It runs the same
server as ``python -m uvicorn platform.asgi:application --lifespan off`` (same
loop, protocol and WebSocket implementations, permessage-deflate on) and, every
``--every`` seconds, appends one JSON line to ``--probe``: the process's RSS and
the sizes of every structure the table and round sockets keep per table, per
user, per socket or per change (see ``sample``), and the objects alive after a
full garbage collection (run by the probe, so cyclic garbage the collector has
not reached yet is not counted as kept). With ``--tracemalloc`` each line
also carries the ten source lines whose allocations grew most since the first
sample (tracemalloc roughly doubles the CPU cost of everything; use it for a
short run).
"""

# ruff: noqa: E402 - the path is set before the imports, as in bench/load.py
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse
import asyncio
import gc
import json
import os
import time
import tracemalloc


def rss_kb(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def sample(*, started: float, baseline) -> dict:
    """The sizes of this process's per-table, per-user, per-socket and per-change structures (on the loop)."""
    from channels.layers import channel_layers

    from rooms import sockets
    from rooms.tables import consumers, play, timers

    figures: dict = {
        "t": round(time.monotonic() - started, 1),
        "rss_kb": rss_kb(),
        "tasks": len(asyncio.all_tasks()),
        "table_locks": len(sockets._table_locks),
        "sockets_counted": sum(sockets._sockets_per_user.values()),
        "users_counted": len(sockets._sockets_per_user),
        "tables_clocked": len(timers._watched),
        "kept_plays": play.kept_count(),
    }
    layer = channel_layers.backends.get("default")
    loop_layer = getattr(layer, "_layers", {}).get(asyncio.get_running_loop())  # channels_redis' pub/sub
    if loop_layer is not None:
        figures["layer_channels"] = len(loop_layer.channels)
        figures["layer_groups"] = len(loop_layer.groups)
        figures["layer_queued"] = sum(q.qsize() for q in list(loop_layer.channels.values()))
    figures["gc_freed"] = gc.collect()  # a full collection first: garbage not reached yet is not kept
    live = [o for o in gc.get_objects() if isinstance(o, consumers.TableConsumer)]
    figures["consumers_alive"] = len(live)
    figures["gc_objects"] = len(gc.get_objects())
    if baseline is not None:
        top = tracemalloc.take_snapshot().compare_to(baseline, "lineno")[:10]
        figures["tracemalloc_top"] = [
            f"{s.traceback[0].filename.replace(str(ROOT) + '/', '')}:{s.traceback[0].lineno} "
            f"{s.size_diff // 1024:+d} KiB {s.count_diff:+d}"
            for s in top
        ]
    return figures


async def probe(path: Path, every: float, trace: bool) -> None:
    started = time.monotonic()
    baseline = None
    while True:
        await asyncio.sleep(every)
        if trace and baseline is None:
            baseline = tracemalloc.take_snapshot()
        try:
            line = sample(started=started, baseline=baseline)
        except Exception as error:  # noqa: BLE001 - a probe must never stop the server
            line = {"error": repr(error)}
        with path.open("a") as out:
            out.write(json.dumps(line) + "\n")


async def serve(args) -> None:
    import uvicorn

    config = uvicorn.Config(
        "platform.asgi:application",
        host=args.host,
        port=args.port,
        lifespan="off",
        log_level="warning",
        access_log=False,
        ws_per_message_deflate=True,
    )
    server = uvicorn.Server(config)
    task = asyncio.get_running_loop().create_task(probe(args.probe, args.every, args.tracemalloc))
    try:
        await server.serve()
    finally:
        task.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--probe", type=Path, required=True, help="append one JSON line per sample here")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--tracemalloc", action="store_true", help="also the top allocation growth by line")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "platform.settings")
    if args.tracemalloc:
        tracemalloc.start(1)
    try:
        import uvloop
    except ImportError:
        asyncio.run(serve(args))
    else:
        uvloop.run(serve(args))


if __name__ == "__main__":
    main()
