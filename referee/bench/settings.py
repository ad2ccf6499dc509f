"""The deployed settings plus the bare view, for ``manage.py bench_http`` only."""

import os

from referee.settings import *  # noqa: F403

ROOT_URLCONF = "referee.bench.urls"
# Production static files need a manifest; the benchmark collects them into a temporary folder.
STATIC_ROOT = os.environ.get("REFEREE_BENCH_STATIC_ROOT", STATIC_ROOT)  # noqa: F405
