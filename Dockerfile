# The one image for the web (ASGI), worker and beat services of docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# gettext compiles the translation catalogues (zh-hans is the default language).
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
# Run from /app so that the project's ``platform`` package is found before the standard library's.
RUN DEBUG=0 SECRET_KEY=build-only-not-secret python manage.py compilemessages --ignore=".venv" \
    && DEBUG=0 SECRET_KEY=build-only-not-secret python manage.py collectstatic --noinput \
    && useradd --create-home --uid 10001 app \
    && chown -R app:app /app
USER app

EXPOSE 8000
CMD ["python", "-m", "uvicorn", "platform.asgi:application", "--host", "0.0.0.0", "--port", "8000"]
