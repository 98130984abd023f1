"""A small line chart as SVG: each power's treasury over the recorded turns.

Like the star map it is drawn from a plain view (:class:`Chart`) and knows no
rule. Each series has its power's colour *and* its initials at the line's end,
and every point carries a ``<title>`` with the number, so the chart reads
without colour and with a screen reader. Coordinates are rounded to one
decimal, so the output is byte-stable.
"""

from __future__ import annotations

from dataclasses import dataclass

from svgwrite.container import Group

from ftpress.maps.canvas import blank_drawing
from ftpress.maps.svgtext import splice, svg_text

_W, _H = 640.0, 260.0
_LEFT, _RIGHT, _TOP, _BOTTOM = 56.0, 56.0, 16.0, 34.0
#: The most turn labels under the x axis: a long campaign's would overlap, so every
#: k-th turn is named (and the first and the last).
MAX_LABELS = 12
#: The most points drawn as dots, each with its own title: beyond that they would
#: crowd the line into a smear, and the series' title lists every value anyway.
MAX_DOTS = 26
#: Vertical room one end label needs (its 11-unit bold text and a little air): labels
#: of lines that end close together are pushed apart to this spacing.
LABEL_GAP = 13.0


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    colour: str
    #: A short label drawn at the line's end, so colour is never the only cue.
    initial: str
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Chart:
    title: str
    description: str
    #: One label per point on the x axis: 't000', 't001', …
    labels: tuple[str, ...]
    series: tuple[Series, ...]


def _r(v: float) -> float:
    return round(v, 1)


def _labelled(count: int) -> list[int]:
    """Which of ``count`` points get a label: all of a short chart; of a long one,
    evenly spaced ones from the first, and the last (none too close before it)."""
    if count <= MAX_LABELS:
        return list(range(count))
    step = -(-(count - 1) // (MAX_LABELS - 1))  # ceiling division
    picked = list(range(0, count - 1, step))
    if count - 1 - picked[-1] < step / 2:
        picked.pop()
    return [*picked, count - 1]


def spread(ys: list[float], gap: float, top: float, bottom: float) -> list[float]:
    """Positions for labels wanted at ``ys``, in the same order, each at least ``gap``
    from the next and all within ``top``..``bottom`` where the room allows: every
    label as near its wish as that leaves it (pushed down past its neighbours
    above, then the whole run pulled back up from the bottom edge)."""
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    placed: list[float] = []
    for i in order:
        placed.append(max(ys[i], top, placed[-1] + gap) if placed else max(ys[i], top))
    for k in range(len(placed) - 1, -1, -1):
        limit = bottom if k == len(placed) - 1 else placed[k + 1] - gap
        placed[k] = min(placed[k], limit)
    out = [0.0] * len(ys)
    for i, y in zip(order, placed, strict=True):
        out[i] = _r(y)
    return out


def render_chart(c: Chart, element_id: str = "chart") -> str:
    """The chart as an SVG document string."""
    d = blank_drawing((0.0, 0.0, _W, _H), element_id, "chart", c.title, c.description)
    values = [v for s in c.series for v in s.values] or [0]
    low, high = min(0, min(values)), max(values) or 1
    plot_w, plot_h = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM
    steps = max(len(c.labels) - 1, 1)

    def x(i: int) -> float:
        return _r(_LEFT + plot_w * (i / steps if len(c.labels) > 1 else 0.5))

    def y(v: float) -> float:
        return _r(_TOP + plot_h * (1 - (v - low) / ((high - low) or 1)))

    axes = d.g(class_="axes", font_size=11, fill="#1d2129")
    axes.add(d.line((_LEFT, _r(_TOP + plot_h)), (_r(_LEFT + plot_w), _r(_TOP + plot_h)),
                    stroke="#5b6270"))
    axes.add(d.line((_LEFT, _TOP), (_LEFT, _r(_TOP + plot_h)), stroke="#5b6270"))
    for v in sorted({low, (low + high) // 2, high}):
        axes.add(d.text(f"{v:,}", insert=(_LEFT - 6, _r(y(v) + 4)), text_anchor="end"))
    for i in _labelled(len(c.labels)):
        axes.add(d.text(c.labels[i], insert=(x(i), _r(_H - 12)), text_anchor="middle"))
    groups = [axes]
    ends: list[tuple[Group, tuple[float, float], str]] = []
    for s in c.series:
        g = d.g(class_="series")
        groups.append(g)
        g.set_desc(title=f"{s.name}: " + ", ".join(
            f"{label} {v:,}" for label, v in zip(c.labels, s.values, strict=False)))
        points = [(x(i), y(v)) for i, v in enumerate(s.values)]
        if len(points) > 1:
            g.add(d.polyline(points, fill="none", stroke=s.colour, stroke_width=2.5))
        for (px, py), label, v in zip(points if len(points) <= MAX_DOTS else (), c.labels,
                                      s.values, strict=False):
            dot = g.add(d.circle((px, py), r=4, fill=s.colour, stroke="#ffffff",
                                 stroke_width=1))
            dot.set_desc(title=f"{s.name}, {label}: {v:,}")
        if points:
            ends.append((g, points[-1], s.initial))
    # The end labels, spread apart so that lines ending close together keep legible
    # names; a label moved off its line's end gets a hairline back to it.
    label_ys = spread([py + 4 for _, (_, py), _ in ends], LABEL_GAP, _TOP + 4, _TOP + plot_h + 4)
    for (g, (px, py), initial), ly in zip(ends, label_ys, strict=True):
        if abs(ly - 4 - py) > 2:
            g.add(d.line((_r(px + 4), py), (_r(px + 7), _r(ly - 4)), stroke="#5b6270",
                         stroke_width=0.75))
        g.add(d.text(initial, insert=(_r(px + 8), ly), font_size=11, font_weight="bold",
                     fill="#1d2129"))
    # Written group by group straight from svgwrite's elements (see ftpress.maps.svgtext).
    return splice(d, [svg_text(g) for g in groups])
