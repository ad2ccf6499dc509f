"""``manage.py resolve`` (catalogue C.7) and ``manage.py bench_rules``."""

import json
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

import rules

REPO = Path(__file__).resolve().parents[2]
MALF = "jump.malfunction"
MISHAP_DICE = "6,6,2,3"  # 12 on the malfunction roll, then an effect roll of 5


def run(*args):
    """``call_command``: (exit status, stdout, stderr)."""
    out, err = StringIO(), StringIO()
    try:
        call_command("resolve", *args, stdout=out, stderr=err)
        status = 0
    except SystemExit as e:
        status = e.code
    return status, out.getvalue(), err.getvalue()


def run_process(*args, command="resolve"):
    """A real ``python manage.py resolve`` in a child process."""
    done = subprocess.run(
        [sys.executable, "manage.py", command, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


def inputs_of(*args):
    status, out, err = run(*args)
    assert status == 0, err
    return json.loads(out)["inputs"]


# ---------------------------------------------------------------- json output


def test_json_output_is_the_outcome_of_resolve_with_the_same_dice():
    status, out, err = run(MALF, "--input", "hours_since_last_jump=5", "--dice", MISHAP_DICE)
    assert (status, err) == (0, "")
    expected = rules.resolve(MALF, {"hours_since_last_jump": 5}, [6, 6, 2, 3]).to_dict()
    assert json.loads(out) == expected
    assert out == json.dumps(expected, indent=2) + "\n"


@pytest.mark.parametrize("proc", rules.all_procedures(), ids=rules.PROCEDURE_IDS)
def test_every_procedure_resolves_from_the_command_line(proc):
    expected = rules.resolve(proc.id, proc.example, rules.SeededDice(5)).to_dict()
    dice = ",".join(str(v) for roll in expected["rolls"] for v in roll["values"])
    status, out, err = run(proc.id, "--inputs-json", json.dumps(proc.example), "--dice", dice)
    assert (status, err) == (0, "")
    assert json.loads(out) == expected


def test_json_is_the_default_format_and_leaving_out_dice_rolls_them():
    status, out, _ = run(MALF)
    assert status == 0
    d = json.loads(out)
    assert d["procedure"] == MALF
    assert d["rolls"][0]["label"] == "malfunction"
    assert len(d["rolls"][0]["values"]) == 2


def test_json_output_through_a_real_process():
    status, out, err = run_process(MALF, "--input", "hours_since_last_jump=5", "--dice", MISHAP_DICE)
    assert (status, err) == (0, "")
    assert json.loads(out) == rules.resolve(MALF, {"hours_since_last_jump": 5}, [6, 6, 2, 3]).to_dict()


# ---------------------------------------------------------------- text output


def expected_text_lines(outcome):
    d = outcome.to_dict()
    return [d["summary"], *(f"{k}: {json.dumps(v)}" for k, v in d["result"].items())]


def check_text(out, outcome):
    lines = out.splitlines()
    head = expected_text_lines(outcome)
    assert lines[: len(head)] == head
    effect_lines = lines[len(head) :]
    assert len(effect_lines) == len(outcome.effects)
    for line, effect in zip(effect_lines, outcome.effects, strict=True):
        assert effect["target"] in line
        assert effect["field"] in line
        assert effect["op"] in line
        assert json.dumps(effect["value"]) in line


def test_text_output_is_summary_result_lines_and_effect_lines():
    outcome = rules.resolve(MALF, {"hours_since_last_jump": 5}, [6, 6, 2, 3])
    assert len(outcome.effects) == 3
    status, out, err = run(
        MALF, "--input", "hours_since_last_jump=5", "--dice", MISHAP_DICE, "--format", "text"
    )
    assert (status, err) == (0, "")
    check_text(out, outcome)
    assert "mishap: true" in out.splitlines()


def test_text_output_through_a_real_process():
    args = (MALF, "--input", "hours_since_last_jump=5", "--dice", MISHAP_DICE, "--format", "text")
    status, out, err = run_process(*args)
    assert (status, err) == (0, "")
    check_text(out, rules.resolve(MALF, {"hours_since_last_jump": 5}, [6, 6, 2, 3]))


# ---------------------------------------------------------------- --input, --inputs-json, --dice


def test_input_values_are_json_when_they_parse():
    inputs = inputs_of(
        MALF,
        "--input",
        "hours_since_last_jump=2.5",
        "--input",
        "kf_integrity=3",
        "--input",
        "charged_from_reactor=true",
        "--input",
        "kf_integrity_max=null",
        "--input",
        'failed_jump_table={"2": "x"}',
        "--dice",
        "1,1",
    )
    assert inputs["hours_since_last_jump"] == 2.5
    assert type(inputs["kf_integrity"]) is int
    assert inputs["kf_integrity"] == 3
    assert inputs["charged_from_reactor"] is True
    assert inputs["kf_integrity_max"] is None
    assert inputs["failed_jump_table"] == {"2": "x"}
    terrain = inputs_of(
        "terrain.hex_modifiers", "--input", 'base_terrain="heavy_woods"', "--input", 'conditions=["mud"]'
    )
    assert terrain["base_terrain"] == "heavy_woods"
    assert terrain["conditions"] == ["mud"]


def test_an_input_that_is_not_json_is_a_plain_string():
    inputs = inputs_of("booby_trap.generate", "--input", "year=150", "--input", "mode=scenario")
    assert inputs["mode"] == "scenario"
    assert (
        inputs_of("terrain.hex_modifiers", "--input", "base_terrain=heavy_woods")["base_terrain"]
        == "heavy_woods"
    )
    # Only the first "=" splits: the rest is the value.
    status, _, err = run("terrain.hex_modifiers", "--input", "base_terrain=heavy=woods")
    assert status == 2
    assert err.startswith("InputError: base_terrain: must be one of: ")  # "heavy=woods" is none of them
    assert "heavy woods" in err


def test_an_input_without_equals_is_an_input_error():
    status, out, err = run(MALF, "--input", "kf_integrity", "--dice", "1,1")
    assert (status, out) == (2, "")
    assert err.startswith("InputError: kf_integrity: ")


def test_input_overrides_inputs_json():
    inputs = inputs_of(
        MALF,
        "--inputs-json",
        '{"hours_since_last_jump": 1, "kf_integrity": 2, "kf_integrity_max": 4}',
        "--input",
        "hours_since_last_jump=30",
        "--dice",
        "1,1",
    )
    assert (inputs["hours_since_last_jump"], inputs["kf_integrity"], inputs["kf_integrity_max"]) == (30, 2, 4)


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '"x"', "3"])
def test_inputs_json_must_be_a_json_object(text):
    status, out, err = run(MALF, "--inputs-json", text, "--dice", "1,1")
    assert (status, out) == (2, "")
    assert err.startswith("InputError: inputs: ")


