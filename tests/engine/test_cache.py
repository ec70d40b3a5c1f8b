"""The on-disk cache of compiled games: real module files, reused across processes, and never
used when stale (a file of the extends chain changed) or tampered with (the module was edited)."""

import json
import os
import stat
import subprocess
import sys

import pytest

import ziggurat
from ziggurat import cachedir
from ziggurat.interpreter import cache, games

BASE = """\
game "Base"
option width: 2..5 = 3
players a, b
board:
    files: width
    ranks: 1
piece:
    owner: players
setup:
    place(piece(a), cells[1])
action hop "{to}":
    to: cells where empty(to)
    do:
        move(cells[1], 1, to)
"""

VARIANT = """\
extends "base.rules"
option width = 4
"""


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A cache folder of this test's own, nothing in memory, and a count of compilations."""
    monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(games, "_MEMORY", type(games._MEMORY)())
    compiled = []
    real = games.compile_model

    def counting(*args, **kw):
        compiled.append(args[2])
        return real(*args, **kw)

    monkeypatch.setattr(games, "compile_model", counting)
    return compiled


def forget():
    """Drop the games this process holds in memory (as a new process would start)."""
    games._MEMORY.clear()


class TestEntries:
    def test_the_module_is_a_real_file_holding_the_source(self, fresh, tmp_path):
        """A compiled game's module is a file in the cache folder whose text is the game's source."""
        game = ziggurat.load("stacktics")
        assert os.path.isfile(game.filename)
        assert os.path.dirname(game.filename) == str(tmp_path / "cache")
        with open(game.filename, encoding="utf-8") as f:
            assert f.read() == game.source

    def test_a_second_load_reads_the_cache_instead_of_compiling(self, fresh):
        """Loading the same game again, with nothing in memory, compiles nothing."""
        ziggurat.load("stacktics", {"size": 2})
        forget()
        game = ziggurat.load("stacktics", {"size": 2})
        assert fresh == ["stacktics"]
        assert ziggurat.perft(game.new(), 3) == 8878  # tests/perft/stacktics.perft, size2-start

    def test_each_option_set_has_its_own_entry(self, fresh):
        """Two option sets of one ruleset are two modules, each with its own options."""
        a, b = ziggurat.load("stacktics", {"size": 2}), ziggurat.load("stacktics", {"size": 3})
        assert a.filename != b.filename
        assert "size=2" in a.source and "size=3" in b.source

    def test_another_process_uses_the_entry(self, fresh, tmp_path):
        """A new process finds the module the first one wrote (its filename is the same file)."""
        game = ziggurat.load("green")
        code = "import ziggurat; print(ziggurat.load('green').filename)"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={**os.environ, "ZIGGURAT_CACHE_DIR": str(tmp_path / "cache")}, check=True)
        assert out.stdout.strip() == game.filename


