"""The version of the rulebook in force on a day: the newest dated on or before it."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from ftpress.content.rulebook import Rulebook, Version

days = st.dates(min_value=date(2020, 1, 1), max_value=date(2030, 12, 31))


@given(st.lists(days, unique=True, max_size=30).map(sorted), days)
def test_the_version_in_force_is_the_newest_on_or_before_the_day(dates, day):
    book = Rulebook(tuple(Version(d, (), (), ()) for d in dates))
    earlier = [v for v in book.versions if v.date <= day]
    assert book.at(day) is (earlier[-1] if earlier else None)
    if dates:
        assert book.at(dates[0] - timedelta(days=1)) is None
        assert book.at(dates[-1]) is book.versions[-1]