def test_empty_dice_mean_no_dice():
    status, out, _ = run("jump.basic_constants", "--dice", "")
    assert status == 0
    assert json.loads(out)["rolls"] == []
    status, out, err = run(MALF, "--dice", "")
    assert (status, out) == (3, "")
    assert err.startswith("DiceError: ")
    assert "malfunction" in err


# ---------------------------------------------------------------- errors and exit status


def test_a_bad_input_exits_2_naming_the_field():
    status, out, err = run(MALF, "--input", "kf_integrity=true", "--dice", "1,1")
    assert (status, out) == (2, "")
    assert re.fullmatch(r"InputError: kf_integrity: .+\n", err)


def test_an_unknown_procedure_exits_2_on_procedure_id():
    status, out, err = run("jump.nonesuch", "--dice", "1,1")
    assert (status, out) == (2, "")
    assert err.startswith("InputError: procedure_id: ")
    status, _, err = run()
    assert status == 2
    assert err.startswith("InputError: procedure_id: ")


@pytest.mark.parametrize("dice", ["7,1", "0,1", "1", "1,1,1", "a,b", "1.5,2", "1,,2"])
def test_bad_dice_exit_3(dice):
    status, out, err = run(MALF, "--dice", dice)
    assert (status, out) == (3, "")
    assert re.fullmatch(r"DiceError: .+\n", err)


def test_a_bad_input_is_reported_before_unparseable_dice():
    status, out, err = run(MALF, "--input", "kf_integrity=true", "--dice", "x")
    assert (status, out) == (2, "")
    assert err.startswith("InputError: kf_integrity: ")


