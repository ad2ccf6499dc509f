"""gunicorn's settings for a deployment (``gunicorn -c deploy/gunicorn.conf.py``).

The app sits behind the buffering proxy of ``deploy/nginx.conf``, which hands gunicorn only
complete requests; these limits are the second line for anything that reaches it directly."""

bind = "0.0.0.0:8000"
workers = 3
worker_class = "sync"
# A worker that has not answered within 30 s is killed and replaced (the proxy waits 35 s).
timeout = 30
graceful_timeout = 30
keepalive = 2
# Request line, header count and header size, as in the proxy (4 buffers of 8 KiB).
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = "-"
