"""The garbage collector of a long-running process (ASGI server, Celery worker), settled once it is up.

A table move or a settlement batch allocates many short-lived objects (hand
states, rows, frames). With the collector's defaults a young collection runs
every 700 allocations, and the older generations, which hold every module,
model and setting the process loaded, are traversed again and again; a full
collection of an ASGI process under the load bench took up to 0.9 s of wall
time on the busy host, every socket waiting behind it. Once the process has
loaded what it keeps, those objects are frozen out of the collector and young
collections run less often. Cycles made later are still collected.
"""

from __future__ import annotations

import gc

GC_YOUNG_THRESHOLD = 10_000


def settle_collector() -> None:
    """Freeze what the process holds now out of the collector and make young collections rarer."""
    gc.collect()
    gc.freeze()
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(GC_YOUNG_THRESHOLD, young), middle, old)
