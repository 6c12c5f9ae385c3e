"""The replay's direct messages and forms, on the probe cog (tests/support/replay_probe.py): a
click fills in and submits the form a button opens; a step's `dms` list what the bot sent each
member, `dms_contain` checks them, a click reaches a direct message's buttons, and a member who
closed their direct messages is mentioned in the channel instead."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import bot.app.arbiter as arbiter_module
from bot.cli import main
from bot.offline.script import Click, DirectMessages, Expect, ScriptError, parse_script
from tests.support.paths import ROOT

PROBE = ROOT / "tests" / "scripts" / "probe"
FORMS = PROBE / "forms.jsonl"
HEADER = FORMS.read_text().splitlines()[1]


@pytest.fixture
def probe_cog(monkeypatch: pytest.MonkeyPatch) -> None:
    """Load tests/support/replay_probe.py beside the real cogs."""
    real = arbiter_module.cog_names
    monkeypatch.setattr(
        arbiter_module, "cog_names", lambda: [*real(), "tests.support.replay_probe"]
    )


def _records(script: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    code = main(["replay", str(script), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def _parse(*lines: str) -> tuple[object, ...]:
    return parse_script("\n".join([HEADER, *lines]), PROBE).steps


def test_the_new_steps_are_read() -> None:
    steps = _parse(
        '{"as": "hq", "command": "probe dm", "options": {"member": "@bob"}}',
        '{"expect": {"dms_contain": {"bob": "Probe DM"}}}',
        '{"as": "bob", "click": {"dm": "last", "button": "Fill in", "fields": {"Match": "1"},'
        ' "containing": "Probe DM"}}',
        '{"close_dms": "bob"}',
        '{"open_dms": "bob"}',
    )
    expect, click, closed, opened = steps[1:]
    assert isinstance(expect, Expect) and expect.dms_contain == {"bob": "Probe DM"}
    assert isinstance(click, Click) and click.dm and click.target is None
    assert click.fields == {"Match": "1"} and click.containing == ("Probe DM",)
    assert closed == DirectMessages(4, 5, "bob", True)
    assert opened == DirectMessages(5, 6, "bob", False)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '{"as": "bob", "click": {"dm": "first", "button": "A"}}',
            'the only direct message by name is "last"',
        ),
        (
            '{"as": "bob", "click": {"dm": "last", "step": 1, "button": "A"}}',
            'give one of "step": N',
        ),
        (
            '{"as": "bob", "click": {"dm": "last", "button": "A", "fields": ["x"]}}',
            "click.fields: expected",
        ),
        (
            '{"as": "bob", "click": {"dm": "last", "button": "A", "fields": {"x": 1}}}',
            "click.fields: expected",
        ),
        ('{"close_dms": "zed"}', "close_dms: 'zed' is not a member of the header"),
        (
            '{"as": "bob", "click": {"dm": "last", "button": "A", "containing": 3}}',
            "click.containing",
        ),
        ('{"open_dms": "bob", "close_dms": "bob"}', "unknown key 'open_dms'"),
        ('{"expect": {"dms_contain": {"zed": "x"}}}', "dms_contain: 'zed' is not a member"),
        ('{"expect": {"dms_contain": {"bob": 3}}}', "expect.dms_contain.bob: expected text"),
        ('{"expect": {"dms_contain": []}}', "expect.dms_contain: expected text, or an object"),
    ],
)
def test_a_bad_direct_message_step_is_refused_naming_its_line(line: str, message: str) -> None:
    with pytest.raises(ScriptError) as refused:
        _parse('{"as": "hq", "command": "probe form"}', line)
    assert refused.value.line == 3 and message in refused.value.problem


def test_a_click_fills_in_and_submits_the_form_its_button_opens(
    probe_cog: None, capsys: pytest.CaptureFixture[str]
) -> None:
    records = _records(FORMS, capsys)
    opened, submitted = records[1], records[3]
    assert opened["replies"] == [
        {
            "ephemeral": True,
            "content": None,
            "embeds": [],
            "files": [],
            "buttons": [],
            "form": "Probe form",
            "fields": ["Match", "Note"],
        }
    ]
    assert [reply["content"] for reply in submitted["replies"]] == [
        None,
        "bob submitted match 12803, note -, from the server",
    ]
    assert submitted["error"] is None


@pytest.mark.parametrize(
    ("click", "message"),
    [
        (
            '{"as": "bob", "click": {"step": 1, "button": "Fill in", "fields": {"Colour": "red"}}}',
            "step 2 (line 3): the form has no field 'Colour' (fields: Match, Note)",
        ),
        (
            '{"as": "bob", "click": {"step": 1, "button": "Fill in", "fields": {"Note": "x"}}}',
            "step 2 (line 3): the form's field 'Match' is required",
        ),
        (
            '{"as": "bob", "click": {"step": 1, "button": "Answer", "fields": {"Match": "1"}}}',
            "step 2 (line 3): [Answer] opened no form to fill in",
        ),
    ],
)
def test_a_form_filled_in_wrongly_stops_the_replay_naming_the_step(
    probe_cog: None, tmp_path: Path, capsys: pytest.CaptureFixture[str], click: str, message: str
) -> None:
    script = tmp_path / "form.jsonl"
    script.write_text("\n".join([HEADER, '{"as": "hq", "command": "probe form"}', click]) + "\n")
    assert main(["replay", str(script)]) == 1
    assert message in capsys.readouterr().err


def test_direct_messages_are_listed_clicked_and_refused_when_closed(
    probe_cog: None, capsys: pytest.CaptureFixture[str]
) -> None:
    records = _records(PROBE / "dms.jsonl", capsys)
    sent = records[0]
    assert sent["posts"] == []
    dm = sent["dms"][0]
    assert dm["to"] == "bob" and dm["buttons"] == ["Answer", "Fill in"]
    assert dm["content"].startswith(
        "Probe DM for bob\nFrom **Probe**: https://discord.com/channels/"
    )
    answered, filled = records[2], records[4]
    assert answered["replies"][0]["content"] == "bob answered from a direct message"
    assert filled["replies"][1]["content"] == (
        "bob submitted match 12803, note -, from a direct message"
    )
    refused, mentioned = records[7], records[9]
    for record in (refused, mentioned):  # once each time, and never a direct message
        assert record["dms"] == []
        assert [post["content"] for post in record["posts"]] == [
            "@carol, I could not send you a direct message: Probe DM for carol"
        ]
    after_restart = records[12]
    assert after_restart["replies"][0]["content"] == "bob answered from a direct message"
    every = [dm["to"] for record in records for dm in record["dms"]]
    assert every == ["bob", "bob"]


def test_a_click_on_a_direct_message_containing_text_finds_only_those(
    probe_cog: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "dm.jsonl"
    lines = [
        HEADER,
        '{"as": "hq", "command": "probe dm", "options": {"member": "@bob"}}',
        '{"as": "bob", "click": {"dm": "last", "button": "Answer", "containing": "for bob"}}',
        '{"expect": {"contains": "bob answered from a direct message"}}',
        '{"as": "bob", "click": {"dm": "last", "button": "Answer",'
        ' "containing": ["Probe", "for hq"]}}',
    ]
    script.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(script)]) == 1
    assert capsys.readouterr().err.startswith(
        "arbiter replay: step 4 (line 5): no button 'Answer' on the direct messages to bob"
        " containing 'Probe' and 'for hq' (buttons there: none)"
    )


def test_a_direct_message_expected_but_not_sent_stops_naming_the_step(
    probe_cog: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "dm.jsonl"
    lines = [
        HEADER,
        '{"as": "hq", "command": "probe dm", "options": {"member": "@bob"}}',
        '{"expect": {"dms_contain": {"hq": "Probe DM"}}}',
    ]
    script.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(script)]) == 1
    assert capsys.readouterr().err.startswith(
        "arbiter replay: step 2 (line 3): expected a direct message to hq in step 1"
        " containing 'Probe DM'; the direct messages to hq said: nothing"
    )
