"""`tiergit promote` and `tiergit propose`: candidates, gate verdicts, wiki appends for review."""
from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import click

from tiergit.cli import echo_json, open_store

MAX_REJECTED_SHOWN = 50


def _row_text(r, width: int = 100) -> list[str]:
    c = r.cand
    mark = "PROMOTE" if r.verdict.accepted else "reject "
    text = c.text if len(c.text) <= width else c.text[: width - 1] + "…"
    careful = getattr(r.verdict, "safeguard", None)
    return [f"  {mark} {r.score.total:.2f}  {c.id}  {c.kind:<10} recalls {r.recalls:<3} {c.source}:{c.line} -> {r.target}",
            f"           {text}",
            f"           {r.verdict.reason}"] + ([f"           ⚠ {careful}"] if careful else [])


def render(promo, show_all: bool = False) -> str:
    return "\n".join(render_lines(promo, show_all))


def render_lines(promo, show_all: bool = False) -> Iterator[str]:
    """The report's lines, made as they are written (`--all` at 50k files is 600,000 lines: as one
    string, with any wide character in it, it took ~370 MB)."""
    s = promo.settings
    open_rows = [r for r in promo.rows if show_all or not r.settled]
    rejected = [r for r in open_rows if not r.verdict.accepted]
    shown = [r for r in open_rows if r.verdict.accepted] + (rejected if show_all else rejected[:MAX_REJECTED_SHOWN])
    yield (f"tiergit promote: {len(promo.rows)} candidate(s), {len(promo.accepted)} to promote "
           f"(gate: score >= {s.min_score:.2f}, recalls >= {s.min_recalls}, "
           f"age >= {s.min_age_days} days, durable kinds or recalled standing statements)")
    yield ""
    for r in shown:
        yield from _row_text(r)
    if not promo.accepted and open_rows:
        yield why_nothing(open_rows)
    more = len(open_rows) - len(shown)
    if more:
        yield f"  ({more} more rejected, with lower scores: --all lists them)"
    settled = len(promo.rows) - len(open_rows)
    if settled:
        yield f"  ({settled} already promoted, pending or rejected in review: not shown; --all lists them)"


WHY = {"recalls": "recalled too rarely (`tiergit recall`, `context --task` and MCP log recalls; OpenClaw's "
                   "memory/.dreams/short-term-recall.json counts too)",
       "age": "too young for gate.min_age_days", "score": "scored under gate.min_score",
       "kind": "not a durable kind", "safeguard": "weaken a safeguard", "instruction": "instruct the model",
       "junk": "junk", "ephemeral": "ephemeral", "duplicate": "near-duplicates", "raw-output": "raw or Dreaming output"}


def why_nothing(rows) -> str:
    """One line on why nothing moves: the candidates' failed checks, most common first."""
    from collections import Counter

    counts = Counter(r.verdict.failed or "?" for r in rows)
    parts = [f"{n} {WHY.get(name, name)}" for name, n in counts.most_common(4)]
    return "  nothing to promote: " + "; ".join(parts)


def render_explain(rows) -> str:
    out = []
    for r in rows:
        c = r.cand
        out += [f"{c.id}  {c.kind}  {c.source}:{c.line}" + (f"  [{c.entry}]" if c.entry else ""),
                f"  text: {c.text}",
                f"  age from: {c.age_day.isoformat() if c.age_day else 'unknown'}   recalls: {r.recalls}   "
                f"mentions: {r.mentions}   target: {r.target}" + ("   (proposed: forced)" if c.forced else ""),
                "  score:"]
        for name, value in r.score.signals.items():
            w = r.score.weights.get(name, 0.0)
            out.append(f"    {name:<14} {value:.3f} x {w:.2f} = {value * w:.3f}")
        out.append(f"    {'total':<14} {r.score.total:.3f}")
        out.append("  gate:")
        for chk in r.verdict.checks:
            out.append(f"    {'pass' if chk.passed else 'FAIL'}  {chk.name:<12} {chk.detail}")
        out.append(f"  verdict: {'promote' if r.verdict.accepted else 'reject'}: {r.verdict.reason}")
        out.append("")
    return "\n".join(out).rstrip()


