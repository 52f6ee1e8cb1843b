"""The Celery application: broker from REDIS_URL, tasks run in-process when it is unset."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "platform.settings")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
