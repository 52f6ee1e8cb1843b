"""The Celery application: broker from REDIS_URL, tasks run in-process when it is unset."""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "platform.settings")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# Database connections in workers follow DB_CONN_MAX_AGE, as web processes do.
# Celery's Django fixup would close them around every task (30-130 ms to reopen
# here, measured by bench/settlement.py); settings set CELERY_DB_REUSE_MAX to
# turn that off, and these hooks let Django drop a connection that is broken or
# older than its maximum age, before and after each task.
@signals.task_prerun.connect
@signals.task_postrun.connect
def _close_old_connections(sender=None, **kwargs) -> None:
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # an eager task runs inside its caller's transaction
    from django.db import close_old_connections

    close_old_connections()


# A settlement batch allocates a few hundred thousand short-lived objects (hand states,
# rows, broadcast frames). With the collector's defaults, a young collection runs every
# 700 allocations and the older generations, which hold every module, model and setting
# the worker loaded, are traversed again and again: about 0.4 ms of CPU per settled hand
# (bench/settlement.py). Once the worker is up, its long-lived objects are frozen out of
# the collector and young collections run less often; cycles are still collected.
GC_YOUNG_THRESHOLD = 10_000


@signals.worker_ready.connect
@signals.worker_process_init.connect
def _settle_the_collector(**kwargs) -> None:
    import gc

    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(max(GC_YOUNG_THRESHOLD, _young), middle, old)
