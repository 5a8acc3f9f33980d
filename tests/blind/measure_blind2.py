"""Measure `harness detect` on a held-out blind corpus and print aggregates only.

The corpora (``tests/fixtures/blind2``, the default, ``tests/fixtures/blind3`` and
``tests/fixtures/blind-status``) are held out:
run this once per detector version and report the aggregates. It prints no single pair, message or
file name, so running it does not turn a corpus into tuning data; reading the detector's findings
on it would.

Usage (from the repository root)::

    PYTHONPATH=$PWD python -m tests.blind.measure_blind2              # default and --semantic
    PYTHONPATH=$PWD python -m tests.blind.measure_blind2 --mode default
    PYTHONPATH=$PWD python -m tests.blind.measure_blind2 --corpus blind3
    PYTHONPATH=$PWD python -m tests.blind.measure_blind2 --detect-json OUT.json  # score a saved run

It asserts nothing; ``tests/blind/test_blind2.py`` holds the floors.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fixtures" / "blind2"
CORPORA = ("blind2", "blind3", "blind-status")
SCORER = ROOT / "tests" / "fixtures" / "duplicates-dev" / "score.py"

Pair = frozenset[str]
CLI = "import sys; from harness.cli import main; sys.exit(main())"


def run_detect(semantic: bool, out: Path, corpus: Path = CORPUS) -> float:
    """Run `harness detect` on every transcript of a corpus, writing JSON to ``out``.

    Args:
        semantic: Whether to pass ``--semantic``.
        out: Where the JSON report goes.
        corpus: The corpus folder (default: blind2).

    Returns:
        The CPU time (user + sys) of the child process, in seconds.
    """
    files = sorted(str(p) for p in corpus.glob("*.transcript"))
    cmd = [sys.executable, "-c", CLI, "detect", *files, "--format", "json", "-o", str(out)]
    if semantic:
        cmd.append("--semantic")
    before = _children_cpu()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode not in (0, 1) or not out.exists():
        raise SystemExit(f"harness detect failed (exit {proc.returncode}): {proc.stderr[-2000:]}")
    return _children_cpu() - before


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def predicted(report: dict[str, Any]) -> tuple[dict[str, set[Pair]], dict[str, list[set[str]]]]:
    """Duplicate pairs and awkward-ack findings per transcript file name, as score.py reads them."""
    pairs: dict[str, set[Pair]] = {}
    awkward: dict[str, list[set[str]]] = {}
    for entry in report.get("transcripts", []):
        name = Path(str(entry.get("file", ""))).name
        for finding in entry.get("findings") or []:
            ids = sorted(set(finding.get("message_ids") or []))
            if finding.get("kind") == "duplicate":
                pairs.setdefault(name, set()).update(frozenset(p) for p in combinations(ids, 2))
            elif finding.get("kind") == "awkward_ack" and ids:
                awkward.setdefault(name, []).append(set(ids))
    return pairs, awkward


class Totals(NamedTuple):
    """The headline counts of one detect report against a blind corpus's labels."""

    found: int  # labelled duplicate pairs reported
    reported: int  # duplicate pairs reported
    labelled: int  # labelled duplicate pairs
    hard_negatives: int  # labelled hard negatives reported


def totals(report: dict[str, Any], labels: dict[str, Any]) -> Totals:
    """Count what a report found, over the whole corpus (no single pair is returned)."""
    pred, _ = predicted(report)
    found = reported = labelled = hard = 0
    for name, lab in labels["transcripts"].items():
        gold = {frozenset(p) for p in lab["duplicates"]}
        got = pred.get(name, set())
        found += len(gold & got)
        reported += len(got)
        labelled += len(gold)
        hard += len((got - gold) & {frozenset(p) for p in lab["hard_negatives"]})
    return Totals(found, reported, labelled, hard)


def load_labels(corpus: Path) -> dict[str, Any]:
    """A corpus's ``labels.json``; where a ``hard_negative_classes.json`` gives each hard
    negative a class (blind-status: ``update``, ``control``, ``other``), each becomes a
    ``hard_negative_detail`` entry of kind ``<class> <scope>``, so the report counts them."""
    labels: dict[str, Any] = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    classes = corpus / "hard_negative_classes.json"
    if classes.exists():
        for name, entries in json.loads(classes.read_text(encoding="utf-8"))["transcripts"].items():
            labels["transcripts"][name]["hard_negative_detail"] = [
                {"pair": e["pair"], "kind": f"{e['class']} {e['scope']}"} for e in entries
            ]
    return labels


def ratio(num: int, den: int) -> str:
    """``num/den = 0.xx`` (or ``-`` for an empty denominator)."""
    return f"{num}/{den} = {num / den:.2f}" if den else f"{num}/0 = -"


