#!/usr/bin/env python3
"""Renders the README's Performance table from one `actuate-bench --json PATH` run.

    swift run -c release actuate-bench --json bench.json
    python3 Benchmarks/performance_table.py bench.json

Each row: the subject's median with its min and max over the rounds, the baseline measured in the same rounds
(interleaved), the median of the per-round ratios with their min and max, and the targets of the performance
issue the figure is held to: met or missed at the median, and in how many rounds. Nothing is typed in by hand.
"""
import json
import statistics
import sys


def number(value):
    if value >= 100_000:
        return f"{value:,.0f}"
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def figure(samples, unit):
    unit = {"ns/op": "ns", "events/s": "events/s", "dispatches/s": "dispatches/s", "calls/s": "calls/s"}.get(unit, unit)
    return f"{number(statistics.median(samples))} {unit} ({number(min(samples))}–{number(max(samples))})"


def values(result, quantity):
    subject, baseline = result["subject"]["samples"], (result.get("baseline") or {}).get("samples")
    if quantity == "median":
        return subject
    if baseline and len(baseline) == len(subject):
        return [s / b for s, b in zip(subject, baseline) if b]
    return [statistics.median(subject) / statistics.median(baseline)] if baseline else []


def targets(result):
    cells = []
    for target in result.get("targets", []):
        found = values(result, target["quantity"])
        if not found:
            continue
        higher = target["higherIsBetter"]
        met = (lambda v: v >= target["bound"]) if higher else (lambda v: v <= target["bound"])
        unit = "×" if target["quantity"] == "ratio" else " " + result["subject"]["unit"]
        verdict = "**met**" if met(statistics.median(found)) else "missed"
        rounds = sum(1 for v in found if met(v))
        cells.append(f"{'≥' if higher else '≤'} {number(target['bound'])}{unit}: {verdict} ({rounds}/{len(found)} rounds)")
    return "; ".join(cells) or "—"


def main(path):
    results = json.load(open(path))
    print(
        "| benchmark | Actuate, median (min–max) | baseline in the same rounds | ratio, median of rounds (min–max) "
        "| target |"
    )
    print("|---|---|---|---|---|")
    for result in results:
        subject, baseline = result["subject"], result.get("baseline")
        row = [f"{result['name']}", f"{subject['label']}: {figure(subject['samples'], subject['unit'])}"]
        if baseline:
            row.append(f"{baseline['label']}: {figure(baseline['samples'], baseline['unit'])}")
            ratios = [s / b for s, b in zip(subject["samples"], baseline["samples"]) if b]
            better = "higher" if result.get("higherIsBetter") else "lower"
            row.append(
                f"{statistics.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f}), {better} is better"
            )
        else:
            row += ["—", "—"]
        row.append(targets(result))
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
