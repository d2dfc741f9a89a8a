"""guidetools/upstream.py (`python3 dev.py upstream`), in-process, on a framework repository built on the fly (its
second commit changes, moves, deletes and renames cited lines and files) cited by a tmp guide."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import pytest

from guidetools import facts, upstream
from guidetools.facts import CITATIONS_FILE, import_facts_markdown
from guidetools.project import REPO_ROOT
from guidetools.upstream import EXIT_BAD_INPUT, EXIT_DRIFT, EXIT_OK, check

GIT_ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}  # no user configuration read

FIRST = {
    "src/Sum.cs": "namespace Example;\n\npublic static class Sum\n{\n    public static int Add(int a, int b)\n    {\n        return a + b;\n    }\n}\n",
    "src/Names.cs": "public static class Names\n{\n    public const string Greeting = \"hello\";\n}\n",
    "src/Old.cs": "public const int Limit = 40;\n",
    "src/Kept.cs": "public static class Kept\n{\n    public const int Value = 1;\n}\n",
}
# The second commit: Add's body changes, Greeting moves 10 lines down, Old.cs goes, Kept.cs is renamed unchanged.
SECOND = {
    "src/Sum.cs": FIRST["src/Sum.cs"].replace("return a + b;", "return checked(a + b);"),
    "src/Names.cs": "// note\n" * 10 + FIRST["src/Names.cs"],
    "src/Moved/Kept.cs": FIRST["src/Kept.cs"],
}

# F4 cites another repository; R1 is the guide's own reading.
FACTS = [
    ("F1", "Add returns the sum.", "", 'path = "src/Sum.cs", line = 7, symbol = "Add", evidence = "return a + b;"'),
    ("F2", "The greeting is hello.", "", 'path = "src/Names.cs", line = 3, symbol = "Greeting", evidence = "Greeting = \\"hello\\""'),
    ("F3", "The limit is 40.", "", 'path = "src/Old.cs", line = 1, symbol = "Limit", evidence = "Limit = 40;"'),
    ("F4", "A library behaviour.", "", 'repo = "MEAI", path = "src/Kept.cs", line = 3, symbol = "Value", evidence = "Value = 1;"'),
    ("R1", "Kept's value is 1.", "own reading", 'path = "src/Kept.cs", line = 3, symbol = "Value", evidence = "Value = 1;"'),
]
CITATIONS = '[pin]\nrepo = "Example/Framework"\ncommit = "{pin}"\n\n[repos.MEAI]\nrepo = "Example/Library"\ncommit = "{library}"\n' + "".join(
    f'\n[facts.{fact}]\ntext = "{text}"\n' + (f'origin = "{origin}"\n' if origin else "") + f"cites = [\n  {{{{ {cite} }}}},\n]\n"
    for fact, text, origin, cite in FACTS)

PAGE = """# Guide

