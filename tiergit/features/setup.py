"""Setting a repo up for `tiergit init`: the config, tier folders, store templates,
.gitattributes lines and (optionally) the workflows, as one plan (like `git init`)."""
from __future__ import annotations

from pathlib import Path, PurePosixPath

from tiergit.core.config import PATH_PLACEHOLDER_RE, Config
from tiergit.core.configjson import SCHEMA_FILE
from tiergit.features.plan import Plan
from tiergit.shell import config as config_mod
from tiergit.shell import resources

GITATTR_BEGIN = "# >>> tiergit >>>"
GITATTR_END = "# <<< tiergit <<<"
# create-pull-request with the default GITHUB_TOKEN fails without this repository setting.
PR_SETTING_NOTES = [
    "the promotion and review-sync workflows open pull requests: in the repository's Settings > Actions > "
    "General, turn on \"Allow GitHub Actions to create and approve pull requests\"",
    "  (or set up a GitHub App: variable TIERGIT_APP_CLIENT_ID and secret TIERGIT_APP_PRIVATE_KEY; its PRs "
    "also run the check workflow)"]


DATE_GLOB = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*"
MONTH_GLOB = "[0-9][0-9][0-9][0-9]-[0-9][0-9]"


def _tier_glob(path: str) -> str:
    """A tier path as a gitattributes pattern: {date} as a dated name (never an owner's
    HANDOFF.md beside the notes), any other placeholder as `*`."""
    return PATH_PLACEHOLDER_RE.sub(lambda m: DATE_GLOB if m[1] == "date" else "*", path)


def archive_globs(cfg: Config) -> list[str]:
    """Where retention files each tier's text (`retention.archive_path`: <archive>/YYYY-MM/
    <path inside root>, or the file's name for a tier outside root) - only those names, so an
    owner's own file in a shared archive folder keeps git's default merge."""
    root = PurePosixPath(cfg.root)
    base = cfg.repo_path(cfg.archive).rstrip("/")
    out: list[str] = []
    for tier in cfg.tiers.values():
        if tier.lifetime == "session" or tier.in_place:    # compacted / never moved: no archive
            continue
        p = PurePosixPath(cfg.repo_path(tier.path))
        inner = p.relative_to(root) if root != PurePosixPath(".") and p.is_relative_to(root) else PurePosixPath(p.name)
        glob = f"{base}/{MONTH_GLOB}/{_tier_glob(inner.as_posix())}"
        if glob not in out:
            out.append(glob)
    return out


def gitattributes_block(cfg: Config) -> str:
    """One line per tier path (placeholders as `*`, a date as a dated name), never the whole
    root: a framework's own files beside the tiers (Squad's .squad/memory/local/*.md,
    OpenClaw's memory/HANDOFF.md) keep git's default merge."""
    lines = [GITATTR_BEGIN]
    own = [_tier_glob(cfg.repo_path(t.path)) for t in cfg.tiers.values() if not t.in_place]
    for pattern in own + archive_globs(cfg):
        if f"{pattern} merge=tiergit" not in lines:
            lines.append(f"{pattern} merge=tiergit")
    lines.append(f"{cfg.repo_path(cfg.staging or 'staging/*.md')} merge=tiergit")
    logs = cfg.repo_path(cfg.logs).rstrip("/")
    lines += [f"{logs}/*.jsonl merge=union", GITATTR_END]
    return "\n".join(lines) + "\n"


def openclaw_bootstrap_notes(cfg: Config) -> list[str]:
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
        schema_line = f"# yaml-language-server: $schema=./{cfg.root.strip('/')}/templates/{SCHEMA_FILE}\n"
        plan.add(config_mod.CONFIG_NAME, schema_line + text, reason=f"{preset} preset")
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
    _plan_schema(plan, repo, cfg)
    ga = repo / ".gitattributes"
    old = ga.read_text() if ga.exists() else None
    plan.add(".gitattributes", _merge_gitattributes(old, gitattributes_block(cfg)), old,
             reason="merge=tiergit for memory, merge=union for logs")
    plan.notes.extend(openclaw_bootstrap_notes(cfg))
    if with_workflows or reusable:
        _plan_workflows(plan, repo, cfg, install_spec, with_workflows, reusable)
    return plan


def _plan_schema(plan: Plan, repo: Path, cfg: Config) -> None:
    """The config's JSON Schema beside the store templates, for editors; refreshed when tiergit's differs."""
    rel = f"{cfg.root.strip('/')}/templates/{SCHEMA_FILE}"
    text = resources.read(SCHEMA_FILE)
    old = (repo / rel).read_text(encoding="utf-8", errors="replace") if (repo / rel).is_file() else None
    if old != text:
        plan.add(rel, text, old, reason="JSON Schema of .tiergit.yml for editors; made by tiergit, refreshed by init")


def _plan_workflows(plan: Plan, repo: Path, cfg: Config, spec: str | None, standard: bool,
                    reusable: bool) -> None:
    """The workflows and the action they call, with an install spec that resolves before a release."""
    from tiergit.core import installspec
    from tiergit.errors import TiergitError
    from tiergit.features import workflows

    try:
        if spec:
            source, notes = "given with --install-spec", []
        else:
            (spec, source), notes = workflows.install_spec(), workflows.unpushed_note()
        notes = installspec.check(spec) + notes
    except installspec.SpecProblem as exc:
        raise TiergitError(f"cannot write the workflows: {exc}", exc.hint) from None
    plan.notes.append(f"workflows install `{spec}` ({source})")
    plan.notes.extend(notes)
    plan.notes.extend(PR_SETTING_NOTES)
    for rel, text in workflows.files(cfg, spec, standard, reusable).items():
        if (repo / rel).exists():
            if (repo / rel).read_text(encoding="utf-8", errors="replace") != text:
                plan.notes.append(f"{rel} exists and differs from the current template: kept; "
                                  "move it away and run init again to take the new one")
        else:
            plan.add(rel, text, reason="GitHub workflow" if rel.endswith(".yml") and "workflows" in rel
                     else "tiergit's action, called by the workflows")


def keep_store_tracked(repo) -> list:
    """A .gitignore rule hiding part of the store gets a scoped negation (or a clear error)."""
    from tiergit.features import gitignore
    from tiergit.shell.fsutil import store_lock

    with store_lock(repo):
        return gitignore.ensure_tracked(repo, config_mod.load(repo)).effective
