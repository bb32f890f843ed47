"""`tiergit status`: per tier and file: bytes, tokens, lines, % of budget, health."""
from __future__ import annotations

from pathlib import Path

import click

from tiergit import budget, parse, progress
from tiergit.cli import echo_json, open_store
from tiergit.errors import InputError
from tiergit.readsafe import read_regular
from tiergit.store import Store

MARK = {"healthy": "ok", "warning": "WARN", "critical": "CRIT"}


def collect(store: Store, deep: bool = False, only: list[str] | None = None) -> dict:
    """The status model: {"tiers": [...], "files": [...], "total": {...}} (plain data, for --json)."""
    cache = store.token_cache
    files = []
    rels = only if only is not None else store.memory_files()
    for rel in progress.iterate(rels, "status --deep: counting tokens", show=deep):
        match = store.tier_of(rel)
        if match is None:
            continue
        tier = match[0]
        path = store.abs(rel)
        if path.is_symlink():
            continue
        try:
            data = read_regular(path, rel)  # a FIFO or device is reported, never read
        except InputError as exc:
            files.append({"path": rel, "tier": tier.name, "health": "critical", "error": str(exc),
                          "bytes": 0, "lines": 0, "tokens": 0, "tokens_exact": False, "percent": None})
            continue
        try:
            text = parse.decode(data, rel, store.config.limits["max_file_bytes"])
        except Exception as exc:  # noqa: BLE001 - status reports, check refuses
            files.append({"path": rel, "tier": tier.name, "health": "critical", "error": str(exc),
                          "bytes": len(data), "lines": 0, "tokens": 0, "tokens_exact": False, "percent": None})
            continue
        m = budget.measure(text, data, tier, cache, store.working_blob(data), force_tokens=deep)
        fh = budget.judge(rel, tier, m)
        row = {"path": rel, "tier": tier.name, **m.as_dict(), "percent": round(fh.percent, 1) if fh.verdicts else None,
               "health": fh.health,
               "budget": {k: {"warn": v.warn, "max": v.max} for k, v in tier.budget.items()}}
        if deep:
            try:
                doc = parse.parse(text, rel, store.config.labels)
                row["entries"], row["pinned"], row["items"] = len(doc.entries), len(doc.pinned), len(doc.items)
            except Exception as exc:  # noqa: BLE001
                row["error"] = str(exc)
                row["health"] = "critical"
        files.append(row)
    cache.save()
    tiers = []
    for name, tier in store.config.tiers.items():
        rows = [f for f in files if f["tier"] == name]
        tiers.append({
            "tier": name, "load": tier.load, "files": len(rows),
            "bytes": sum(r["bytes"] for r in rows), "tokens": sum(r["tokens"] for r in rows),
            "lines": sum(r["lines"] for r in rows),
            "health": budget.worst(r["health"] for r in rows),
        })
    total = {"files": len(files), "bytes": sum(f["bytes"] for f in files),
             "tokens": sum(f["tokens"] for f in files), "lines": sum(f["lines"] for f in files),
             "tokens_exact": all(f["tokens_exact"] for f in files),
             "health": budget.worst(f["health"] for f in files)}
    return {"root": store.config.root, "tiers": tiers, "files": files, "total": total}


def add_sparks(store: Store, model: dict, last: int = 20) -> None:
    """Each file's `spark`: its size over its last committed versions (+ the working copy)."""
    from tiergit.charts import sparkline
    from tiergit.history import file_sparks

    sizes = file_sparks(store, last=last)
    for row in model["files"]:
        values = sizes.get(row["path"], [])
        if not values or values[-1] != row["bytes"]:
            values = [*values, row["bytes"]][-last:]
        row["spark"], row["spark_bytes"] = sparkline(values), values


def _tok(row: dict) -> str:
    return str(row["tokens"]) if row.get("tokens_exact") else f"~{row['tokens']}"


