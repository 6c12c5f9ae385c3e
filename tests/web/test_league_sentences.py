"""How the league pages show a service's sentence: names isolated, the first letter capitalised."""

from __future__ import annotations

from bot.web.league.pages import sentence
from bot.web.templates import FSI, PDI


def test_a_sentence_isolates_each_name_once_and_keeps_a_leading_name_as_typed() -> None:
    text = sentence("ajax b won by forfeit: ajax lost it", "ajax b", "ajax")
    assert text == f"{FSI}ajax b{PDI} won by forfeit: {FSI}ajax{PDI} lost it."


def test_a_sentence_without_a_leading_name_starts_with_a_capital() -> None:
    rtl = "x\u202elive"
    assert sentence("void: x\u202elive was disqualified", rtl) == (
        f"Void: {FSI}{rtl}{PDI} was disqualified."
    )
    assert sentence("counts for nobody") == "Counts for nobody."
