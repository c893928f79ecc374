"""gunicorn configuration: `gunicorn -c deploy/gunicorn.conf.py casino.wsgi:application`.

Every value can be overridden from the environment (GUNICORN_*), so the same file serves the
systemd units and the container.
"""

from __future__ import annotations

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# One sync worker per core. A console action is CPU work (Django, the rules engine, the
# templates) and short waits on a database that runs on the same machine: more workers than
# cores only make them and PostgreSQL fight for the cores. bench/console_load.py, 2 cores,
# 16 actions in flight: 2 workers 140 actions/s (p95 140 ms), 3 workers 115/s, 5 workers
# (2 x cores + 1, gunicorn's usual advice for workers that wait on the network) 94/s (p95
# 212 ms). With the database on another machine, try GUNICORN_WORKERS = 2 x cores + 1.
workers = int(os.environ.get("GUNICORN_WORKERS", str(multiprocessing.cpu_count())))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "sync"
# Requests are short (one service call); anything slow goes to Celery.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5
# Recycle workers now and then to bound memory growth; jitter avoids all restarting together.
# Workers are recycled now and then (a guard against slow leaks). The application is loaded
# once by the master and the workers are forked from it (`preload_app`): a recycled worker is
# back in milliseconds, not after a second of imports with the table screens waiting (with one
# worker per core, a second is half the room's capacity; bench/console_load.py saw 1.2 s stalls).
preload_app = True
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "10000"))
max_requests_jitter = 200
# nginx sets X-Forwarded-Proto; trust it from the proxy only.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
proc_name = "casino-web"
