"""The text judgement on the labelled sets (tests/labels/), per set and split (tuned / held out):

- durable-kind recall: labelled decision/rule/fact/correction/permission/error/open lines that
  `session end`'s compaction and `transcript compact` keep verbatim (target >= 0.95);
- chatter dropped: labelled chatter and junk lines session end does not keep verbatim (>= 0.8);
- gate precision and recall on the labelled promotion candidates with the score, recall and age
  signals satisfied, so the content rules decide (>= 0.97 and >= 0.85);
- with --replay, the labelled durable corpus lines in cold after a real `session end` of their
  files (tests/replay_labelled.py, target: all), and the corpus replay's tokens kept / tokens in
  (benchmarks/bench_replay.py, <= 15 %).

- on the labelled corpus SENTENCES (tests/labels/sentences_corpus.tsv, issue 21), per part: precision
  and recall of "worth keeping" and of noise, the share of worth-keeping sentences kept verbatim by
  session end and by transcript compact (target >= 0.95), the share of noise tokens removed (>= 0.85)
  and tokens kept / tokens in, beside keep-everything and the judgement of OLD_JUDGEMENT (its
  tiergit/ taken from git and measured by this script in a subprocess).

Prints each miss with --verbose. The floor beside the timings: reading the labelled sets only.
Usage: python benchmarks/bench_judge.py [--corpus PATH] [--verbose] [--replay]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
OLD_JUDGEMENT = "b685ff2"   # the last commit before issue 21's sentence judgement
sys.path.insert(0, str(PROJECT / "tests"))
if "--sentences-json" not in sys.argv:   # that mode measures whichever tiergit PYTHONPATH names
    sys.path.insert(0, str(PROJECT))


def fmt(value: float) -> str:
    return "  -  " if value != value else f"{value:.3f}"


SPLITS = ("tune", "held", "new", "round6", "round7", "round8", "round9", "round10")   # round 4's two parts; rounds 5-10's samples
SENTENCE_FIGURES = ("keep_precision", "keep_recall", "junk_precision", "junk_recall", "session_end_kept",
                    "transcript_kept", "noise_tokens_removed")


def sentence_figures(corpus: Path) -> dict:
    """The issue-21 figures on the labelled sentences, per part, for the tiergit this process imports."""
    import sentence_eval as se
    items = [s for sample in se.SAMPLES for s in se.sentences(corpus, sample=sample)]
    out = {}
    for split in SPLITS:
        m = se.metrics(corpus, [s for s in items if s.split == split])
        out[split] = {k: v for k, v in m.items() if not isinstance(v, list)}
        out[split]["misses"] = [f"{s.label} {s.rel}:{s.line}" for s in m["missed_session_end"] + m["missed_transcript"]]
        out[split]["noise_kept"] = [f"{s.label} {s.rel}:{s.line}" for s in m["noise_kept"]]
    return out


def old_sentence_figures(corpus: Path) -> dict | None:
    """The same figures under the judgement of OLD_JUDGEMENT: its tiergit/ extracted from git and this
    script run again on it (None when git or the commit is not there, e.g. in an sdist)."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(PROJECT), "archive", OLD_JUDGEMENT, "tiergit"], capture_output=True)
        if archive.returncode != 0:
            return None
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        run = subprocess.run([sys.executable, __file__, "--sentences-json", "--corpus", str(corpus)],
                             capture_output=True, text=True, env={**os.environ, "PYTHONPATH": tmp})
        return json.loads(run.stdout) if run.returncode == 0 else None


