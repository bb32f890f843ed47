"""`tiergit init`, `install`, `uninstall`: set a repo up (like `git init` / `pre-commit install`)."""
from __future__ import annotations

from pathlib import Path

import click

from tiergit.shell import config as config_mod
from tiergit.shell import resources
from tiergit.cli import echo_json, repo_root
from tiergit.features.plan import Plan

GITATTR_BEGIN = "# >>> tiergit >>>"
GITATTR_END = "# <<< tiergit <<<"


def gitattributes_block(cfg: config_mod.Config) -> str:
    """One line per tier path (placeholders as `*`), never the whole root: a framework's own
    files beside the tiers (Squad's .squad/memory/local/*.md) keep git's default merge."""
    lines = [GITATTR_BEGIN]
    for tier in cfg.tiers.values():
        pattern = config_mod.PATH_PLACEHOLDER_RE.sub("*", cfg.repo_path(tier.path))
        if f"{pattern} merge=tiergit" not in lines:
            lines.append(f"{pattern} merge=tiergit")
    lines.append(f"{cfg.repo_path(cfg.archive).rstrip('/')}/**/*.md merge=tiergit")
    lines.append(f"{cfg.repo_path(cfg.staging or 'staging/*.md')} merge=tiergit")
    logs = cfg.repo_path(cfg.logs).rstrip("/")
    lines += [f"{logs}/*.jsonl merge=union", GITATTR_END]
    return "\n".join(lines) + "\n"


def openclaw_bootstrap_notes(cfg: config_mod.Config) -> list[str]:
    """With OpenClaw's MEMORY.md as a tier: how hot and warm reach the model. OpenClaw's
    bootstrap injects only fixed basenames; its bootstrap-extra-files hook adds more files
    named MEMORY.md (or AGENTS.md, …) from the workspace."""
    from tiergit.features.promotion.openclaw_format import is_openclaw_memory

    if not any(is_openclaw_memory(t.path) for t in cfg.tiers.values()):
        return []
    loaded = [cfg.repo_path(t.path) for t in cfg.tiers.values()
              if t.load == "always" and "{" not in t.path and not is_openclaw_memory(t.path)]
    if not loaded:
        return []
    paths = "[" + ",".join(f'"{p}"' for p in loaded) + "]"
    return ["OpenClaw loads hot and warm through its bootstrap-extra-files hook; enable it once:",
            "  openclaw config set hooks.internal.entries.bootstrap-extra-files.enabled true --strict-json",
            f"  openclaw config set hooks.internal.entries.bootstrap-extra-files.paths '{paths}' --strict-json"]


def _merge_gitattributes(old: str | None, block: str) -> str:
    old = old or ""
    if GITATTR_BEGIN in old and GITATTR_END in old:
        head, rest = old.split(GITATTR_BEGIN, 1)
        tail = rest.split(GITATTR_END, 1)[1].lstrip("\n")
        return head + block + tail
    sep = "" if not old or old.endswith("\n") else "\n"
    return old + sep + block


def plan_init(repo: Path, preset: str, with_workflows: bool, install_spec: str | None = None,
              reusable: bool = False) -> Plan:
    plan = Plan(f"tiergit init --preset {preset}")
    cfg_path = repo / config_mod.CONFIG_NAME
    if cfg_path.exists():
        cfg = config_mod.load(repo)
        plan.notes.append(f"{config_mod.CONFIG_NAME} exists: kept as it is")
    else:
        text = config_mod.preset_text(preset)
        cfg = config_mod.parse_text(text, cfg_path, repo)
        plan.add(config_mod.CONFIG_NAME, text, reason=f"{preset} preset")
    for tier in cfg.tiers.values():
        rel = cfg.repo_path(tier.path)
        folder = str(Path(rel).parent)
        if "{" not in folder and folder != "." and not (repo / folder).exists():
            plan.add(f"{folder}/.gitkeep", "", reason=f"{tier.name} tier folder")
    store_templates = resources.template("store")
    for src in sorted(store_templates.iterdir(), key=lambda s: s.name) if store_templates.is_dir() else []:
        rel = f"{cfg.root}/templates/{src.name}"
        if not (repo / rel).exists():
            plan.add(rel, src.read_text(), reason="template, edit to taste")
    ga = repo / ".gitattributes"
    old = ga.read_text() if ga.exists() else None
    plan.add(".gitattributes", _merge_gitattributes(old, gitattributes_block(cfg)), old,
             reason="merge=tiergit for memory, merge=union for logs")
    plan.notes.extend(openclaw_bootstrap_notes(cfg))
    if with_workflows or reusable:
        _plan_workflows(plan, repo, cfg, install_spec, with_workflows, reusable)
    return plan


