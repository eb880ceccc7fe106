#!/usr/bin/env python3
"""The README's regime-map figure, drawn from the README's own regime tables (issue 13, 19).

Usage: tools/docs/plot_regimes.py [README.md] [docs/images/regimes.png]

Left: the reduced models' map ("Falling plates: the regime map": square plates and cards,
three sizes, air and water, I* 0.005–2; one row per model, size and fluid). Right: the 2D
fluid reference against samara for APW's 1/8-thick plates ("As a regime map (reference /
samara ...)", I* 0.15–1). Each cell is coloured by its regime (steady, fluttering, chaotic,
tumbling) and keeps its letter, so the picture says what the tables say and no more:
rerun this after a table changes. Needs matplotlib (Debian: python3-matplotlib); only for
this figure, not for building samara.
"""
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COLOURS = {"s": "#d9d9d9", "f": "#74add1", "c": "#fdae61", "t": "#d73027", "": "#ffffff"}
NAMES = {"s": "steady", "f": "fluttering", "c": "chaotic", "t": "tumbling"}


def table_after(lines, marker):
    """The first Markdown table after the line that contains `marker`: header, rows."""
    start = next(i for i, line in enumerate(lines) if marker in line)
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("- "):
                rows.append(cells)
        elif rows:
            break
    return rows[0], rows[1:]


def regime(cell):
    """The regime letter of a cell: its first word's first letter (s, f, c, t), or ''."""
    m = re.match(r"\s*([sfctSFCT])", cell)
    return m.group(1).lower() if m else ""


def reduced_map(lines):
    header, rows = table_after(lines, "**Falling plates: the regime map**")
    istars = [h.replace("I*", "").strip() for h in header[2:]]
    labels, grid = [], []
    for r in rows:
        model = r[0].replace("`", "").replace("ct 0.4, cr 2π, cd0 0.4", "APW's law")
        model = model.replace("ct 0.4, cr 2π, cd0 0.2, rec 100", "APW, cd0 0.2, Re_c 100")
        model = model.replace("samara (default): ct 0.4, cr 2π, cd0 0.3, rec 100", "samara (default)")
        model = model.replace("pressure and friction alone", "pressure + friction")
        labels.append("%s · %s" % (model, re.sub(r"\s*\(.*\)", "", r[1])))
        grid.append([regime(c) for c in r[2:]])
    return istars, labels, grid


def reference_map(lines):
    header, rows = table_after(lines, "As a regime map (reference / samara")
    istars = [h.replace("I*", "").strip() for h in header[1:]]
    labels, ref, red = [], [], []
    for r in rows:
        labels.append(re.sub(r"\s*\(.*\)", "", r[0]))
        pairs = [c.split("/") for c in r[1:]]
        ref.append([regime(p[0]) if p[0].strip() else "" for p in pairs])
        red.append([regime(p[1]) if len(p) > 1 else "" for p in pairs])
    return istars, labels, ref, red


def draw(ax, istars, labels, grid, title, split=None):
    """Cells coloured by regime with their letter; `split`: a second grid drawn as the
    lower half of each cell (the reference's map on top, samara's below)."""
    for i, row in enumerate(grid):
        for j, g in enumerate(row):
            if split is None:
                ax.add_patch(plt.Rectangle((j, i), 1, 1, color=COLOURS[g], ec="white"))
                ax.text(j + 0.5, i + 0.5, g, ha="center", va="center", fontsize=9)
                continue
            h = split[i][j]
            if not g and not h:
                continue
            ax.add_patch(plt.Rectangle((j, i), 1, 0.5, color=COLOURS[g], ec="white"))
            ax.add_patch(plt.Rectangle((j, i + 0.5), 1, 0.5, color=COLOURS[h], ec="white"))
            ax.text(j + 0.5, i + 0.25, g.upper(), ha="center", va="center", fontsize=9)
            ax.text(j + 0.5, i + 0.75, h, ha="center", va="center", fontsize=9)
    ax.set_xlim(0, len(istars))
    ax.set_ylim(len(grid), 0)
    ax.set_xticks([j + 0.5 for j in range(len(istars))])
    ax.set_xticklabels(istars)
    ax.set_yticks([i + 0.5 for i in range(len(grid))])
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel("I* = ρ_p t / (ρ_f L)")
    ax.set_title(title, fontsize=10)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)


def main(readme, out):
    with open(readme, encoding="utf-8") as f:
        lines = f.read().splitlines()
    istars, labels, grid = reduced_map(lines)
    ri, rlabels, ref, red = reference_map(lines)
    fig, (a, b) = plt.subplots(1, 2, figsize=(14, 5.2), dpi=100,
                               gridspec_kw={"width_ratios": [1.6, 1]})
    draw(a, istars, labels, grid, "reduced models, 3D plates released at 20° (20 s; † rows 30 s)")
    draw(b, ri, ["APW plate, %s chord" % l for l in rlabels], ref,
         "2D: fluid reference (upper, capitals)\n/ samara, default law (lower)", split=red)
    fig.legend(handles=[Patch(color=COLOURS[k], label=NAMES[k]) for k in "sfct"],
               loc="lower center", ncol=4, frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.savefig(out)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else os.path.join(ROOT, "README.md"),
         args[1] if len(args) > 1 else os.path.join(ROOT, "docs", "images", "regimes.png"))
