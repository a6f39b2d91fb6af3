#!/usr/bin/env python3
# Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
"""Draws check.sh's table as an SVG bar chart: each row's instructions as a ratio of its peer's, on a log scale,
with the CI limit marked. Generated, never hand-drawn.

Usage: Benchmarks/InstructionCounts/check.sh | python3 Benchmarks/InstructionCounts/chart.py > Benchmarks/instructions.svg
"""
import math
import re
import sys

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


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


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
    out.append(f'<text x="{x(ratio) + 4:.1f}" y="{y + 13}">{ratio:g}x</text>')
    if limit:
        out.append(f'<line x1="{x(limit):.1f}" y1="{y - 2}" x2="{x(limit):.1f}" y2="{y + row_height - 6}" '
                   'stroke="#000" stroke-width="2"/>')
out.append("</svg>")
print("\n".join(out))