def _plan_workflows(plan: Plan, repo: Path, cfg: config_mod.Config, spec: str | None, standard: bool,
                    reusable: bool) -> None:
    """The workflows and the action they call, with an install spec that resolves before a release."""
    from tiergit.features import workflows

    source = "given with --install-spec"
    if not spec:
        spec, source = workflows.install_spec()
    plan.notes.append(f"workflows install `{spec}` ({source})")
    if spec.startswith("tiergit=="):
        plan.notes.append("  that needs the release on PyPI; before it, pass --install-spec "
                          "'tiergit @ git+https://github.com/OWNER/tiergit@<commit>'")
    for rel, text in workflows.files(cfg, spec, standard, reusable).items():
        if (repo / rel).exists():
            if (repo / rel).read_text(encoding="utf-8", errors="replace") != text:
                plan.notes.append(f"{rel} exists and differs from the current template: kept; "
                                  "move it away and run init again to take the new one")
        else:
            plan.add(rel, text, reason="GitHub workflow" if rel.endswith(".yml") and "workflows" in rel
                     else "tiergit's action, called by the workflows")


def _keep_store_tracked(repo) -> list:
    """A .gitignore rule hiding part of the store gets a scoped negation (or a clear error)."""
    from tiergit.features import gitignore
    from tiergit.shell.fsutil import store_lock

    with store_lock(repo):
        return gitignore.ensure_tracked(repo, config_mod.load(repo)).effective


@click.command()
@click.option("--preset", type=click.Choice(config_mod.PRESETS), default="squad", show_default=True,
              help="Layout to start from; any key can be overridden in .tiergit.yml.")
@click.option("--with-workflows", is_flag=True,
              help="Also write .github/workflows/tiergit-*.yml and the action they call (.github/actions/tiergit).")
@click.option("--reusable", is_flag=True,
              help="Also write .github/workflows/tiergit-reusable.yml, a workflow_call workflow for many repos.")
@click.option("--install-spec", metavar="SPEC",
              help="pip requirement the workflows install (default: from how this tiergit was installed).")
@click.option("--no-install", is_flag=True, help="Do not install the git hooks and merge driver.")
@click.option("--mcp", "with_mcp", is_flag=True,
              help="Also add `tiergit mcp` to .mcp.json, .vscode/mcp.json and .copilot/mcp-config.json "
                   "(other servers kept).")
@click.option("--dry-run", is_flag=True, help="Print what would be written, write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def init(ctx: click.Context, preset: str, with_workflows: bool, reusable: bool, install_spec: str | None,
         no_install: bool, with_mcp: bool, dry_run: bool, as_json: bool) -> None:
    """Set up tiergit in this repository.

    Writes .tiergit.yml, the tier folders, store templates and .gitattributes
    lines, then installs the hooks and merge driver (like `tiergit install`).
    An existing .tiergit.yml is kept. Like `git init` it writes directly;
    --dry-run previews.

    \b
    Example:
      tiergit init --preset squad --with-workflows
      tiergit init --mcp               # also register `tiergit mcp` with the agent clients
    """
    from tiergit.features import install as install_mod

    repo = repo_root(ctx)
    plan = plan_init(repo, preset, with_workflows, install_spec, reusable)
    if with_mcp:
        from tiergit.features.mcp_config import plan_clients
        plan_clients(repo, plan)
    actions: list[str] = []
    if not dry_run:
        plan.apply(repo)
        plan.changes.extend(_keep_store_tracked(repo))
    if not no_install:
        actions = install_mod.install(repo, dry_run=dry_run)
    if as_json:
        echo_json({**plan.as_dict(), "installed": actions, "dry_run": dry_run})
        return
    click.echo(plan.preview())
    for line in actions:
        click.echo(f"  {line}")
    if dry_run:
        click.echo("(dry run: nothing written)")
    else:
        click.echo("Next: write memory under the store, then `tiergit status`.")


@click.command()
@click.option("--dry-run", is_flag=True, help="Print what would be done.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def install(ctx: click.Context, dry_run: bool, as_json: bool) -> None:
    """Install the pre-commit and post-merge hooks and the merge driver.

    An existing hook is kept as <hook>.tiergit-chained and still runs
    first; beside pre-commit, tiergit's shim takes pre-commit's
    <hook>.legacy slot, so either install order runs each hook once.
    core.hooksPath and linked worktrees are respected. TIERGIT=0 skips.
    `tiergit check --hooks` reports a chain that is broken.

    \b
    Example:
      tiergit install
    """
    from tiergit.features import install as install_mod

    actions = install_mod.install(repo_root(ctx), dry_run=dry_run)
    if as_json:
        echo_json({"installed": actions, "dry_run": dry_run})
        return
    for line in actions:
        click.echo(line)
    if dry_run:
        click.echo("(dry run: nothing written)")


@click.command()
@click.option("--dry-run", is_flag=True, help="Print what would be done.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def uninstall(ctx: click.Context, dry_run: bool, as_json: bool) -> None:
    """Remove tiergit's hooks (restoring any hook it chained) and the merge driver.

    \b
    Example:
      tiergit uninstall
    """
    from tiergit.features import install as install_mod

    actions = install_mod.uninstall(repo_root(ctx), dry_run=dry_run)
    if as_json:
        echo_json({"removed": actions, "dry_run": dry_run})
        return
    for line in actions:
        click.echo(line)
    if dry_run:
        click.echo("(dry run: nothing written)")
