"""What only the HTTP benchmark mounts: settings that add a bare view beside the real
URLs, so the benchmark can measure Django's own ceiling on the same server in the same
run. Production never loads this package."""