def score(report: dict[str, Any], labels: dict[str, Any], clean_bot: int) -> list[str]:
    """Aggregate figures of one detect report against a blind corpus's labels (no single errors).

    Args:
        report: ``harness detect --format json`` output.
        labels: The corpus's ``labels.json``.
        clean_bot: Bot messages in the transcripts without duplicates (for the false-alarm rate).

    Returns:
        The lines to print.
    """
    pred, pred_awk = predicted(report)
    tp = n_pred = n_gold = hn_fp = other_fp = clean_fp = 0
    hit: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    hn_hit: Counter[str] = Counter()
    hn_total: Counter[str] = Counter()
    n_hn = 0
    awk_gold = awk_found = awk_findings = awk_good = 0
    for name, lab in labels["transcripts"].items():
        gold = {frozenset(p) for p in lab["duplicates"]}
        hns = {frozenset(p) for p in lab["hard_negatives"]}
        got = pred.get(name, set())
        tp += len(gold & got)
        n_pred += len(got)
        n_gold += len(gold)
        hn_fp += len((got - gold) & hns)
        n_hn += len(hns)
        other_fp += len(got - gold - hns)
        if not gold:
            clean_fp += len(got)
        for d in lab["duplicate_detail"]:
            found = frozenset(d["pair"]) in got
            for dim in ("scope", "method", "kind"):
                if dim in d:  # the hand-corpus builder's labels give no kind
                    total[(dim, d[dim])] += 1
                    hit[(dim, d[dim])] += found
        for d in lab.get("hard_negative_detail", []):
            hn_total[d["kind"]] += 1
            hn_hit[d["kind"]] += frozenset(d["pair"]) in got
        gawk = set(lab["awkward_ack"])
        findings = pred_awk.get(name, [])
        awk_gold += len(gawk)
        awk_found += len(gawk & set().union(*findings)) if findings else 0
        awk_findings += len(findings)
        awk_good += sum(1 for f in findings if f & gawk)
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 1.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    lines = [
        f"duplicates: P {ratio(tp, n_pred)}  R {ratio(tp, n_gold)}  F1 {f1:.2f}",
        f"false positives: {hn_fp} on labelled hard negatives (of {n_hn}),"
        f" {other_fp} on unlabelled pairs",
        f"clean transcripts: {clean_fp} flagged pairs on {clean_bot} bot messages"
        f" ({1000 * clean_fp / clean_bot if clean_bot else 0:.1f} per 1,000)",
        f"awkward acks: P {ratio(awk_good, awk_findings)}  R {ratio(awk_found, awk_gold)}",
    ]
    for dim in ("scope", "method", "kind"):
        keys = sorted(k for k in total if k[0] == dim)
        if not keys:  # the labels give no such detail
            continue
        parts = "  ".join(f"{k[1]} {hit[k]}/{total[k]}" for k in keys)
        lines.append(f"recall by {dim}: {parts}")
    if hn_total:
        lines.append(
            "hard negatives flagged by kind: "
            + "  ".join(f"{k} {hn_hit[k]}/{hn_total[k]}" for k in sorted(hn_total))
        )
    return lines


def scorer_line(detect_json: Path, corpus: Path = CORPUS) -> str:
    """The last line of the duplicates-dev scorer on the same output (a format cross-check)."""
    proc = subprocess.run(
        [sys.executable, str(SCORER), str(detect_json), str(corpus / "labels.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = proc.stdout.strip().splitlines()
    return lines[-1] if lines else f"(no output: {proc.stderr.strip()[-200:]})"


def main(argv: list[str] | None = None) -> int:
    """Run the measurement and print aggregates.

    Args:
        argv: Command-line arguments (default: ``sys.argv[1:]``).

    Returns:
        The exit status (0).
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("default", "semantic", "both"), default="both")
    parser.add_argument("--corpus", choices=CORPORA, default="blind2")
    parser.add_argument(
        "--detect-json", type=Path, help="score this saved report instead of running"
    )
    args = parser.parse_args(argv)
    corpus = CORPUS.parent / args.corpus
    labels = load_labels(corpus)
    bots = {
        p.name: sum(
            1
            for a in json.loads(p.read_text("utf-8"))
            if a.get("type") == "message" and a["from"].get("role") == "bot"
        )
        for p in corpus.glob("*.transcript")
    }
    n_bot = sum(bots.values())
    clean_bot = sum(n for name, n in bots.items() if not labels["transcripts"][name]["duplicates"])
    n_dup = sum(len(t["duplicates"]) for t in labels["transcripts"].values())
    n_hn = sum(len(t["hard_negatives"]) for t in labels["transcripts"].values())
    print(
        f"{args.corpus}: {len(labels['transcripts'])} transcripts, {n_bot} bot messages,"
        f" {n_dup} duplicate pairs, {n_hn} hard negatives"
    )
    if args.detect_json:
        runs = [(f"saved report {args.detect_json.name}", args.detect_json, None)]
    else:
        tmp = Path(tempfile.mkdtemp(prefix=f"{args.corpus}-"))
        modes = ("default", "semantic") if args.mode == "both" else (args.mode,)
        runs = []
        for mode in modes:
            out = tmp / f"{mode}.json"
            cpu = run_detect(mode == "semantic", out, corpus)
            runs.append(
                ("harness detect" + (" --semantic" if mode == "semantic" else ""), out, cpu)
            )
    for title, path, cpu in runs:
        report = json.loads(path.read_text(encoding="utf-8"))
        print()
        print(f"== {title}" + ("" if cpu is None else f" ({cpu:.1f} s CPU)"))
        for line in score(report, labels, clean_bot):
            print("  " + line)
        print("  score.py: " + scorer_line(path, corpus))
    return 0


if __name__ == "__main__":
    sys.exit(main())
