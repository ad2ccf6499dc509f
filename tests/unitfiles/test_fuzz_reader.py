"""Whatever a file holds, the reader answers with a sheet or a UnitFileError in plain words:
never another exception, and never a sheet the sheet contract refuses."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.sheets.document import normalise
from referee.unitfiles import UnitFileError, read_unit_text, write_unit_text

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "referee" / "unitfiles" / "samples").iterdir())
HOSTILE = st.one_of(
    st.text(max_size=60),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.sampled_from(
        ["", "-1", "1e309", "NaN", "<armor>", "</armor>", "-Empty-", "Weapons:999", "\x00", "\udcff"]
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sample=st.sampled_from(SAMPLES), edits=st.lists(st.tuples(st.integers(0, 400), HOSTILE), max_size=4))
def test_a_mangled_unit_file_reads_or_is_refused_in_plain_words(sample, edits):
    lines = sample.read_text().split("\n")
    for index, value in edits:
        position = index % len(lines)
        line = lines[position]
        key = line.partition(":")[0] if ":" in line and not line.startswith("<") else ""
        lines[position] = f"{key}:{value}" if key else value
    data = "\n".join(lines).encode("utf-8", errors="surrogatepass")
    try:
        doc = read_unit_text(data, name=sample.name)
    except UnitFileError as error:
        assert str(error) and "Traceback" not in str(error)
        return
    assert normalise(doc) == doc
    _, text = write_unit_text(doc)
    assert read_unit_text(text, name=sample.name) == doc


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=2000), name=st.sampled_from(["x.mtf", "x.blk", "pasted", "x.zip"]))
def test_random_bytes_are_refused_or_read_never_crash(data, name):
    try:
        doc = read_unit_text(data, name=name)
    except UnitFileError as error:
        assert error.message
    else:
        assert normalise(doc) == doc