@click.command()
@click.option("--apply", "do_apply", is_flag=True, help="Append accepted items to the wiki and log them for review.")
@click.option("--explain", "selector", metavar="SELECTOR", help="Show one candidate's score breakdown and every gate "
              "check (an id m-…, an id prefix, PATH:LINE, or words of its text).")
@click.option("--pr-body", "pr_body", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the pull-request body (markdown) to this file; - for stdout (the summary then goes to stderr).")
@click.option("--limit", type=click.IntRange(min=0), default=None, metavar="N", help="Promote at most N items this run.")
@click.option("--all", "show_all", is_flag=True, help="List every candidate (default: the accepted ones, the 50 "
              "best rejected, none already promoted or reviewed).")
@click.option("--open-pr", is_flag=True, help="Commit, push and open the pull request with the GitHub CLI (`gh`, logged in).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def promote(ctx: click.Context, do_apply: bool, selector: str | None, pr_body: Path | None, limit: int | None,
            show_all: bool, open_pr: bool, as_json: bool) -> None:
    """Score promotion candidates and gate them into the reviewed wiki.

    Candidates are durable (or recalled) items in tiers whose next tier is
    reviewed, plus staged items (`propose`, DREAMS.md, `import squad`). Each
    gets a score from six signals and a verdict with a one-line reason.
    --apply appends the accepted items to their wiki topic and records them
    in the review log; commit that on a branch and open a pull request.

    \b
    Examples:
      tiergit promote                          # preview, nothing written
      tiergit promote --explain m-3f9a1c2b     # one candidate, every signal and check
      git checkout -b tiergit/promote
      tiergit promote --apply --pr-body /tmp/body.md
    """
    from tiergit.outfile import check_output

    check_output(pr_body, "--pr-body", json_too=as_json)   # a link, FIFO or device: refused before any work
    store = open_store(ctx)
    if open_pr:
        _check_open_pr(store, pr_body)
        _check_ready(store)   # gh, a remote, not the default branch: refused before any write
    from tiergit.features.plan import locked

    with locked(store.repo, do_apply and not selector):
        _promote(ctx, store, do_apply, selector, pr_body, limit, show_all, open_pr, as_json)


def _promote(ctx: click.Context, store, do_apply: bool, selector: str | None, pr_body: Path | None,
             limit: int | None, show_all: bool, open_pr: bool, as_json: bool) -> None:
    from tiergit.core import prbody
    from tiergit.features.promotion import promote as promote_mod

    promo = promote_mod.build(store, limit=limit, explain=selector)
    if selector:
        rows = promote_mod.explain_rows(promo, selector)
        if not rows:
            from tiergit.errors import TiergitError
            raise TiergitError(f"promote --explain: no candidate matches {selector!r}",
                               "use an id from `tiergit promote` (m-…), PATH:LINE, or words of the item")
        if as_json:
            echo_json([dict(r.as_dict(), checks=[c.__dict__ for c in r.verdict.checks]) for r in rows])
        else:
            click.echo(render_explain(rows))
        return
    if pr_body is not None:
        from tiergit.features.promotion.audit import themes
        from tiergit.features.statusmodel import mermaid_tier_sizes
        from tiergit.outfile import is_stdout, write_output

        body = prbody.render(promo, mermaid_tier_sizes(store), themes(store, promo.today))
        if not is_stdout(pr_body):
            write_output(pr_body, body)   # before the apply: a refused target stops the run
    written: list[str] = []
    if do_apply:
        written = promote_mod.apply(store, promo)
    if pr_body is not None and is_stdout(pr_body):
        # `--pr-body -`: stdout carries the body alone (pipe it to `gh pr create -F -`); the summary goes to stderr.
        write_output(pr_body, body)
        _summary(store, promo, do_apply, show_all, err=True)
        return
    if as_json:
        echo_json({**promo.as_dict(lazy=True), "applied": do_apply, "written": written,
                   "pr_body": str(pr_body) if pr_body else None})
    else:
        _summary(store, promo, do_apply, show_all)
        if pr_body is not None:
            click.echo(f"pull-request body written to {pr_body}")
    if open_pr:
        _open_pr(store, promo, pr_body, written)


def _summary(store, promo, do_apply: bool, show_all: bool, err: bool = False) -> None:
    """The human report: candidates, the plan, what to do next (to stderr when stdout holds the body)."""
    lines = render_lines(promo, show_all)
    for chunk in iter(lambda: list(islice(lines, 2000)), []):
        click.echo("\n".join(chunk), err=err)
    click.echo("", err=err)
    click.echo(promo.plan.preview(), err=err)
    if do_apply:
        click.echo(f"applied: {len(promo.accepted)} item(s) proposed; commit on a branch and open a pull request",
                   err=err)
        _note_branch(store, err)
    elif promo.accepted:
        click.echo(f"preview only: run with --apply to append {len(promo.accepted)} item(s) for review", err=err)


def _note_branch(store, err: bool = False) -> None:
    from tiergit.features.promotion import delivery

    branch = delivery.current_branch(store)
    if branch in ("main", "master"):
        click.echo(f"note: on {branch}: durable tiers are reviewed, so commit this on a branch "
                   "(git switch -c tiergit/promote) and open a pull request", err=err)


def _check_open_pr(store, pr_body: Path | None) -> None:
    """Refuse --open-pr before anything is written when it cannot work."""
    from tiergit.errors import TiergitError

    if pr_body is None or str(pr_body) == "-":
        raise TiergitError("promote --open-pr needs --pr-body FILE (not -: the pull request reads the file)",
                           "add --pr-body .git/tiergit-pr.md")


def _check_ready(store) -> None:
    """The delivery module's own preconditions (gh, a remote, not the default branch), checked
    before anything is written: a refused --open-pr leaves the work tree and the body file as they were."""
    from tiergit.features.promotion import delivery

    delivery.check_ready(store)


def _open_pr(store, promo, pr_body: Path | None, written: list[str]) -> None:
    from tiergit.features.promotion import delivery

    result = delivery.open_pr(store, len(promo.accepted), pr_body, written)
    if result:
        click.echo(str(result))


@click.command()
@click.option("--topic", required=True, help="Wiki topic (a slug such as auth): the file wiki/<topic>.md.")
@click.option("--kind", type=click.Choice(["decision", "rule", "fact", "correction"]), default="rule",
              show_default=True, help="Kind of knowledge.")
@click.option("--agent", default=None, help="Who proposes it (recorded in the staging line).")
@click.option("--apply", "do_apply", is_flag=True, help="Write it to the staging file (default: preview).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.argument("text")
@click.pass_context
def propose(ctx: click.Context, topic: str, kind: str, agent: str | None, do_apply: bool, as_json: bool,
            text: str) -> None:
    """Stage an agent's on-demand wiki write: skips the score gate, never the review.

    The text is written to the staging file with a `forced` mark; the next
    `tiergit promote --apply` (on the promotion branch) appends it to
    wiki/<topic>.md in the pull request, where a human accepts or deletes it.
    Credentials, prompt injections, raw transcript lines and text that weakens a
    safeguard (review, tests, hooks, CI, secrets, TLS…) are refused; text that
    touches one, that the learned reading doubts, or that is in another language
    than the store's is staged with a "⚠ changes a safeguard" warning.

    \b
    Example:
      tiergit propose --apply --topic auth --kind correction --agent picard \\
        "Tokens are refreshed by the gateway, never by the client"
    """
    from tiergit.features.plan import locked
    from tiergit.features.promotion.propose import propose as stage

    store = open_store(ctx)
    with locked(store.repo, do_apply):
        plan = stage(store, topic, text, kind, agent)
        if do_apply:
            plan.apply(store.repo)
    if as_json:
        echo_json({**plan.as_dict(), "applied": do_apply})
    else:
        click.echo(plan.preview())
