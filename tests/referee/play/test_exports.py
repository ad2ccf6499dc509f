"""Turn-log exports: CSV rows per roll, a JSON file verify_log accepts, readable Markdown,
turn ranges, players never get unrevealed secrets, and everything streams."""

import csv
import io
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.http import StreamingHttpResponse
from django.urls import reverse

from referee.play import integrity, log_sql, services
from referee.play.models import LogEntry, Visibility
from referee.play.wording import when
from tests.factories import ShipFactory
from tests.referee.history import ruled_jump

pytestmark = pytest.mark.django_db

MICRO_FRACTURES = [6, 6, 4, 5]  # malfunction 12: a mishap; effect 9: micro-fractures
NO_MISHAP = [3, 4]


def next_turn(cast) -> None:
    for _ in range(4):
        services.campaign_phase_advance(campaign=cast.campaign, actor=cast.gm)


@pytest.fixture
def log(cast):
    """Turn 1: two jumps (2 rolls, 1 roll) and the phases; turn 2: a GM-only jump and a
    clock advance; turn 3: one jump. 13 entries, seq 7 secret."""
    cast.campaign.name = "Tukayyid"
    cast.campaign.save()
    ship = ShipFactory(
        campaign=cast.campaign, name="Waterloo", kf_integrity=20, kf_integrity_max=20, shared=True
    )

    def jump(dice, **extra):
        return ruled_jump(cast.campaign, cast.gm, ship, dice=dice, **extra)

    jump(MICRO_FRACTURES)
    jump(NO_MISHAP)
    next_turn(cast)
    jump(MICRO_FRACTURES, visibility=Visibility.GM)
    services.campaign_clock_advance(campaign=cast.campaign, seconds=3600, reason="", actor=cast.gm)
    next_turn(cast)
    jump(MICRO_FRACTURES)
    assert cast.campaign.log.count() == 13
    assert LogEntry.objects.get(campaign=cast.campaign, seq=7).secret
    return cast


def export(cast, who: str, fmt: str, **params):
    url = reverse("play:export", args=[cast.campaign.code, fmt])
    return cast.client(who).get(url, params)


def body(response) -> str:
    assert isinstance(response, StreamingHttpResponse)
    return b"".join(response.streaming_content).decode()


def csv_rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(body(response))))


def turns_of(cast, **filters) -> dict[int, int]:
    return dict(LogEntry.objects.filter(campaign=cast.campaign, **filters).values_list("seq", "turn"))


def verify_file(path) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_log", file=str(path), stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


# --- CSV ---------------------------------------------------------------------------------


def test_csv_has_one_row_per_roll_and_one_for_an_entry_without_rolls(log):
    rows = csv_rows(export(log, "gm", "csv"))
    expected = []
    for entry in LogEntry.objects.filter(campaign=log.campaign).order_by("seq"):
        for roll in entry.rolls or [None]:
            expected.append(
                (
                    str(entry.seq),
                    roll["label"].capitalize() if roll else "",
                    " ".join(map(str, roll["values"])) if roll else "",
                )
            )
    assert [(r["Entry"], r["Roll"], r["Dice"]) for r in rows] == expected
    assert [(r["Roll"], r["Dice"], r["Total"]) for r in rows if r["Entry"] == "1"] == [
        ("Malfunction", "6 6", "12"),
        ("Effect", "4 5", "9"),
    ]
    advance = next(r for r in rows if r["Entry"] == "3")
    assert (advance["Procedure"], advance["Roll"], advance["Dice"], advance["Total"]) == (
        "Turn and phase",
        "",
        "",
        "",
    )
    assert advance["Outcome"].startswith("Turn 1:")
    assert list(rows[0]) == [
        "Entry",
        "Turn",
        "Phase",
        "Time",
        "Procedure",
        "Title",
        "Subjects",
        "Roll",
        "Dice",
        "Modifiers",
        "Total",
        "Target",
        "Outcome",
        "Changes",
        "Rule",
        "Dice source",
        "Visibility",
        "Undone by",
    ]


# --- JSON ----------------------------------------------------------------------------------


def test_the_gms_json_export_is_the_whole_chain_and_verifies(log, tmp_path):
    text = body(export(log, "gm", "json"))
    document = json.loads(text)
    assert document["partial"] is False and document["format"] == "referee-log/1"
    assert [e["seq"] for e in document["entries"]] == list(range(1, 14))
    path = tmp_path / "log.json"
    path.write_text(text, encoding="utf-8")
    assert verify_file(path) == (0, "chain holds: 13 entries\n")