def test_exit_status_and_stderr_through_a_real_process():
    status, out, err = run_process(MALF, "--input", "kf_integrity=true", "--dice", "1,1")
    assert (status, out) == (2, "")
    assert err.startswith("InputError: kf_integrity: ")
    status, out, err = run_process("no.such_procedure")
    assert (status, out) == (2, "")
    assert err.startswith("InputError: procedure_id: ")
    status, out, err = run_process(MALF, "--dice", "7,1")
    assert (status, out) == (3, "")
    assert err.startswith("DiceError: ")


def test_the_command_runs_without_the_web_apps_system_checks():
    # A pure-engine command: a model problem elsewhere in the project must not stop it.
    from rules.management.commands.resolve import Command

    assert Command.requires_system_checks == []
    status, out, err = run_process("jump.basic_constants", "--dice", "")
    assert status == 0, err
    assert json.loads(out)["procedure"] == "jump.basic_constants"


# ---------------------------------------------------------------- --list


def check_list(out):
    lines = out.splitlines()
    assert len(lines) == 63
    for line, proc in zip(lines, rules.all_procedures(), strict=True):
        assert line.split()[0] == proc.id
        assert proc.title in line
        assert proc.reference in line
    assert [line.split()[0] for line in lines] == list(rules.PROCEDURE_IDS)


def test_list_prints_every_procedure_with_title_and_reference():
    status, out, err = run("--list")
    assert (status, err) == (0, "")
    check_list(out)


def test_list_through_a_real_process():
    status, out, err = run_process("--list")
    assert (status, err) == (0, "")
    check_list(out)


# ---------------------------------------------------------------- bench_rules

FIGURE_LINE = re.compile(r"^jump\.malfunction\s+(\d+\.\d)\s+(\d+\.\d\d)(\s.*)?$", re.M)


def test_bench_rules_prints_figures_for_one_procedure():
    out = StringIO()
    call_command(
        "bench_rules",
        "--procedure",
        MALF,
        "--repeat",
        "20",
        "--odds-repeat",
        "1",
        "--slowest",
        "0",
        stdout=out,
    )
    text = out.getvalue()
    match = FIGURE_LINE.search(text)
    assert match, text
    assert float(match.group(1)) > 0
    assert float(match.group(2)) > 0
    assert len(text.splitlines()) == 4  # header, one row, two totals
    assert text.splitlines()[-2].startswith("total: 1 procedures")


def test_bench_rules_times_the_odds_of_every_key_over_edge_inputs_and_lists_the_slowest():
    out = StringIO()
    call_command(
        "bench_rules",
        *("--procedure", MALF, "--procedure", "jump.nonstandard_plot", "--repeat", "5"),
        *("--odds-repeat", "1", "--slowest", "5", "--mixtures", "3"),
        stdout=out,
    )
    lines = out.getvalue().splitlines()
    head = next(n for n, line in enumerate(lines) if line.startswith("every key:"))
    keys = len(rules.get(MALF).result_keys) + len(rules.get("jump.nonstandard_plot").result_keys)
    assert f"over {keys} of {keys} result keys of 2 procedures; slowest 5:" in lines[head]
    assert lines[head + 1].split()[:3] == ["ms", "alone", "procedure"]
    rows = lines[head + 2 : head + 7]
    # Listed by the time each call takes when timed again on its own.
    alone = [float(row.split()[1]) for row in rows]
    assert alone == sorted(alone, reverse=True) and alone[0] > 0
    assert all(float(row.split()[0]) > 0 for row in rows)
    assert all(row.split()[2] in (MALF, "jump.nonstandard_plot") for row in rows)
    assert (
        lines[head + 7].startswith("timed alone (fastest of 3): ") and "of these 5 calls" in lines[head + 7]
    )
    assert lines[head + 8].startswith("every key: ") and "calls over 50 ms" in lines[head + 8]


def test_bench_rules_quick_still_covers_every_key():
    out = StringIO()
    call_command("bench_rules", "--procedure", MALF, "--quick", "--slowest", "3", stdout=out)
    text = out.getvalue()
    keys = len(rules.get(MALF).result_keys)
    assert "(medians; targets 1 ms, 50 ms; 20 / 1 runs)" in text
    assert f"over {keys} of {keys} result keys of 1 procedures; slowest 3:" in text


def test_bench_rules_refuses_an_unknown_procedure():
    with pytest.raises(CommandError):
        call_command("bench_rules", "--procedure", "jump.nonesuch", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("bench_rules", "--procedure", MALF, "--repeat", "0", stdout=StringIO())