class TestInvalidEntries:
    def test_a_tampered_module_is_never_loaded(self, fresh):
        """A cached module edited after it was written is recompiled, and the entry rewritten."""
        game = ziggurat.load("stacktics", {"size": 2})
        with open(game.filename, "a", encoding="utf-8") as f:
            f.write("\nlegal = lambda st: []  # tampered\n")
        forget()
        again = ziggurat.load("stacktics", {"size": 2})
        assert fresh == ["stacktics", "stacktics"]
        assert ziggurat.perft(again.new(), 2) == 400  # not 0, as the tampered legal() would give
        with open(again.filename, encoding="utf-8") as f:
            assert "tampered" not in f.read()

    def test_a_manifest_that_is_not_json_is_ignored(self, fresh):
        """A broken manifest is a miss, not an error."""
        game = ziggurat.load("clobber")
        with open(game.filename[:-3] + ".json", "w", encoding="utf-8") as f:
            f.write("{not json")
        forget()
        ziggurat.load("clobber")
        assert fresh == ["clobber", "clobber"]

    def test_a_changed_base_ruleset_makes_the_variant_stale(self, fresh, tmp_path):
        """A variant's entry is not used once the file it extends has changed."""
        (tmp_path / "base.rules").write_text(BASE)
        (tmp_path / "variant.rules").write_text(VARIANT)
        game = ziggurat.load(str(tmp_path / "variant.rules"))
        assert len(game.new().moves()) == 3  # four files, one taken
        (tmp_path / "base.rules").write_text(BASE.replace("ranks: 1", "ranks: 2"))
        forget()
        game = ziggurat.load(str(tmp_path / "variant.rules"))
        assert len(fresh) == 2
        assert len(game.new().moves()) == 7  # four files and two ranks, one taken

    def test_an_unwritable_cache_is_skipped(self, fresh, monkeypatch, tmp_path):
        """When the cache folder cannot be made, games still load (from memory only)."""
        blocker = tmp_path / "file"
        blocker.write_text("not a folder")
        monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(blocker / "cache"))
        game = ziggurat.load("breakthrough")
        assert game.filename.startswith("<ziggurat breakthrough")
        assert len(game.new().moves()) > 0

    def test_the_cache_can_be_turned_off(self, fresh, monkeypatch):
        """ZIGGURAT_CACHE_DIR=off: nothing is written; the module lives in memory."""
        monkeypatch.setenv("ZIGGURAT_CACHE_DIR", "off")
        assert cachedir.folder() is None and cachedir.root() is None
        game = ziggurat.load("breakthrough")
        assert game.filename.startswith("<ziggurat breakthrough")


class TestKeys:
    def test_the_key_depends_on_text_place_and_options(self):
        """Other text, another file, or other options: another key."""
        k = cache.key("/a/x.rules", "players a", {"size": 2})
        assert k != cache.key("/a/x.rules", "players b", {"size": 2})
        assert k != cache.key("/b/x.rules", "players a", {"size": 2})
        assert k != cache.key("/a/x.rules", "players a", {"size": 3})
        assert k == cache.key("/a/x.rules", "players a", {"size": 2})


class TestGrammarCache:
    CHECK = "import ziggurat.dsl.checks as c; print(len(c.check('rgb')))"

    def run(self, folder):
        return subprocess.run([sys.executable, "-c", self.CHECK], capture_output=True, text=True, check=True,
                              env={**os.environ, "ZIGGURAT_CACHE_DIR": str(folder)})

    def test_the_analysed_grammar_is_kept_in_the_cache_folder(self, tmp_path):
        """The first process that parses writes the grammar's analysis beside the games."""
        folder = tmp_path / "cache"
        self.run(folder)
        assert (folder / "grammar.lark-cache").stat().st_size > 1000

    def test_a_damaged_grammar_cache_is_rebuilt_quietly(self, tmp_path):
        """Garbage in the grammar's cache file: the grammar is built again, nothing is printed,
        and the file is made good for the next process."""
        folder = tmp_path / "cache"
        folder.mkdir(mode=0o700)
        (folder / "grammar.lark-cache").write_bytes(b"not a pickle\n" * 10)
        out = self.run(folder)
        assert out.stderr == "" and out.stdout.strip() == "0"
        assert (folder / "grammar.lark-cache").stat().st_size > 1000


# ---- a cache that may not be trusted (issue 28, item 10) --------------------------------------

CHECK = ["-m", "ziggurat", "check", "rgb"]