def print_sentences(corpus: Path, verbose: bool) -> None:
    import sentence_eval as se

    n, agree, kappa = se.agreement()
    print(f"\nlabelled sentences: two independent readers agree on keep/noise for {agree}/{n}, Cohen's kappa "
          f"{kappa:.2f} (tests/labels/sentences_corpus_reader2.tsv)")
    n, agree, kappa = se.agreement("new")
    print(f"new held-out sample (round 5, part 'new'): two passes by the same author agree on {agree}/{n}, Cohen's "
          f"kappa {kappa:.2f} (not independent: tests/labels/sentences_corpus_new_reader2.tsv)")
    n, agree, kappa = se.agreement("new", reading="reader3")
    print(f"  and an independent third reader: {agree}/{n}, Cohen's kappa {kappa:.2f} (sentences_corpus_new_reader3.tsv)")
    n, agree, kappa = se.agreement("round6")
    print(f"round-6 held-out sample (part 'round6'): two passes by the same author agree on {agree}/{n}, Cohen's kappa "
          f"{kappa:.2f} (not independent: tests/labels/sentences_corpus_round6_reader2.tsv)")
    for reading in ("reader3", "reader4"):
        n, agree, kappa = se.agreement("round6", reading=reading)
        print(f"  and an independent {reading}: {agree}/{n} with the first pass, Cohen's kappa {kappa:.2f} "
              f"(sentences_corpus_round6_{reading}.tsv)")
    n, agree, kappa = se.agreement_between("round6", "reader3", "reader4")
    print(f"  the two independent readers with each other: {agree}/{n}, Cohen's kappa {kappa:.2f}; every sample's "
          f"disagreements are resolved as worth keeping (any reading that keeps)")
    n, agree, kappa = se.agreement("round7")
    print(f"round-7 held-out sample (part 'round7'): two independent readers agree on {agree}/{n}, Cohen's kappa "
          f"{kappa:.2f} (sentences_corpus_round7.tsv, sentences_corpus_round7_reader2.tsv)")
    n, agree, kappa = se.agreement("round8")
    print(f"round-8 held-out sample (part 'round8', the clean one): two independent readers agree on {agree}/{n}, "
          f"Cohen's kappa {kappa:.2f} (sentences_corpus_round8.tsv, sentences_corpus_round8_reader2.tsv)")
    n, agree, kappa = se.agreement("round9")
    print(f"round-9 sample (part 'round9', drawn and read at the start of stop 34, opened for tuning after one reading): "
          f"two independent readers agree on {agree}/{n}, Cohen's kappa {kappa:.2f} (sentences_corpus_round9.tsv, "
          f"sentences_corpus_round9_reader2.tsv)")
    n, agree, kappa = se.agreement("round10")
    print(f"round-10 held-out sample (part 'round10', drawn when round 9 was opened): two independent readers agree on "
          f"{agree}/{n}, Cohen's kappa {kappa:.2f} (sentences_corpus_round10.tsv, sentences_corpus_round10_reader2.tsv)")
    for labels, what in (("first", "the first reader's labels"),
                         ("resolved", "resolved labels: worth keeping when any reading says so")):
        os.environ["TIERGIT_SENTENCE_LABELS"] = labels
        _print_sentence_part(corpus, verbose, what)


