"""Club participation (CL-2..4): registration, the two-admin minimum, HQ approval and the
exclusion of a club only through a passed director motion (CL-23)."""

from __future__ import annotations

import datetime as dt

import pytest

from core.league.registration import (
    ExclusionMotion,
    RegistrationError,
    RegistrationState,
    approve,
    exclude,
    link_admins,
    participating,
    register_club,
    reject,
)
from core.votes import motion_deadline

OPENED = dt.datetime(2017, 8, 1, tzinfo=dt.UTC)
DEADLINE = motion_deadline(OPENED)
DIRECTORS = ("d1", "d2", "d3", "d4")


def arsenal(*admins: str):
    return register_club("arsenal-fans", "Arsenal", admins)


def test_cl_2_4_new_registration_is_pending_with_its_facts() -> None:
    r = register_club(" Arsenal-Fans ", "Arsenal", ["111", "222", "111", " "])
    assert r.state is RegistrationState.PENDING
    assert (r.club, r.football_club, r.admins) == ("Arsenal-Fans", "Arsenal", ("111", "222"))
    assert r.key == "arsenal-fans" and r.eligible()


@pytest.mark.parametrize(
    ("club", "football", "message"),
    [
        ("", "Arsenal", "url-id"),
        ("https://www.chess.com/club/x", "Arsenal", "not a chess.com club url-id"),
        ("arsenal-fans", "  ", "football club"),
    ],
)
def test_cl_2_4_registration_needs_a_club_and_its_football_club(
    club: str, football: str, message: str
) -> None:
    with pytest.raises(RegistrationError, match=message):
        register_club(club, football, ["1", "2"])


def test_cl_2_4_one_admin_is_not_eligible_and_cannot_be_approved() -> None:
    r = arsenal("111")
    assert not r.eligible()
    with pytest.raises(RegistrationError, match=r"1 admin.*at least 2"):
        approve(r)
    assert r.state is RegistrationState.PENDING  # nothing changed


def test_cl_2_4_a_second_admin_linked_makes_it_approvable() -> None:
    r = link_admins(arsenal("111"), ["111", "222"])
    assert r.admins == ("111", "222")
    approved = approve(r)
    assert approved.state is RegistrationState.APPROVED
    chelsea = register_club("chelsea-fans", "Chelsea", ["3", "4"])
    assert participating([approved, chelsea]) == [approved]  # pending is not yet in


def test_cl_2_4_hq_rejects_a_pending_registration_with_a_reason() -> None:
    rejected = reject(arsenal("1", "2"), "  duplicate of arsenal-supporters ")
    assert rejected.state is RegistrationState.REJECTED
    assert rejected.reason == "duplicate of arsenal-supporters"
    with pytest.raises(RegistrationError, match="needs a reason"):
        reject(arsenal("1", "2"), " ")


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (approve, "approved: cannot approve it"),
        (lambda r: reject(r, "late"), "approved: cannot reject it"),
    ],
)
def test_cl_2_4_an_approved_club_cannot_be_approved_or_rejected_again(step, message) -> None:
    with pytest.raises(RegistrationError, match=message):
        step(approve(arsenal("1", "2")))


def test_cl_2_4_rejected_registration_is_final() -> None:
    rejected = reject(arsenal("1", "2"), "no fans")
    with pytest.raises(RegistrationError, match="rejected: cannot approve it"):
        approve(rejected)
    with pytest.raises(RegistrationError, match="rejected: cannot link admins"):
        link_admins(rejected, ["3"])
    passed = ExclusionMotion(DIRECTORS, {"d1": True, "d2": True, "d3": True}, DEADLINE)
    with pytest.raises(RegistrationError, match="rejected: cannot exclude it"):
        exclude(rejected, passed, DEADLINE)


def test_cl_2_4_exclusion_through_a_passed_director_motion() -> None:
    approved = approve(arsenal("1", "2"))
    votes = {"d1": True, "d2": True, "d3": True}
    excluded = exclude(approved, ExclusionMotion(DIRECTORS, votes, DEADLINE), DEADLINE)
    assert excluded.state is RegistrationState.EXCLUDED
    assert "CL-4" in excluded.reason
    assert participating([excluded]) == []
    with pytest.raises(RegistrationError, match="excluded: cannot approve it"):
        approve(excluded)


@pytest.mark.parametrize(
    ("votes", "at", "state"),
    [
        ({"d1": True, "d2": True, "d3": True}, DEADLINE - dt.timedelta(hours=1), "open"),
        ({"d1": True, "d2": True, "d3": True, "d4": False}, DEADLINE, "no decision"),
        ({"d1": False, "d2": False, "d3": False}, DEADLINE, "rejected"),
        ({"d1": True, "d2": True}, DEADLINE, "no decision"),
    ],
)
def test_cl_2_4_exclusion_without_a_passed_motion_is_refused(
    votes: dict[str, bool], at: dt.datetime, state: str
) -> None:
    pending = arsenal("1", "2")
    with pytest.raises(RegistrationError, match=rf"passed director motion.*is {state}$"):
        exclude(pending, ExclusionMotion(DIRECTORS, votes, DEADLINE), at)


def test_cl_2_4_same_club_registered_twice_is_refused() -> None:
    first = approve(arsenal("1", "2"))
    second = register_club("ARSENAL-FANS", "Arsenal", ["3", "4"])
    with pytest.raises(RegistrationError, match="registered twice"):
        participating([first, second])
    assert participating([first, reject(second, "duplicate")]) == [first]