class Payload:
    """A pickle that, once unpickled, makes the folder `marker`: proof that a planted file ran."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return os.mkdir, (self.marker,)


def run(folder, args=CHECK, **kw):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          env={**os.environ, "ZIGGURAT_CACHE_DIR": str(folder)}, **kw)


def planted(path, marker):
    """Write at `path` a pickle that runs (a first line first, as Lark's cache has)."""
    import pickle

    path.write_bytes(b"planted\n" + pickle.dumps(Payload(marker)))


class TestPlantedFiles:
    def test_a_planted_grammar_cache_is_not_unpickled(self, tmp_path):
        """A pickle planted as the grammar's cache never runs; `check` works and the entry is
        rebuilt (sealed) for the next process."""
        folder, marker = tmp_path / "cache", tmp_path / "ran"
        folder.mkdir(mode=0o700)
        planted(folder / "grammar.lark-cache", marker)
        out = run(folder)
        assert out.returncode == 0 and out.stdout.strip().startswith("rgb: ok"), out.stderr
        assert not marker.exists()
        assert b"planted" not in (folder / "grammar.lark-cache").read_bytes()

    def test_a_planted_module_and_manifest_are_not_run(self, fresh, tmp_path):
        """A module and a manifest that agree with each other (the module's hash in the manifest),
        but were not written by Ziggurat, are compiled again instead of run."""
        game = ziggurat.load("clobber")
        marker = tmp_path / "ran"
        evil = f"import os\nos.mkdir({str(marker)!r})\n" + game.source
        manifest = game.filename[:-3] + ".json"
        with open(manifest, "rb") as f:
            text = f.read()
        meta = json.loads(text[text.index(b"{"):])  # the JSON, whatever is before it
        meta["module_sha256"] = cache.sha256(evil)
        with open(game.filename, "w", encoding="utf-8") as f:
            f.write(evil)
        with open(manifest, "w", encoding="utf-8") as f:
            json.dump(meta, f)
        forget()
        again = ziggurat.load("clobber")
        assert not marker.exists()
        assert fresh == ["clobber", "clobber"]
        assert "os.mkdir" not in again.source

    def test_a_tampered_manifest_is_rebuilt(self, fresh):
        """A manifest edited in place (still JSON, its hashes still agreeing) is not believed: the
        game is compiled again and the entry rewritten."""
        game = ziggurat.load("clobber")
        manifest = game.filename[:-3] + ".json"
        with open(manifest, "rb") as f:
            text = f.read()
        assert text.count(b'"title": "Clobber"') == 1
        with open(manifest, "wb") as f:
            f.write(text.replace(b'"title": "Clobber"', b'"title": "Tampered"'))
        forget()
        assert ziggurat.load("clobber").spec.title == "Clobber"
        assert fresh == ["clobber", "clobber"]
        forget()
        assert ziggurat.load("clobber").spec.title == "Clobber"
        assert fresh == ["clobber", "clobber"]  # the entry written again is good

    def test_a_link_at_an_entry_is_not_written_through(self, tmp_path):
        """A symbolic link planted at the grammar's cache file: the file it points to is left as
        it was, and a real file takes the link's place."""
        folder, victim = tmp_path / "cache", tmp_path / "victim"
        folder.mkdir(mode=0o700)
        victim.write_text("precious")
        os.symlink(victim, folder / "grammar.lark-cache")
        out = run(folder)
        assert out.returncode == 0, out.stderr
        assert victim.read_text() == "precious"
        assert not os.path.islink(folder / "grammar.lark-cache")


    def test_a_fifo_at_an_entry_is_not_waited_on(self, tmp_path):
        """A fifo planted at an entry's name is a miss (reading it would wait for a writer)."""
        folder = tmp_path / "cache"
        folder.mkdir(mode=0o700)
        os.mkfifo(folder / "grammar.lark-cache")
        out = run(folder, timeout=300)
        assert out.returncode == 0 and out.stdout.strip().startswith("rgb: ok"), out.stderr
        assert not stat.S_ISFIFO(os.lstat(folder / "grammar.lark-cache").st_mode)


class TestFolderChecks:
    def test_a_folder_others_can_write_is_refused_with_one_warning(self, tmp_path):
        """A cache folder writable by its group and others is not used: one warning names it and
        why; the command still works and nothing is written there."""
        folder = tmp_path / "cache"
        folder.mkdir()
        folder.chmod(0o777)
        out = run(folder)
        assert out.returncode == 0 and out.stdout.strip().startswith("rgb: ok")
        warnings = [line for line in out.stderr.splitlines() if "warning" in line]
        assert len(warnings) == 1 and str(folder) in warnings[0] and "writable by its group and others" in warnings[0]
        assert list(folder.iterdir()) == []

    @pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder away needs root")
    def test_a_folder_of_another_user_is_refused(self, tmp_path):
        """A cache folder owned by another user is not used (one warning), however private."""
        folder = tmp_path / "cache"
        folder.mkdir(mode=0o700)
        os.chown(folder, 54321, 54321)
        out = run(folder)
        assert out.returncode == 0 and out.stdout.strip().startswith("rgb: ok")
        assert "owned by another user" in out.stderr and str(folder) in out.stderr
        assert list(folder.iterdir()) == []

    @pytest.mark.skipif(not hasattr(os, "geteuid"), reason="no POSIX owners")
    def test_a_folder_owned_by_someone_else_is_refused_in_process(self, tmp_path, monkeypatch, capsys):
        """The same check without root: the folder is the test's, but the process is told it runs
        as another user; nothing is read or written there, and games still load."""
        root = tmp_path / "cache"
        root.mkdir(mode=0o700)
        monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(root))
        monkeypatch.setattr(games, "_MEMORY", type(games._MEMORY)())
        me = os.geteuid()
        monkeypatch.setattr(os, "geteuid", lambda: me + 1)
        assert cachedir.root() is None
        game = ziggurat.load("breakthrough")
        assert game.filename.startswith("<ziggurat breakthrough") and list(root.iterdir()) == []
        err = capsys.readouterr().err
        assert err.count("warning") == 1 and "owned by another user" in err and str(root) in err

    def test_every_level_below_the_root_is_checked(self, tmp_path, monkeypatch, capsys):
        """A level the cache uses below its root (native/) that others can write, or that is a
        link, is refused like the root."""
        root = tmp_path / "cache"
        monkeypatch.setenv("ZIGGURAT_CACHE_DIR", str(root))
        assert cachedir.subfolder("native") == root / "native"
        (root / "native").chmod(0o757)
        assert cachedir.subfolder("native") is None
        assert "writable by others" in capsys.readouterr().err
        (root / "native").rmdir()
        os.symlink(tmp_path, root / "native")
        assert cachedir.subfolder("native") is None
        assert "symbolic link" in capsys.readouterr().err

    def test_the_folders_made_are_private(self, tmp_path):
        """The folder the cache makes is readable and writable by its user only (0700)."""
        folder = tmp_path / "new" / "cache"
        assert run(folder).returncode == 0
        assert folder.stat().st_mode & 0o777 == 0o700


