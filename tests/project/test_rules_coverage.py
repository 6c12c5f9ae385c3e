"""Every rule ID of docs/rules.md is implemented in core/ (named in its code) and named by a test.

This keeps `grep -rn "CL-18"` finding the rule, its code and its tests, as docs/rules.md says.
"""

from __future__ import annotations

import re

from tests.support.paths import ROOT

RULES = ROOT / "docs/rules.md"
"""The rules as the bot applies them, each with its ID: the list every check here reads."""

RULE_ID = re.compile(r"\b(?:CL|CCT|CORE)-(?:\d+[a-z]?(?:\.\.\d+)?|[A-Z]{2,})\b")


def _rule_ids() -> list[str]:
    """Every rule ID docs/rules.md mentions (`CL-9..11`, `CCT-8b`, `CL-ADJ`), in order, once
    each."""
    return list(dict.fromkeys(RULE_ID.findall(RULES.read_text())))


def _text(folder: str) -> str:
    return "\n".join(p.read_text() for p in sorted((ROOT / folder).rglob("*.py")))


def _test_names() -> str:
    names = re.findall(r"def (test_\w+)", _text("tests"))
    return "\n".join(names)


def _test_token(rule: str) -> str:
    """`CL-2..4` → `cl_2_4`, `CCT-8a` → `cct_8a`: how a rule ID is spelt in a test name."""
    return re.sub(r"[^a-z0-9]+", "_", rule.lower()).strip("_")


def test_the_rules_page_defines_the_expected_families() -> None:
    ids = _rule_ids()
    assert {"CL-18", "CL-ADJ", "CL-DQ", "CCT-8b", "CORE-1", "CL-22"} <= set(ids)


def test_every_rule_id_is_named_in_core() -> None:
    core = _text("core")
    missing = [rule for rule in _rule_ids() if not re.search(re.escape(rule) + r"\b", core)]
    assert missing == [], f"rules with no implementation naming them in core/: {missing}"


def test_every_rule_id_is_named_by_a_test() -> None:
    names = _test_names()
    missing = [
        rule
        for rule in _rule_ids()
        if not re.search(r"(^|_)" + _test_token(rule) + r"(_|$)", names, re.MULTILINE)
    ]
    assert missing == [], f"rules no test names: {missing}"


def test_repository_layout_is_found() -> None:
    assert (ROOT / "core").is_dir() and RULES.is_file()