def _print_sentence_part(corpus: Path, verbose: bool, what: str) -> None:
    new, old = sentence_figures(corpus), old_sentence_figures(corpus)
    print(f"\n{what} (tests/labels/sentences_corpus.tsv, part new: sentences_corpus_new.tsv, part round6: "
          f"sentences_corpus_round6.tsv, part round7: sentences_corpus_round7.tsv, part round8: "
          f"sentences_corpus_round8.tsv, part round9: sentences_corpus_round9.tsv, part round10: sentences_corpus_round10.tsv; targets: kept "
          f"verbatim >= 0.95, noise tokens removed >= 0.85)")
    print(f"{'judgement':<16} {'split':<5} {'n':>4} {'keep':>4} " + " ".join(f"{k:>10}" for k in (
        "keep P", "keep R", "junk P", "junk R", "sess.end", "transcr.", "noise rm")) + f" {'tokens kept/in':>22}")
    for split in SPLITS:
        rows = [("keep everything", None), ("old (" + OLD_JUDGEMENT + ")", old[split] if old else None), ("sentence judge", new[split])]
        m = new[split]
        base = {"keep_precision": m["worth_keeping"] / m["sentences"], "keep_recall": 1.0, "junk_precision": float("nan"),
                "junk_recall": 0.0, "session_end_kept": 1.0, "transcript_kept": 1.0, "noise_tokens_removed": 0.0,
                "tokens_in": m["tokens_in"], "tokens_kept": m["tokens_in"]}
        for name, figs in rows:
            figs = base if name == "keep everything" else figs
            if figs is None:
                print(f"{name:<16} {split:<5}   (not measured: git or {OLD_JUDGEMENT} not available)")
                continue
            share = figs["tokens_kept"] / figs["tokens_in"] if figs["tokens_in"] else float("nan")
            print(f"{name:<16} {split:<5} {m['sentences']:>4} {m['worth_keeping']:>4} "
                  + " ".join(f"{fmt(figs[k]):>10}" for k in SENTENCE_FIGURES)
                  + f" {figs['tokens_kept']:>9}/{figs['tokens_in']:<9} {100 * share:4.1f}%")
        if verbose:
            for miss in m["misses"]:
                print(f"    not kept verbatim: {miss}")
            for kept in m["noise_kept"]:
                print(f"    noise kept:        {kept}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("TIERGIT_CORPUS", str(PROJECT.parent / "shared" / "corpus")))
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--replay", action="store_true")
    ap.add_argument("--sentences-json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    corpus = Path(args.corpus)
    if args.sentences_json:
        print(json.dumps(sentence_figures(corpus)))
        return
    import judge_eval as je
    t0 = time.perf_counter()
    lines = je.memory_lines(corpus if corpus.is_dir() else None)
    cands = je.candidate_lines(corpus if corpus.is_dir() else None)
    floor = time.perf_counter() - t0
    print(f"{'memory lines':<14} {'split':<5} {'lines':>5} {'durable':>7} {'recall':>7} {'transcr.':>8} "
          f"{'chatter':>7} {'dropped':>7}")
    t0 = time.perf_counter()
    for name in ("written", "corpus"):
        for split in ("tune", "held", "all"):
            part = [ln for ln in lines if ln.set == name and (split == "all" or ln.split == split)]
            if not part:
                continue
            m = je.memory_metrics(part)
            print(f"{name:<14} {split:<5} {m['lines']:>5} {m['durable']:>7} {fmt(m['durable_recall']):>7} "
                  f"{fmt(m['transcript_recall']):>8} {m['chatter']:>7} {fmt(m['chatter_dropped']):>7}")
            if args.verbose and split != "all":
                for ln in m["missed"]:
                    print(f"    missed [{ln.kind}] {ln.text[:100]!r}")
                for ln in m["chatter_kept"]:
                    print(f"    kept   [{ln.kind}] {ln.text[:100]!r}")
    print(f"\n{'candidates':<14} {'split':<5} {'cands':>5} {'good':>5} {'passed':>6} {'precision':>9} {'recall':>7}")
    for name in ("written", "dreams", "written-cold", "corpus-cold"):
        for split in ("tune", "held", "all"):
            part = [c for c in cands if c.set == name and (split == "all" or c.split == split)]
            if not part:
                continue
            m = je.gate_metrics(part)
            print(f"{name:<14} {split:<5} {m['candidates']:>5} {m['good']:>5} {m['promoted']:>6} "
                  f"{fmt(m['precision']):>9} {fmt(m['recall']):>7}")
            if args.verbose and split != "all":
                for c, why in m["bad_promoted"]:
                    print(f"    promoted, labelled reject ({c.reason}): {c.raw[:90]!r}")
                for c, why in m["good_rejected"]:
                    print(f"    rejected, labelled promote: {c.raw[:70]!r} -> {why[:60]}")
    for split in ("tune", "held", "all"):
        part = [ln for ln in lines if ln.set == "corpus" and (split == "all" or ln.split == split)]
        if part:
            c = je.ceiling(part)
            print(f"budget ceiling, corpus {split}: durable lines are {100 * c['durable_share']:.1f}% of the labelled "
                  f"lines' tokens; recall 0.95 keeps >= {100 * c['share_for_095']:.1f}%; a perfect judge within "
                  f"{100 * c['budget']:.0f}% keeps {fmt(c['best_recall'])}")
    took = time.perf_counter() - t0
    if corpus.is_dir():
        print_sentences(corpus, args.verbose)
    print(f"\njudged {len(lines)} memory lines and {len(cands)} candidates in {took:.2f} s "
          f"(floor: reading the labelled sets {floor:.2f} s)")
    if args.replay and corpus.is_dir():
        import replay_labelled
        results = replay_labelled.outcomes(corpus)
        for split in ("tune", "held"):
            part = [r for r in results if r.line.split == split]
            kept = [r for r in part if r.kept_kind]
            print(f"session end of the labelled files, {split}: {sum(r.in_cold for r in part)}/{len(part)} labelled durable "
                  f"lines in cold = {fmt(je.ratio(sum(r.in_cold for r in part), len(part)))}; of those judged durable "
                  f"in place, in cold: {sum(r.in_cold for r in kept)}/{len(kept)}")
            reasons = Counter(replay_labelled.miss_reason(corpus, r) for r in part if not r.in_cold)
            print("    not in cold: " + ", ".join(f"{n} {why}" for why, n in reasons.most_common()))
    if args.replay:
        subprocess.run([sys.executable, str(PROJECT / "benchmarks" / "bench_replay.py"), "--runs", "1"],
                       env={**os.environ, "TIERGIT_CORPUS": str(corpus)}, check=False)


if __name__ == "__main__":
    main()