Add returns the sum of its arguments.
{ #guide.adds .framework cite="F1" }

The greeting is hello, and kept values stay.
{ #guide.greets .framework cite="F2 R1" }
"""


def git(cwd: Path, *args: str) -> str:
    identity = ["-c", "user.name=test", "-c", "user.email=test@example.org"]
    return subprocess.run(["git", *identity, *args], cwd=cwd, env=GIT_ENV, check=True, capture_output=True, text=True).stdout.strip()


def _commit(tree: Path, files: dict[str, str], message: str) -> str:
    for path in tree.rglob("*.cs"):
        path.unlink()
    for path, text in files.items():
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        (tree / path).write_text(text)
    git(tree, "add", "-A")
    git(tree, "commit", "-q", "-m", message)
    return git(tree, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def framework(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A framework work tree with two commits (tagged `second`): its path, the pin and the second commit."""
    tree = tmp_path_factory.mktemp("framework")
    git(tree, "init", "-q", "-b", "main")
    pin = _commit(tree, FIRST, "first")
    second = _commit(tree, SECOND, "second")
    git(tree, "tag", "second")
    return tree, pin, second


def _guide(root: Path, pin: str, citations: str = CITATIONS) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "guide.md").write_text(PAGE)
    (root / "framework").mkdir()
    (root / CITATIONS_FILE).write_text(citations.format(pin=pin, library=pin))
    return root


@pytest.fixture()
def guide(tmp_path: Path, framework) -> Path:
    return _guide(tmp_path / "guide", framework[1])


def _toml_line(root: Path, fragment: str) -> int:
    lines = (root / CITATIONS_FILE).read_text().splitlines()
    return next(number for number, text in enumerate(lines, start=1) if fragment in text)


def test_every_citation_holds_at_the_pin(guide, framework):
    """The MEAI citation is counted as another repository's, or checked when --repo MEAI=DIR gives it (the fixture
    stands in for it); a ref equal to the pin lists nothing."""
    outcome = check(guide, {"": framework[0]})
    assert (outcome.findings, outcome.exit_status) == ([], EXIT_OK)
    assert outcome.summary.startswith("upstream: 4 citations of Example/Framework checked at the pin; all hold; "
                                      "1 not checked: other repository (MEAI 1;")
    outcome = check(guide, {"": framework[0]}, framework[1])
    assert (outcome.findings, outcome.exit_status) == ([], EXIT_OK)
    assert "no evidence moved or changed" in outcome.summary
    outcome = check(guide, {"": framework[0], "MEAI": framework[0]})
    assert outcome.exit_status == EXIT_OK
    assert outcome.summary.startswith("upstream: 5 citations of Example/Framework, Example/Library checked at the pin; all hold;")
    assert "not checked" not in outcome.summary


@pytest.mark.parametrize("where", ["work tree", ".git", "bare clone"])
def test_ref_lists_each_claim_whose_evidence_changed_moved_or_lost_its_file(guide, framework, tmp_path, where):
    """At `second`: F1's evidence is gone, F2's moved, F3's file is gone; R1 followed its rename."""
    tree = framework[0]
    source = {"work tree": tree, ".git": tree / ".git", "bare clone": tmp_path / "bare.git"}[where]
    if where == "bare clone":
        git(tmp_path, "clone", "-q", "--bare", str(tree), str(source))
    outcome = check(guide, {"": source}, "second")
    at = f"second ({framework[2][:12]})"
    assert outcome.exit_status == EXIT_DRIFT
    assert outcome.findings == [
        (f"docs/guide.md:4: claim 'guide.adds' cites F1: src/Sum.cs:7: gone at {at}: evidence `return a + b;` is no "
        "longer in src/Sum.cs; re-check against the source there and correct [facts.F1]"),
        (f"docs/guide.md:7: claim 'guide.greets' cites F2: src/Names.cs:3: moved to src/Names.cs:13 at {at}: evidence "
        "`Greeting = \"hello\"`; re-check against the source there, then set line = 13 in [facts.F2]"),
        (f"framework/citations.toml:{_toml_line(guide, 'Old.cs')}: fact F3 (cited by no claim): src/Old.cs:1: file gone "
        f"at {at}; re-check against the source there and cite where the behaviour lives now in [facts.F3]"),
    ]
    assert "3 citation(s) moved or changed" in outcome.summary


BAD = "docs/guide.md:4: claim 'guide.adds' cites F1: src/"
TAIL = " in framework/citations.toml [facts.F1]"


@pytest.mark.parametrize("wrong, right, finding", [
    # The evidence stands at line 7: a citation of line 2 (5 away) holds, of line 1 (6 away) does not.
    ("line = 7,", "line = 2,", None),
    ("line = 7,", "line = 1,", BAD + "Sum.cs:1: evidence `return a + b;` is not within ±5 lines of line 1 at the pin {pin}; "
     "it stands at line 7: set line = 7" + TAIL),
    ('path = "src/Sum.cs"', 'path = "src/Gone.cs"', BAD + "Gone.cs:7: src/Gone.cs does not exist at the pin {pin}; correct the path" + TAIL),
    ("line = 7,", "line = 99,", BAD + "Sum.cs:99: line 99 is past the end of src/Sum.cs (9 lines) at the pin {pin}; correct the line" + TAIL),
    ('evidence = "return a + b;"', 'evidence = "return a - b;"', BAD + "Sum.cs:7: evidence `return a - b;` is not in src/Sum.cs at "
     "the pin {pin}; re-read the source and correct the evidence" + TAIL),
    (', evidence = "Limit = 40;"', "", "framework/citations.toml:{F3}: a citation of fact F3 lacks evidence; give path, line = N and evidence"),
], ids=["within the window", "outside the window", "missing file", "line past the end", "evidence not found", "malformed"])
def test_a_wrong_citation_at_the_pin_is_one_line_naming_the_claim_or_fact(tmp_path, framework, wrong, right, finding):
    assert facts.EVIDENCE_WINDOW == 5
    guide = _guide(tmp_path, framework[1], CITATIONS.replace(wrong, right, 1))
    outcome = check(guide, {"": framework[0]})
    expected = [finding.format(pin=framework[1][:12], F3=_toml_line(guide, "[facts.F3]"))] if finding else []
    assert (outcome.findings, outcome.exit_status) == (expected, EXIT_BAD_INPUT if finding else EXIT_OK)


@pytest.mark.parametrize("sources, ref, message", [
    ({"": "{framework}"}, "v9", "unknown ref 'v9': "),
    ({"": "{tmp_path}/plain"}, None, "{tmp_path}/plain is not a git repository; " + upstream.SOURCE_HINT.format(name="Example/Framework")),
    # a folder inside a work tree is refused too: git must not climb to the enclosing repository
    ({"": "{framework}/src"}, None, "{framework}/src is not a git repository; "),
    # --repo MEAI=DIR: the hint asks for a checkout of the library, not of the framework
    ({"": "{framework}", "MEAI": "{tmp_path}"}, None, "{tmp_path} is not a git repository; " + upstream.SOURCE_HINT.format(name="Example/Library")),
    ({"": "{framework}", "XYZ": "{framework}"}, None, f"--repo XYZ=…: {CITATIONS_FILE} defines no repository 'XYZ'; use one of MEAI"),
    ({"": "{tmp_path}/other"}, None, "{tmp_path}/other does not hold the pinned commit"),
], ids=["unknown ref", "plain folder", "folder in a work tree", "library folder", "unknown repository key",
        "no pinned commit"])
def test_bad_input_is_one_line_and_status_2(guide, framework, tmp_path, sources, ref, message):
    (tmp_path / "plain").mkdir()
    if "other" in sources[""]:
        (tmp_path / "other").mkdir()
        git(tmp_path / "other", "init", "-q")
        _commit(tmp_path / "other", FIRST, "unrelated")
    outcome = check(guide, {key: Path(where.format(framework=framework[0], tmp_path=tmp_path)) for key, where in sources.items()}, ref)
    assert (len(outcome.findings), outcome.exit_status) == (1, EXIT_BAD_INPUT), outcome.findings
    assert outcome.findings[0].startswith(message.format(tmp_path=tmp_path, framework=framework[0])), outcome.findings


def test_the_command_line_prints_findings_then_the_summary_and_bad_input_as_one_line(guide, framework, tmp_path, capsys):
    status = upstream.main(["--root", str(guide), "--source", str(framework[0]), "--ref", "second"])
    printed = capsys.readouterr().out.splitlines()
    assert status == EXIT_DRIFT and len(printed) == 4
    assert printed[0].startswith("docs/guide.md:4: claim 'guide.adds'") and printed[-1].startswith("upstream: 4 citations")
    assert upstream.main(["--root", str(guide), "--source", str(tmp_path / "missing")]) == EXIT_BAD_INPUT
    shown = capsys.readouterr()
    assert (shown.out, shown.err.splitlines()) == (
        "", [f"{tmp_path / 'missing'} is not a directory; {upstream.SOURCE_HINT.format(name='Example/Framework')}"])


# ---- the guide's own citations ----

MESHWEAVER_SOURCE = os.environ.get("MESHWEAVER_SOURCE", "")
PIN = facts.load().framework


def needs_source(to: str) -> pytest.MarkDecorator:  # the other modules' tests at the framework's source too
    return pytest.mark.skipif(not MESHWEAVER_SOURCE, reason=(
        f"set MESHWEAVER_SOURCE to a MeshWeaver checkout or git dir (a clone of {PIN.name} holding {PIN.commit[:12]}) "
        f"to {to}"))


@needs_source("check every citation against the framework's source")
def test_every_citation_of_the_guide_holds_in_the_framework_source():
    outcome = check(REPO_ROOT, {"": Path(MESHWEAVER_SOURCE)})
    assert outcome.exit_status == EXIT_OK, "\n".join(outcome.findings)


SHARED_FACTS = REPO_ROOT.parent / "shared" / "reference" / "framework-facts.md"


@pytest.mark.skipif(not SHARED_FACTS.exists(), reason=f"{SHARED_FACTS} is absent: nothing to compare framework/citations.toml with")
def test_citations_toml_holds_every_fact_of_the_shared_facts_file():
    """Every fact of framework-facts.md is vendored with the same citations; any other fact is 'own reading'."""
    shared = import_facts_markdown(SHARED_FACTS.read_text(encoding="utf-8"))
    vendored = tomllib.loads((REPO_ROOT / CITATIONS_FILE).read_text(encoding="utf-8"))
    # A repository of the facts file is vendored as it stands; one it lacks (PdfPig) serves "own reading" facts.
    repos = vendored.get("repos", {})
    assert vendored["pin"] == shared["pin"] and all(repos.get(key) == repo for key, repo in shared["repos"].items())

    def cites(fact: dict) -> list[dict]:
        return [{"repo": "", "symbol": ""} | cite for cite in fact.get("cites", [])]

    # A fact that a reading of the source found wrong or incomplete is corrected in place, marked so, and keeps
    # the facts file's citations beside its own: the facts file's text is a reading, the source decides.
    corrected = "facts v2, corrected by own reading"

    def differs(fact_id: str, fact: dict) -> bool:
        ours = vendored["facts"][fact_id]
        if ours.get("origin") != corrected:
            return cites(ours) != cites(fact) or ours["text"] != fact["text"]
        unchanged = ours["text"] == fact["text"] and cites(ours) == cites(fact)
        return unchanged or any(cite not in cites(ours) for cite in cites(fact))

    differ = [f"{fact_id}: {CITATIONS_FILE} lacks it" if fact_id not in vendored["facts"]
              else f"{fact_id}: differs from {SHARED_FACTS.name} (mark a correction origin = \"{corrected}\", "
                   "keeping the facts file's citations)"
              for fact_id, fact in shared["facts"].items()
              if fact_id not in vendored["facts"] or differs(fact_id, fact)]
    own = [f"{fact_id}: not in {SHARED_FACTS.name}, so it needs origin = \"own reading\""
           for fact_id, fact in vendored["facts"].items()
           if fact_id not in shared["facts"] and fact.get("origin") != "own reading"]
    assert differ + own == []
    assert shared["facts"], "the facts file's reader found no fact"
