"""WSGI entry point (HTTP only; the product is served over ASGI, see asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "platform.settings")
application = get_wsgi_application()
