"""Where a benchmark's CPU went, read from Linux's /proc: the app servers (by process
group), the PostgreSQL backends serving the benchmark's database, the load generator, and
everything else on the machine. Used to say on which resource two app servers stop."""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: str) -> tuple[str, int, float] | None:
    """(command name, process group, CPU seconds) of one process, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    # after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    return name, int(fields[2]), (int(fields[11]) + int(fields[12])) / TICK


def _machine_busy() -> float:
    """CPU seconds the whole machine spent not idle, over all cores."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return (sum(values[:8]) - idle) / TICK


@dataclass
class Sample:
    processes: dict[int, tuple[str, int, float]]  # pid: (name, process group, CPU seconds)
    children: float  # CPU seconds of this process's finished children (the load generator's runs)
    busy: float


def sample() -> Sample:
    processes = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit() and (found := _stat(pid)) is not None:
            processes[int(pid)] = found
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Sample(processes, usage.ru_utime + usage.ru_stime, _machine_busy())


def spent(
    before: Sample, after: Sample, *, server_groups: set[int], database_pids: set[int]
) -> dict[str, float]:
    """CPU seconds the app servers, the database's backends, the load generator (this
    process's children that finished meanwhile) and the rest of the machine spent."""
    parts = {"app servers": 0.0, "PostgreSQL": 0.0}
    for pid, (_name, group, seconds) in after.processes.items():
        earlier = before.processes.get(pid)
        delta = seconds - (earlier[2] if earlier and earlier[1] == group else 0.0)
        if group in server_groups:
            parts["app servers"] += delta
        elif pid in database_pids:
            parts["PostgreSQL"] += delta
    parts["load generator"] = after.children - before.children
    parts["everything else"] = max(after.busy - before.busy - sum(parts.values()), 0.0)
    return parts
