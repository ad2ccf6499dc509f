FROM python:3.11-slim
# The build names its release (every worker of it shares kept pages; the next never reads them).
ARG REFEREE_RELEASE=unnamed
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 FRAGMENT_CACHE_DIR=/tmp/referee-fragments \
    REFEREE_RELEASE=${REFEREE_RELEASE}
WORKDIR /app
COPY pyproject.toml ./
COPY referee ./referee
COPY rules ./rules
COPY templates ./templates
COPY static ./static
COPY manage.py ./
COPY deploy ./deploy
# The runtime dependencies only: the image talks to the PostgreSQL that DATABASE_URL names,
# so the embedded server's extra stays out.
RUN pip install --no-cache-dir . && DEBUG=false SECRET_KEY=collectstatic DATABASE_URL=postgres://x/x \
    python manage.py collectstatic --no-input
USER nobody
EXPOSE 8000