def render(model: dict) -> str:
    lines = [f"tiergit status: {model['root']}", ""]
    header = f"{'tier':<6} {'file':<44} {'bytes':>7} {'tokens':>7} {'lines':>6} {'budget':>7}  health"
    if any(f.get("spark") for f in model["files"]):
        header += "  growth"
    lines.append(header)
    lines.append("-" * len(header))
    for tier in model["tiers"]:
        rows = [f for f in model["files"] if f["tier"] == tier["tier"]]
        if not rows:
            lines.append(f"{tier['tier']:<6} {'(no files)':<44}")
        for r in rows:
            pct = f"{r['percent']:.0f}%" if r.get("percent") is not None else "-"
            name = r["path"] if len(r["path"]) <= 44 else "…" + r["path"][-43:]
            lines.append(f"{r['tier']:<6} {name:<44} {r['bytes']:>7} {_tok(r):>7} {r['lines']:>6} {pct:>7}  "
                         f"{MARK[r['health']]:<4}" + (f"  {r['spark']}" if r.get("spark") else "")
                         + (f"  {r['error']}" if r.get("error") else ""))
    t = model["total"]
    lines.append("-" * len(header))
    tok = str(t["tokens"]) if t["tokens_exact"] else f"~{t['tokens']}"
    lines.append(f"{'total':<6} {str(t['files']) + ' file(s)':<44} {t['bytes']:>7} {tok:>7} {t['lines']:>6} {'':>7}  "
                 f"{MARK[t['health']]}")
    if not t["tokens_exact"]:
        lines.append("(~ marks token estimates; `tiergit status --deep` counts every file exactly)")
    return "\n".join(lines)


@click.command()
@click.option("--deep", is_flag=True, help="Count tokens exactly for every file and parse entries.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def status(ctx: click.Context, deep: bool, as_json: bool) -> None:
    """Show each tier and file: bytes, tokens, lines, % of budget, health.

    Health is healthy below the warn level, warning up to max, critical
    above it. Token counts under a file's token warn level are estimates
    (marked ~) unless cached or --deep is given.

    \b
    Example:
      tiergit status --deep
    """
    store = open_store(ctx)
    model = collect(store, deep=deep)
    add_sparks(store, model)
    extra = _extras(store, model["files"])
    if extra:
        model.update(extra)
        # A stale Dreaming run is the store's health too: the total row says so.
        model["total"]["health"] = budget.worst([model["total"]["health"], extra["promotion"]["health"]])
    model["notes"] = model.get("notes", []) + _hook_notes(store.repo)
    from tiergit.squad_compat import two_layer_notes   # Squad keeps histories off this tree

    squad = two_layer_notes(store.repo)
    if squad:
        model["notes"] = [*model.get("notes", []), *squad]
    if as_json:
        echo_json(model)
    else:
        click.echo(render(model))
        for line in model.get("notes", []):
            click.echo(line)


def _extras(store: Store, files: list[dict]) -> dict:
    """Promotion health: candidates waiting, days since the last promotion, files over budget."""
    from tiergit import promotion_health

    return promotion_health.extras(store, files)


def _hook_notes(repo: Path) -> list[str]:
    """Installed hooks that misbehave (call themselves, cut off another tool's lines): one line each."""
    from tiergit.hookstate import inspect

    shown = ("HK002", "HK003", "HK006")
    return [f"hooks: {f.path}:{f.line}: {f.code} [{f.severity}] {f.message}"
            for f in inspect(repo) if f.code in shown]


def post_merge_report(repo: Path) -> str:
    from tiergit import git

    store = Store.open(repo)
    orig = git.rev_parse(repo, "ORIG_HEAD")
    if orig is None:
        return ""
    changed = [p for p in git.changed_files(repo, orig, "HEAD") if store.tier_of(p)]
    if not changed:
        return ""
    model = collect(store, only=changed)
    lines = [f"tiergit: the merge changed {len(changed)} memory file(s):"]
    for r in model["files"]:
        pct = f"{r['percent']:.0f}% of budget" if r.get("percent") is not None else "no budget"
        lines.append(f"  {MARK[r['health']]:<4} {r['path']} ({r['bytes']} bytes, {_tok(r)} tokens, {pct})")
    over = [r["path"] for r in model["files"] if r["health"] == "critical"]
    if over:
        from tiergit.fixhint import fixes_for

        lines.append("  hint: over-budget files will block the next commit that touches them; "
                     f"fix them with {fixes_for(store.config, over)}")
    return "\n".join(lines)