def test_an_edited_json_export_fails_verification_at_the_edit(log, tmp_path):
    document = json.loads(body(export(log, "gm", "json")))
    document["entries"][4]["summary"] = "Turn 1: nothing to see."
    path = tmp_path / "log.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    status, out = verify_file(path)
    assert status == 1 and out.startswith("chain broken at #5 ")


def test_a_json_export_with_an_entry_dropped_is_caught(log, tmp_path):
    document = json.loads(body(export(log, "gm", "json")))
    del document["entries"][9]
    path = tmp_path / "log.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    status, out = verify_file(path)
    assert status == 1 and "seq 10 is missing" in out


def test_a_players_json_export_is_partial_and_verifies_entry_by_entry(log, tmp_path):
    """The player numbers the entries they see 1, 2, 3... in their JSON export too, and it
    still verifies: the hidden entry shows only as a link to an entry not in the file,
    never as a number or a count."""
    text = body(export(log, "player", "json"))
    document = json.loads(text)
    assert document["partial"] is True
    assert [e["seq"] for e in document["entries"]] == list(range(1, 13))
    assert not any("reversal_of_seq" in e for e in document["entries"])
    path = tmp_path / "player.json"
    path.write_text(text, encoding="utf-8")
    assert verify_file(path) == (
        0,
        "chain holds for the 12 entries included (partial export); entries were left out before #7\n",
    )


def test_a_players_json_export_cut_short_at_the_end_no_longer_verifies(log, tmp_path):
    document = json.loads(body(export(log, "player", "json")))
    del document["entries"][-1]
    document["count"], document["head"] = len(document["entries"]), document["entries"][-1]["hash"]
    path = tmp_path / "player.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    status, out = verify_file(path)
    assert status == 1 and "signature does not match" in out


def test_a_players_json_export_renumbered_to_hide_a_cut_no_longer_verifies(log, tmp_path):
    document = json.loads(body(export(log, "player", "json")))
    del document["entries"][3]
    for number, entry in enumerate(document["entries"], 1):
        entry["seq"] = number
    path = tmp_path / "player.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert verify_file(path)[0] == 1


def test_verify_log_file_refuses_what_is_not_a_json_export(log, tmp_path):
    from django.core.management.base import CommandError

    path = tmp_path / "log.csv"
    path.write_text(body(export(log, "gm", "csv")))
    with pytest.raises(CommandError) as error:
        verify_file(path)
    assert error.value.returncode == 2
    with pytest.raises(CommandError, match="cannot read"):
        verify_file(tmp_path / "missing.json")


# --- Markdown --------------------------------------------------------------------------------


def test_markdown_reads_as_a_log_with_turn_headings_summaries_and_dice(log):
    text = body(export(log, "gm", "md"))
    assert text.startswith("# Tukayyid: turn log\n")
    assert [line for line in text.splitlines() if line.startswith("## ")] == [
        "## Turn 1",
        "## Turn 2",
        "## Turn 3",
    ]
    lines = text.splitlines()
    first = lines.index(next(line for line in lines if line.startswith("- **#1 ")))
    entry = LogEntry.objects.get(campaign=log.campaign, seq=1)
    assert lines[first].startswith("- **#1 Jump: drive-system malfunction roll** (3067-")
    assert lines[first].endswith(f", Waterloo): {entry.words['summary']}")
    assert lines[first + 1 : first + 4] == [
        "  - Dice (the table's dice): Malfunction 6 6 (= 12); Effect 4 5 (= 9)",
        f"  - Changes: Waterloo K-F integrity: 20 → 19; Waterloo last jump at: — → {when(entry.game_time)}",
        "  - Rule: Explorer Corps: Drive-System Malfunctions; Malfunction Roll Modifiers Table; "
        "Drive-System Malfunctions Table",
    ]
    assert text.count("\n- **#") == 13
    # Within each turn a heading for each phase, so four "Next phase" entries do not bury the story.
    assert [line for line in lines if line.startswith("### ")][:4] == [
        "### Initiative Phase",
        "### Movement Phase",
        "### Combat Phase",
        "### End Phase",
    ]
    assert "|" not in text  # no tables: a forum post shows lists at any width


