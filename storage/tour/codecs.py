"""The tour's rule values as stored JSON, by CCT-16.

These are a tour's `TourRules`, an event's tour points table and its time controls. Decoding gives
back exactly the values encoded.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from typing import Any

from core.results import STANDARD, Scoring
from core.tour.knockout import STAGE_NAMES
from core.tour.preliminary import SCORINGS, scoring_name
from core.tour.ranking import EventType, PointsTable
from core.tour.rules import ROUND_REMINDER_MINUTES, TourRules
from core.tour.timecontrols import TimeControl, TimeControls

_STAGE_OF = {name: stage for stage, name in STAGE_NAMES.items()}


def table_data(table: PointsTable) -> dict[str, Any]:
    """CCT-6: a points table as JSON data, in the tour file's shape with its label."""
    return {
        "label": table.label,
        "preliminary": list(table.preliminary),
        "knockout": {STAGE_NAMES[stage]: points for stage, points in table.knockout.items()},
    }


def table_of(data: Mapping[str, Any]) -> PointsTable:
    """The points table `table_data` encoded."""
    knockout = {_STAGE_OF[name]: int(points) for name, points in data["knockout"].items()}
    return PointsTable(str(data["label"]), tuple(int(p) for p in data["preliminary"]), knockout)


def _control_data(control: TimeControl) -> dict[str, Any]:
    return {
        "name": control.name,
        "white": int(control.white_base.total_seconds()),
        "black": int(control.black_base.total_seconds()),
        "increment": int(control.increment.total_seconds()),
        "draw_goes_to_black": control.draw_goes_to_black,
    }


def _control_of(data: Mapping[str, Any]) -> TimeControl:
    return TimeControl(
        str(data["name"]),
        dt.timedelta(seconds=int(data["white"])),
        dt.timedelta(seconds=int(data["black"])),
        dt.timedelta(seconds=int(data["increment"])),
        bool(data["draw_goes_to_black"]),
    )


def controls_data(controls: TimeControls) -> dict[str, Any]:
    """CCT-7: the time controls as JSON data."""
    return {
        "rapid": _control_data(controls.rapid),
        "blitz": _control_data(controls.blitz),
        "armageddon": _control_data(controls.armageddon),
    }


def controls_of(data: Mapping[str, Any]) -> TimeControls:
    """The time controls `controls_data` encoded."""
    return TimeControls(
        _control_of(data["rapid"]), _control_of(data["blitz"]), _control_of(data["armageddon"])
    )


def tour_rules_text(rules: TourRules) -> str:
    """CCT-16: a tour's rules as the stored JSON text."""
    return json.dumps(
        {
            "sizes": {kind.value: size for kind, size in rules.sizes.items()},
            "qualifying_top": rules.qualifying_top,
            "points": {kind.value: table_data(t) for kind, t in rules.points.items()},
            "appeal_deadline": rules.appeal_deadline.strftime("%H:%M"),
            "appeal_zone": rules.appeal_zone,
            "reconnect_seconds": rules.reconnect_seconds,
            "confirm_hours": rules.confirm_hours,
            "session_start": rules.session_start.strftime("%H:%M"),
            "ambassador_pool": rules.ambassador_pool,
            "round_reminder_minutes": rules.round_reminder_minutes,
            "scoring": scoring_name(rules.scoring),
        },
        sort_keys=True,
    )


def tour_rules_of(text: str) -> TourRules:
    """The tour's rules `tour_rules_text` encoded."""
    data = json.loads(text)
    return TourRules(
        sizes={EventType(kind): int(size) for kind, size in data["sizes"].items()},
        qualifying_top=int(data["qualifying_top"]),
        points={EventType(kind): table_of(t) for kind, t in data["points"].items()},
        appeal_deadline=dt.time.fromisoformat(data["appeal_deadline"]),
        appeal_zone=str(data["appeal_zone"]),
        reconnect_seconds=int(data["reconnect_seconds"]),
        confirm_hours=int(data["confirm_hours"]),
        session_start=dt.time.fromisoformat(data["session_start"]),
        ambassador_pool=int(data["ambassador_pool"]),
        round_reminder_minutes=int(data.get("round_reminder_minutes", ROUND_REMINDER_MINUTES)),
        scoring=scoring_of(data.get("scoring")),
    )


def scoring_of(name: object) -> Scoring:
    """CCT-8a: the stored scoring name as a `Scoring`.

    When none is stored it is 1/½/0, as before the setting existed.
    """
    return STANDARD if name is None else SCORINGS[str(name)]


def event_rules_text(
    points: PointsTable | None,
    controls: TimeControls,
    reminder_minutes: int = ROUND_REMINDER_MINUTES,
    scoring: Scoring = STANDARD,
) -> str:
    """CCT-16: an event's own frozen values as the stored JSON text.

    They are its tour points table, which the Finals have none of, its time controls, how long
    before a round its pairings are posted, and its preliminary's game scoring.
    """
    return json.dumps(
        {
            "points": None if points is None else table_data(points),
            "time_controls": controls_data(controls),
            "round_reminder_minutes": reminder_minutes,
            "scoring": scoring_name(scoring),
        },
        sort_keys=True,
    )


def event_scoring_of(text: str) -> Scoring:
    """CCT-8a: the preliminary's game scoring `event_rules_text` encoded."""
    return scoring_of(json.loads(text).get("scoring"))


def event_rules_of(text: str) -> tuple[PointsTable | None, TimeControls, int]:
    """The event's values that `event_rules_text` encoded.

    An event stored before the reminder setting existed has the default.
    """
    data = json.loads(text)
    points = data.get("points")
    minutes = int(data.get("round_reminder_minutes", ROUND_REMINDER_MINUTES))
    return (
        (None if points is None else table_of(points)),
        controls_of(data["time_controls"]),
        minutes,
    )
