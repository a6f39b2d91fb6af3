#!/usr/bin/env python3
# Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
"""Draws check.sh's table as an SVG bar chart: each row's instructions as a ratio of its peer's, on a log scale,
with the CI limit marked; or, with --scaling, scaling.sh's table as log-log curves, one panel per curve, ExecKit
beside its peer. Generated, never hand-drawn.

Usage: Benchmarks/InstructionCounts/check.sh | python3 Benchmarks/InstructionCounts/chart.py > Benchmarks/instructions.svg
       Benchmarks/InstructionCounts/scaling.sh | python3 Benchmarks/InstructionCounts/chart.py --scaling \
           > Benchmarks/scaling.svg
"""
import math
import re
import sys


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def scaling_chart(lines):
    """One log-log panel per curve: instructions per operation against the size, ExecKit and its peer."""
    curves = {}
    for line in lines:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[1].isdigit():
            continue  # the header, the separator, anything else
        number = lambda cell: float(cell) if cell not in ("-", "") else None
        curves.setdefault(cells[0], []).append((int(cells[1]), number(cells[2]), number(cells[3])))
    if not curves:
        sys.exit("chart.py: no scaling rows on standard input; pipe scaling.sh's output in")

    panel_width, panel_height, margin, top = 380, 260, 60, 50
    series = (("ExecKit", 1, "#2a7"), ("peer", 2, "#d83"))
    width = margin + len(curves) * (panel_width + margin)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{top + panel_height + 60}" '
        'font-family="sans-serif" font-size="12">',
        '<text x="10" y="20" font-weight="bold">Instructions per operation against size (log-log; lower is '
        'faster)</text>',
    ]
    for index, (name, points) in enumerate(curves.items()):
        left = margin + index * (panel_width + margin)
        sizes = [size for size, _, _ in points]
        values = [value for _, mine, theirs in points for value in (mine, theirs) if value]
        if not values:
            continue  # a curve with no measured point has nothing to draw
        x_low, x_high = math.log10(min(sizes)), math.log10(max(sizes))
        y_low = math.floor(math.log10(min(values)))
        y_high = math.ceil(math.log10(max(values)))

        def x(size):
            return left + (math.log10(size) - x_low) / max(x_high - x_low, 1e-9) * panel_width

        def y(value):
            return top + panel_height - (math.log10(value) - y_low) / max(y_high - y_low, 1e-9) * panel_height

        out.append(f'<text x="{left}" y="{top - 12}" font-weight="bold">{escape(name)}</text>')
        out.append(f'<rect x="{left}" y="{top}" width="{panel_width}" height="{panel_height}" fill="none" '
                   'stroke="#999"/>')
        for exponent in range(y_low, y_high + 1):
            out.append(f'<line x1="{left}" y1="{y(10 ** exponent):.1f}" x2="{left + panel_width}" '
                       f'y2="{y(10 ** exponent):.1f}" stroke="#eee"/>')
            out.append(f'<text x="{left - 4}" y="{y(10 ** exponent) + 4:.1f}" text-anchor="end">'
                       f'{10 ** exponent:,}</text>')
        for size in sizes:
            out.append(f'<text x="{x(size):.1f}" y="{top + panel_height + 16}" text-anchor="middle">{size:,}</text>')
        for label, column, colour in series:
            known = [(point[0], point[column]) for point in points if point[column]]
            path = " ".join(f"{x(size):.1f},{y(value):.1f}" for size, value in known)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
            for size, value in known:
                out.append(f'<circle cx="{x(size):.1f}" cy="{y(value):.1f}" r="3" fill="{colour}"/>')
            if known:
                size, value = known[-1]
                # Below the point when it sits at the top of the panel, where a label above would cross the border.
                label_y = y(value) + 16 if y(value) < top + 20 else y(value) - 8
                out.append(f'<text x="{x(size) - 6:.1f}" y="{label_y:.1f}" text-anchor="end" fill="{colour}">'
                           f'{label} {value:,.0f}</text>')
    out.append(f'<text x="{margin}" y="{top + panel_height + 40}">size: timers pending, or observers; ExecKit green, '
               'peer orange (DispatchSourceTimer, NotificationCenter)</text>')
    out.append("</svg>")
    return "\n".join(out)


if "--scaling" in sys.argv[1:]:
    print(scaling_chart(sys.stdin))
    sys.exit(0)

rows = []
for line in sys.stdin:
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) != 5 or not cells[3].endswith("x"):
        continue  # the header, the separator, anything else
    limit = re.search(r"<= ([0-9.]+)x", cells[4])
    rows.append((cells[0], float(cells[3][:-1]), float(limit.group(1)) if limit else None))
if not rows:
    sys.exit("chart.py: no rows on standard input; pipe check.sh's output in")

label_width, bar_width, row_height, top = 330, 420, 26, 40
low, high = math.log10(0.01), math.log10(10.0)  # the axis: 0.01x to 10x


def x(ratio):
    clamped = min(max(math.log10(ratio), low), high)
    return label_width + (clamped - low) / (high - low) * bar_width


height = top + row_height * len(rows) + 30
out = [
    f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_width + bar_width + 70}" height="{height}" '
    'font-family="sans-serif" font-size="12">',
    '<text x="10" y="20" font-weight="bold">Instructions per operation, as a ratio of the peer\'s '
    "(log scale; lower is faster; | marks CI's limit)</text>",
]
for tick in (0.01, 0.1, 1, 10):
    out.append(f'<line x1="{x(tick):.1f}" y1="{top - 8}" x2="{x(tick):.1f}" y2="{height - 24}" stroke="#ccc"/>')
    out.append(f'<text x="{x(tick):.1f}" y="{height - 10}" text-anchor="middle">{tick:g}x</text>')
for index, (name, ratio, limit) in enumerate(rows):
    y = top + index * row_height
    colour = "#2a7" if ratio <= 1 else "#d83"
    out.append(f'<text x="{label_width - 8}" y="{y + 13}" text-anchor="end">{escape(name)}</text>')
    out.append(
        f'<rect x="{x(0.01):.1f}" y="{y}" width="{x(ratio) - x(0.01):.1f}" height="{row_height - 8}" fill="{colour}"/>'
    )
    # After the bar and after the limit's mark, whichever ends further right, so that the two never overlap.
    label_x = max(x(ratio), x(limit) + 2 if limit else 0) + 4
    out.append(f'<text x="{label_x:.1f}" y="{y + 13}">{ratio:.2f}x</text>')
    if limit:
        out.append(f'<line x1="{x(limit):.1f}" y1="{y - 2}" x2="{x(limit):.1f}" y2="{y + row_height - 6}" '
                   'stroke="#000" stroke-width="2"/>')
out.append("</svg>")
print("\n".join(out))
