""""Now", fixed once per build.

The publish rule (scheduled posts appear once their date has passed) needs
the current time; everything else in the output is dated from the content.
``--now`` or ``SOURCE_DATE_EPOCH`` pins it, so a build can be reproduced.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime

from ftpress.errors import InvalidArgument


def build_now(now: str | None = None, environ: Mapping[str, str] | None = None) -> datetime:
    """The build's single "now": ``--now``, else ``SOURCE_DATE_EPOCH``, else the clock.

    Raises :class:`~ftpress.errors.InvalidArgument` for a malformed value.
    """
    if now:
        try:
            value = datetime.fromisoformat(now)
        except ValueError:
            raise InvalidArgument(f"--now {now!r}: expected an ISO date or date-time such as "
                                  "2026-05-20 or 2026-05-20T18:00:00+01:00") from None
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    epoch = (os.environ if environ is None else environ).get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        if not epoch.isdigit():
            raise InvalidArgument(f"SOURCE_DATE_EPOCH={epoch!r}: expected whole seconds "
                                  "since 1970")
        return datetime.fromtimestamp(int(epoch), UTC)
    return datetime.now(UTC)