# --- turn ranges -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params,turns",
    [({"from_turn": 2, "to_turn": 2}, {2}), ({"from_turn": 2}, {2, 3}), ({"to_turn": 1}, {1})],
)
def test_a_turn_range_filters_every_format(log, params, turns):
    expected = sorted(seq for seq, turn in turns_of(log).items() if turn in turns)
    assert sorted({int(r["Entry"]) for r in csv_rows(export(log, "gm", "csv", **params))}) == expected
    document = json.loads(body(export(log, "gm", "json", **params)))
    assert [e["seq"] for e in document["entries"]] == expected
    assert document["partial"] is True
    markdown = body(export(log, "gm", "md", **params))
    assert {int(line.split()[-1]) for line in markdown.splitlines() if line.startswith("## Turn")} == turns
    assert sorted(
        int(line.split()[1].strip("*#")) for line in markdown.splitlines() if line.startswith("- **#")
    ) == (expected)


def test_a_turn_range_json_export_verifies_and_counts_what_came_before(log, tmp_path):
    text = body(export(log, "gm", "json", from_turn=2, to_turn=2))
    path = tmp_path / "turn2.json"
    path.write_text(text, encoding="utf-8")
    before = sum(1 for turn in turns_of(log).values() if turn < 2)
    status, out = verify_file(path)
    assert status == 0
    assert f"{before} earlier entries were not included: #1-#{before}" in out


def test_a_turn_range_names_the_file(log):
    response = export(log, "gm", "csv", from_turn=2, to_turn=3)
    assert response["Content-Disposition"] == 'attachment; filename="tukayyid-log-turns-2-3.csv"'


@pytest.mark.parametrize("fmt", ["csv", "json", "md"])
@pytest.mark.parametrize("params", [{"from_turn": "two"}, {"to_turn": "-1"}, {"from_turn": "1.5"}])
def test_a_bad_turn_parameter_is_400_not_500(log, fmt, params):
    response = export(log, "gm", fmt, **params)
    assert response.status_code == 400
    assert "must be a turn number" in response.content.decode()


@pytest.mark.parametrize("fmt", ["csv", "json", "md"])
def test_a_turn_number_too_large_for_the_database_exports_nothing_instead_of_failing(log, fmt):
    response = export(log, "gm", fmt, from_turn="9" * 30)
    assert response.status_code == 200
    text = body(response)
    assert "Waterloo" not in text and "#1 " not in text


# --- who gets what ------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["csv", "json", "md"])
def test_a_players_export_omits_unrevealed_secrets_until_revealed(log, fmt):
    def seqs() -> set[int]:
        text = body(export(log, "player", fmt))
        if fmt == "csv":
            return {int(r["Entry"]) for r in csv.DictReader(io.StringIO(text))}
        if fmt == "json":
            return {e["seq"] for e in json.loads(text)["entries"]}
        return {int(line.split()[1].strip("*#")) for line in text.splitlines() if line.startswith("- **#")}

    # Every export numbers the entries a player sees without the gap a hidden entry would
    # leave (the JSON one too: the hash covers no number).
    assert seqs() == set(range(1, 13))
    services.log_entry_reveal(entry=LogEntry.objects.get(campaign=log.campaign, seq=7), actor=log.gm)
    assert seqs() == set(range(1, 14))


def test_the_gms_export_includes_secrets(log):
    assert 7 in {e["seq"] for e in json.loads(body(export(log, "gm", "json")))["entries"]}


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
@pytest.mark.parametrize("fmt", ["csv", "json", "md"])
def test_outsiders_get_404(log, who, fmt):
    assert export(log, who, fmt).status_code == 404


def test_an_unknown_format_is_404(log):
    assert export(log, "gm", "xml").status_code == 404
    assert export(log, "player", "pdf").status_code == 404


@pytest.mark.parametrize(
    "fmt,content_type",
    [
        ("csv", "text/csv; charset=utf-8"),
        ("json", "application/json"),
        ("md", "text/markdown; charset=utf-8"),
    ],
)
def test_every_format_is_streamed_as_a_named_attachment(log, fmt, content_type):
    response = export(log, "player", fmt)
    assert response.status_code == 200
    assert isinstance(response, StreamingHttpResponse) and response.streaming
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == f'attachment; filename="tukayyid-log.{fmt}"'


