"""`tiergit review sync|accept|reject`: record what reviewers did with promotions."""
from __future__ import annotations

import click

from tiergit.cli import echo_json, open_store


@click.group()
def review() -> None:
    """Record review outcomes of promotions.

    \b
    Examples:
      git checkout main && git pull        # the promotion PR is merged
      tiergit review sync                  # present in the wiki -> accepted, deleted -> rejected
      tiergit review reject m-3f9a1c2b --reason "too specific to one incident"
    """


@review.command()
@click.option("--dry-run", is_flag=True, help="Show the outcomes without recording them.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def sync(ctx: click.Context, dry_run: bool, as_json: bool) -> None:
    """After a promotion PR is merged: record accepted and rejected items.

    Every item whose last review event is `proposed` is looked up in the
    reviewed tiers by its block id: present means accepted, absent means the
    reviewer deleted it (rejected: never proposed again unless its text
    changes; the PR's deletion is the reason: "deleted in review"). Processed
    candidates leave the staging file (DREAMS.md), and
    `[HH:MM] Dream review: accepted N, rejected M` is appended to the day's note.

    \b
    Example:
      tiergit review sync
    """
    from tiergit.features.promotion import review as review_mod

    store = open_store(ctx)
    new, cleared = review_mod.sync(store, apply=not dry_run)
    accepted = sum(e["action"] == "accepted" for e in new)
    rejected = sum(e["action"] == "rejected" for e in new)
    if as_json:
        echo_json({"accepted": accepted, "rejected": rejected, "events": new, "cleared": cleared,
                   "applied": not dry_run})
        return
    for ev in new:
        click.echo(f"  {ev['action']:<8} {ev['id']}  {ev['text'][:80]}")
    for rel in cleared:
        click.echo(f"  cleared processed candidates from {rel}")
    click.echo(review_mod.review_line(new) + (" (dry run, nothing recorded)" if dry_run else ""))


def _decide(ctx: click.Context, iid: str, action: str, reason: str | None, as_json: bool) -> None:
    from tiergit.features.promotion import review as review_mod

    store = open_store(ctx)
    ev = review_mod.decide(store, iid, action, reason or "")
    if as_json:
        echo_json(ev)
    else:
        click.echo(f"recorded: {action} {iid} ({ev['reason']})")


@review.command()
@click.argument("item_id")
@click.option("--reason", default=None, help="Why, in one line (required: recorded in the review log).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def accept(ctx: click.Context, item_id: str, reason: str | None, as_json: bool) -> None:
    """Record an item as accepted by hand.

    \b
    Example:
      tiergit review accept m-3f9a1c2b --reason "confirmed in standup"
    """
    _decide(ctx, item_id, "accepted", reason, as_json)


@review.command()
@click.argument("item_id")
@click.option("--reason", default=None, help="Why, in one line (required: recorded in the review log).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def reject(ctx: click.Context, item_id: str, reason: str | None, as_json: bool) -> None:
    """Record an item as rejected by hand: it is never proposed again unless its text changes.

    \b
    Example:
      tiergit review reject m-3f9a1c2b --reason "one-off workaround"
    """
    _decide(ctx, item_id, "rejected", reason, as_json)
