"""The live-view part of the HTTP benchmark (filled in with the server-sent events)."""


def measure(bench, env: dict, data: dict) -> None:
    bench.say("")
    bench.say("Live view: not measured yet.")
