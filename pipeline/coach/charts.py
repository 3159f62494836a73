"""The coach's report's charts, as inline SVG written here (no script, no font, no file beside
the page, not even the SVG namespace: HTML knows the element): a frequency against its
reference range, and a currency's results hand by hand.

Every text drawn is escaped; colours come from the page's CSS classes, so a chart prints as the
page does.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Final

from studdraw.pipeline.analytics.currency import currency_label
from studdraw.pipeline.words import money_text

from .gather import Curve

WIDTH: Final = 520
BAR_HEIGHT: Final = 78
CURVE_WIDTH: Final = 680
CURVE_HEIGHT: Final = 240
_PAD: Final = 16


def _pct(value: float) -> str:
    return f"{value:.1%}"


def range_bar(
    *,
    label: str,
    value: float,
    ci: tuple[float, float] | None,
    reference: tuple[float, float] | None,
    pool: tuple[float, float | None] | None,
    severity: str,
) -> str:
    """The player's frequency as a bar on a 0-100% axis, its 95% interval as a whisker, the
    reference range as a band (or, without one, the pool's mean +/- one standard deviation),
    and the pool's mean as a dashed line."""
    span = WIDTH - 2 * _PAD

    def x(share: float) -> float:
        return round(_PAD + span * min(max(share, 0.0), 1.0), 1)

    parts = [
        f'<svg class="chart range" width="{WIDTH}" '
        f'height="{BAR_HEIGHT}" viewBox="0 0 {WIDTH} {BAR_HEIGHT}" role="img" '
        f'aria-label="{escape(label)}: {_pct(value)}">',
        f"<title>{escape(label)}: {_pct(value)}</title>",
    ]
    top, height, axis = 14, 20, 44
    if reference is not None:
        low, high = reference
        parts.append(
            f'<rect class="band" x="{x(low)}" y="{top - 6}" width="{x(high) - x(low)}" '
            f'height="{height + 12}"><title>reference range {_pct(low)}-{_pct(high)}</title></rect>'
        )
    elif pool is not None and pool[1] is not None:
        mean, sd = pool[0], pool[1]
        parts.append(
            f'<rect class="band pool-band" x="{x(mean - sd)}" y="{top - 6}" '
            f'width="{x(mean + sd) - x(mean - sd)}" height="{height + 12}"><title>pool '
            f"{_pct(mean)} +/- {_pct(sd)}</title></rect>"
        )
    parts.append(
        f'<rect class="bar {escape(severity)}" x="{x(0)}" y="{top}" '
        f'width="{max(x(value) - x(0), 1.0)}" height="{height}"><title>{escape(label)}: '
        f"{_pct(value)}</title></rect>"
    )
    if ci is not None:
        low, high = ci
        middle = top + height / 2
        parts.append(
            f'<g class="whisker"><line x1="{x(low)}" y1="{middle}" x2="{x(high)}" y2="{middle}"/>'
            f'<line x1="{x(low)}" y1="{middle - 6}" x2="{x(low)}" y2="{middle + 6}"/>'
            f'<line x1="{x(high)}" y1="{middle - 6}" x2="{x(high)}" y2="{middle + 6}"/>'
            f"<title>95% interval {_pct(low)}-{_pct(high)}</title></g>"
        )
    if pool is not None:
        parts.append(
            f'<line class="pool" x1="{x(pool[0])}" y1="{top - 8}" x2="{x(pool[0])}" '
            f'y2="{top + height + 8}"><title>pool mean {_pct(pool[0])}</title></line>'
        )
    parts.append(f'<line class="axis" x1="{x(0)}" y1="{axis}" x2="{x(1)}" y2="{axis}"/>')
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line class="axis" x1="{x(tick)}" y1="{axis}" x2="{x(tick)}" y2="{axis + 4}"/>'
            f'<text x="{x(tick)}" y="{axis + 16}" text-anchor="middle">{tick:.0%}</text>'
        )
    legend = [f"player {_pct(value)}"]
    if reference is not None:
        legend.append(f"range {_pct(reference[0])}-{_pct(reference[1])}")
    elif pool is not None and pool[1] is not None:
        legend.append("band: pool +/- 1 sd")
    if pool is not None:
        legend.append(f"pool mean {_pct(pool[0])} (dashed)")
    parts.append(
        f'<text x="{x(0)}" y="{BAR_HEIGHT - 4}" class="legend">{escape(" · ".join(legend))}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def results_curve(curve: Curve) -> str:
    """A currency's running net over its hands: actual (solid) and all-in adjusted (dashed),
    with the zero line and the extremes labelled in that currency."""
    left, right, top, bottom = 96, 12, 12, 36
    inner_w = CURVE_WIDTH - left - right
    inner_h = CURVE_HEIGHT - top - bottom
    values = [0.0, *curve.net, *curve.allin]
    low, high = min(values), max(values)
    if high == low:
        high, low = high + 1, low - 1
    last = max(curve.numbers[-1] if curve.numbers else 1, 1)

    def x(number: float) -> float:
        return round(left + inner_w * number / last, 1)

    def y(total: float) -> float:
        return round(top + inner_h * (high - total) / (high - low), 1)

    def line(totals: Sequence[float]) -> str:
        return " ".join(
            f"{x(n)},{y(t)}" for n, t in zip([0, *curve.numbers], [0.0, *totals], strict=True)
        )

    label = f"Results in {currency_label(curve.currency)}"
    end = money_text(curve.net[-1] if curve.net else 0, curve.currency, signed=True)
    parts = [
        f'<svg class="chart curve" width="{CURVE_WIDTH}" '
        f'height="{CURVE_HEIGHT}" viewBox="0 0 {CURVE_WIDTH} {CURVE_HEIGHT}" role="img" '
        f'aria-label="{escape(label)}: {escape(end)} over {curve.hands:,} hands">',
        f"<title>{escape(end)} over {curve.hands:,} hands</title>",
        f'<line class="axis" x1="{left}" y1="{top}" x2="{left}" y2="{top + inner_h}"/>',
        f'<line class="zero" x1="{left}" y1="{y(0)}" x2="{left + inner_w}" y2="{y(0)}"/>',
    ]
    for total in sorted({high, low, 0.0}):
        parts.append(
            f'<text x="{left - 6}" y="{y(total) + 4}" text-anchor="end">'
            f"{escape(money_text(round(total, 2), curve.currency, signed=True))}</text>"
        )
    parts += [
        f'<polyline class="allin" points="{line(curve.allin)}"><title>all-in adjusted</title>'
        "</polyline>",
        f'<polyline class="net" points="{line(curve.net)}"><title>net won</title></polyline>',
        f'<text x="{left}" y="{CURVE_HEIGHT - 8}">0</text>',
        f'<text x="{left + inner_w}" y="{CURVE_HEIGHT - 8}" text-anchor="end">'
        f"{curve.hands:,} hands</text>",
        "</svg>",
    ]
    return "".join(parts)
