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
# rows, broadcast frames): with the collector's defaults about 0.4 ms of CPU per settled
# hand went to traversing the worker's long-lived objects again and again
# (bench/settlement.py). Settled once the worker is up (platform/collector.py).
@signals.worker_ready.connect
@signals.worker_process_init.connect
def _settle_the_collector(**kwargs) -> None:
    from platform.collector import settle_collector

    settle_collector()