NATIVE = """\
import os, sys, ziggurat
from ziggurat.interpreter.native import game as ng
g = ziggurat.load("tic-tac-toe")
key, path = ng.module_path(ng.source(g)[0])
for i, name in enumerate([path, path.with_suffix(f".{os.getpid()}.tmp"), path.with_suffix(".compiled")]):
    if not os.path.lexists(name):  # a link at each name the module is written by, to a file of value
        os.symlink(os.path.join(sys.argv[1], f"victim{i}"), name)
print(ng.native(g, ("perft",)).perft(g.new(), 3))
"""


class TestNativeCache:
    def test_numba_cache_and_native_module_are_checked(self, tmp_path):
        """The native module is written through no planted link (its name, a temporary name,
        its marker), and Numba's cache files (index and machine code pickles) replaced by a
        payload are not unpickled: the next process compiles again and counts the same."""
        pytest.importorskip("numba")
        folder, marker = tmp_path / "cache", tmp_path / "ran"
        victims = [tmp_path / f"victim{i}" for i in range(3)]
        for v in victims:
            v.write_text("precious")
        first = run(folder, ["-c", NATIVE, str(tmp_path)], check=True)
        assert [v.read_text() for v in victims] == ["precious"] * 3
        numba_files = [p for p in folder.rglob("*") if p.suffix in (".nbi", ".nbc", ".pyc", ".pickle") and p.is_file()]
        assert any(p.suffix == ".nbi" for p in numba_files) and any(p.suffix == ".nbc" for p in numba_files)
        for p in numba_files:
            planted(p, marker)
        second = run(folder, ["-c", NATIVE, str(tmp_path)], check=True)
        assert not marker.exists()
        assert second.stdout == first.stdout and first.stdout.strip() == "504"  # tests/perft: 9*8*7
        assert [v.read_text() for v in victims] == ["precious"] * 3