def test_a_json_export_cut_short_at_the_end_no_longer_verifies(cast, tmp_path):
    from referee.play import integrity, services

    for _ in range(3):
        services.campaign_clock_advance(campaign=cast.campaign, seconds=60, reason="", actor=cast.gm)
    response = cast.client("gm").get(reverse("play:export", args=[cast.campaign.code, "json"]))
    document = json.loads(b"".join(response.streaming_content))
    assert document["count"] == 3 and document["head"] == document["entries"][-1]["hash"]
    assert integrity.verify_export(document).holds
    document["entries"].pop()
    report = integrity.verify_export(document)
    assert not report.holds
    assert "removed or added" in report.message()


def test_huge_integral_floats_hash_as_the_database_returns_them():
    from referee.play.models import canonical_json

    assert canonical_json({"x": 1e16, "y": [2.5, 3e20]}) == canonical_json(
        {"x": 10**16, "y": [2.5, 3 * 10**20]}
    )


# --- written by PostgreSQL, read back exactly ----------------------------------------------------


def test_the_json_postgresql_writes_is_each_entry_exactly_as_the_model_exports_it(log):
    services.log_entry_reverse(entry=LogEntry.objects.get(campaign=log.campaign, seq=13), actor=log.gm)
    services.log_entry_reveal(entry=LogEntry.objects.get(campaign=log.campaign, seq=7), actor=log.gm)
    document = json.loads(body(export(log, "gm", "json")))
    expected = [
        integrity.entry_json(e)
        for e in LogEntry.objects.filter(campaign=log.campaign).select_related("campaign", "reversal_of")
    ]
    assert document["entries"] == expected
    undone = LogEntry.objects.get(campaign=log.campaign, seq=13)
    assert any(e["reversal_of_hash"] == undone.hash for e in document["entries"])
    assert any(e["revealed_at"] for e in document["entries"])


@pytest.mark.parametrize("fmt", ["csv", "json", "md"])
def test_an_export_longer_than_one_batch_is_the_same_as_in_one(log, fmt, monkeypatch):
    whole = body(export(log, "gm", fmt))
    monkeypatch.setattr(log_sql, "BATCH", 2)
    assert body(export(log, "gm", fmt)) == whole


def test_a_long_log_exported_in_batches_still_verifies(log, tmp_path, monkeypatch):
    monkeypatch.setattr(log_sql, "BATCH", 3)
    path = tmp_path / "log.json"
    path.write_text(body(export(log, "gm", "json")))
    code, out = verify_file(path)
    assert code == 0 and "chain holds: 13 entries" in out
    assert integrity.verify_campaign(log.campaign).checked == 13


@pytest.fixture
def hostile(cast):
    """Names and text a clumsy or hostile GM might type."""
    cast.campaign.name = "<script>alert('c')</script> & co"
    cast.campaign.save()
    ship = ShipFactory(
        campaign=cast.campaign,
        name='<img src=x onerror="alert(1)">',
        kf_integrity=20,
        kf_integrity_max=20,
        drive_charged=True,
    )
    entry = ruled_jump(cast.campaign, cast.gm, ship, dice=MICRO_FRACTURES)
    services.campaign_clock_advance(
        campaign=cast.campaign, seconds=60, reason='a, "quoted"\nline <b>two</b>\n## Turn 99', actor=cast.gm
    )
    return cast, entry


def test_markdown_escapes_html_in_names_and_text(hostile):
    cast, _entry = hostile
    text = body(export(cast, "gm", "md"))
    assert "<script" not in text and "<img" not in text and "<b>" not in text
    assert text.startswith("# &lt;script&gt;alert('c')&lt;/script&gt; &amp; co: turn log\n")
    assert '&lt;img src=x onerror="alert(1)"&gt;' in text
    # A line break typed into a note cannot start a heading of its own.
    assert [line for line in text.splitlines() if line.startswith("## ")] == ["## Turn 1"]


def test_markdown_shows_no_null_or_python_words(hostile):
    text = body(export(hostile[0], "gm", "md"))
    for word in ("None", "null", "True", "False"):
        assert f" {word}" not in text and f"{word} " not in text, word


def test_csv_quotes_commas_quotes_and_line_breaks_and_reads_back_exactly(hostile):
    cast, _entry = hostile
    rows = csv_rows(export(cast, "gm", "csv"))
    summaries = {e.seq: e.words["summary"] for e in LogEntry.objects.filter(campaign=cast.campaign)}
    assert {int(r["Entry"]): r["Outcome"] for r in rows} == summaries
    assert any("\n" in s and '"' in s for s in summaries.values())
