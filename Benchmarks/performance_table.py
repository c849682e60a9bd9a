#!/usr/bin/env python3
"""Renders the README's Performance table from one `actuate-bench --json PATH` run.

    swift run -c release actuate-bench --json bench.json
    python3 Benchmarks/performance_table.py bench.json

Each row: the subject's median with its min and max over the rounds, the baseline measured in the same rounds
(interleaved), and the median of the per-round ratios with their min and max. Nothing is typed in by hand.
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


def main(path):
    results = json.load(open(path))
    print("| benchmark | Actuate, median (min–max) | baseline in the same rounds | ratio, median of rounds (min–max) |")
    print("|---|---|---|---|")
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
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
