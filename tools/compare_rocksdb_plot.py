#!/usr/bin/env python3
"""Draws compare_rocksdb.py's PNGs from the JSON spec it writes:

  {"title": ..., "ratios": [[label, strata/RocksDB], ...],
   "ratios_png": path, "timeline": {engine: [[secs, ops/sec], ...]},
   "timeline_title": ..., "timeline_png": path,
   "timelines": [{"png": path, "title": ...,
                  "panels": [[phase, {engine: [[secs, ops/sec], ...]}]]}]}

(any part may be missing; "timelines" are the --scale runs' fill and
overwrite, one PNG per scale with a panel per phase). A script of its own because it runs under
whichever interpreter has matplotlib, e.g. Debian's /usr/bin/python3 with
python3-matplotlib while compare_rocksdb.py runs under another python3.

Usage: compare_rocksdb_plot.py SPEC.json
"""

import json
import sys

import matplotlib

matplotlib.use("Agg")  # no display
import matplotlib.pyplot as plt  # noqa: E402


def plot_ratios(spec):
    """Bars of strata/RocksDB per benchmark, green at or above 1.0, red
    below, with a line at 1.0 (par)."""
    labels = [r[0] for r in spec["ratios"]]
    values = [r[1] for r in spec["ratios"]]
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(labels)), 4.5))
    colors = ["tab:green" if v >= 1.0 else "tab:red" for v in values]
    bars = ax.bar(range(len(values)), values, color=colors)
    for bar, v in zip(bars, values):
        ax.annotate("%.2f" % v, (bar.get_x() + bar.get_width() / 2, v),
                    ha="center", va="bottom", fontsize=8)
    ax.axhline(1.0, color="black", linewidth=1)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_ylabel("ops/sec ratio, strata / RocksDB")
    ax.set_title(spec["title"], fontsize=9)
    fig.tight_layout()
    fig.savefig(spec["ratios_png"], dpi=110)
    plt.close(fig)


def plot_timeline(spec):
    """Throughput per one-second interval, one line per engine."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for engine, points in spec["timeline"].items():
        ax.plot([p[0] for p in points], [p[1] for p in points],
                label=engine, marker=".")
    ax.set_xlabel("seconds")
    ax.set_ylabel("ops/sec (1 s intervals)")
    ax.set_ylim(bottom=0)
    ax.legend()
    ax.set_title(spec["timeline_title"], fontsize=9)
    fig.tight_layout()
    fig.savefig(spec["timeline_png"], dpi=110)
    plt.close(fig)


def plot_panels(spec):
    """One PNG of side-by-side panels, a line per engine in each."""
    panels = spec["panels"]
    fig, axes = plt.subplots(1, len(panels), squeeze=False,
                             figsize=(6 * len(panels), 4.5))
    for ax, (phase, series) in zip(axes[0], panels):
        for engine, points in series.items():
            ax.plot([p[0] for p in points], [p[1] for p in points],
                    label=engine, linewidth=1)
        ax.set_xlabel("seconds")
        ax.set_ylabel("ops/sec (1 s intervals)")
        ax.set_ylim(bottom=0)
        ax.set_title(phase, fontsize=9)
        ax.legend()
    fig.suptitle(spec["title"], fontsize=9)
    fig.tight_layout()
    fig.savefig(spec["png"], dpi=110)
    plt.close(fig)


def main(argv):
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[0]) as f:
        spec = json.load(f)
    if spec.get("ratios"):
        plot_ratios(spec)
    if spec.get("timeline"):
        plot_timeline(spec)
    for panels in spec.get("timelines", []):
        plot_panels(panels)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
