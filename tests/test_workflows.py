"""The GitHub Actions workflows: linted offline by actionlint and zizmor (from the pins), hardened, and publishing
what `python3 dev.py build OUT` builds (README, "Publishing")."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from guidetools import siteconfig
from guidetools.project import REPO_ROOT

WORKFLOWS = REPO_ROOT / ".github" / "workflows"
GUIDE = WORKFLOWS / "guide.yml"
DRIFT = WORKFLOWS / "drift.yml"
ZIZMOR_CONFIG = REPO_ROOT / ".github" / "zizmor.yml"
BIN = Path(sys.executable).parent
CHECKOUT_PIN = "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1"
# `uses: owner/repo@<40 hex> # vX.Y.Z`: a commit, and the release it is, for a reader and for Dependabot.
PINNED_USES = re.compile(r"^\s*(?:-\s+)?uses:\s+[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$")
# An action pinned by tag, and a pull request's title in a `run:` line: a lint that stopped reading would pass them.
PLANTS = ((CHECKOUT_PIN, "actions/checkout@v7"),
          ('run: git config --global --add safe.directory "$GITHUB_WORKSPACE"', 'run: echo "${{ github.event.pull_request.title }}"'))


def actionlint(*files: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "actionlint"), "-no-color", *map(str, files)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)


def zizmor(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "zizmor"), "--offline", "--no-progress", "--config", str(ZIZMOR_CONFIG), *map(str, paths)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)


def load(path: Path) -> dict:
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    workflow["on"] = workflow.pop(True, workflow.get("on"))  # YAML 1.1 reads the key `on` as True
    return workflow


def test_actionlint_and_zizmor_pass_on_the_workflows_offline():
    linted, audited = actionlint(GUIDE, DRIFT), zizmor(WORKFLOWS)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert "No findings" in audited.stdout + audited.stderr


def test_an_action_pinned_by_tag_and_a_pull_request_title_in_a_run_line_fail_the_linters(tmp_path):
    """Both planted in one copy of guide.yml: zizmor names each (either alone fails it), actionlint the title."""
    text = GUIDE.read_text(encoding="utf-8")
    for old, new in PLANTS:
        assert old in text, f"{old!r} is no longer in {GUIDE.name}: re-plant the test"
        text = text.replace(old, new, 1)
    workflow = tmp_path / ".github" / "workflows" / "guide.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(text, encoding="utf-8")
    flagged = zizmor(workflow)
    assert flagged.returncode != 0
    assert "unpinned-uses" in flagged.stdout and "template-injection" in flagged.stdout, flagged.stdout + flagged.stderr
    linted = actionlint(workflow)
    assert linted.returncode != 0
    assert "github.event.pull_request.title" in linted.stdout and "untrusted" in linted.stdout, linted.stdout


@pytest.mark.parametrize("path", [GUIDE, DRIFT], ids=lambda path: path.name)
def test_workflows_pin_every_action_by_commit_and_grant_nothing_by_default(path):
    text = path.read_text(encoding="utf-8")
    uses = [line for line in text.splitlines() if re.match(r"^\s*(?:-\s+)?uses:", line)]
    assert uses and all(PINNED_USES.match(line) for line in uses), [line for line in uses if not PINNED_USES.match(line)]
    workflow = load(path)
    assert workflow["permissions"] == {}
    for name, job in workflow["jobs"].items():
        assert "write" not in job["permissions"].values() or name == "deploy", (name, job["permissions"])


def test_the_guide_workflow_runs_the_gate_reviews_builds_and_deploys_main():
    workflow = load(GUIDE)
    assert {"pull_request", "push"} <= set(workflow["on"])
    gate = workflow["jobs"]["gate"]["steps"]
    runs = [step.get("run", "") for step in gate]
    # The README's test command through .ci/run (which installs the browser), with the framework's source.
    the_gate = next(step for step in gate if step.get("run") == ".ci/run")
    assert the_gate["env"] == {"MESHWEAVER_SOURCE": "${{ runner.temp }}/MeshWeaver"}
    assert 'git clone --quiet --no-checkout https://github.com/Systemorph/MeshWeaver.git "$RUNNER_TEMP/MeshWeaver"' in runs
    assert (REPO_ROOT / ".ci" / "run").read_text().rstrip().splitlines()[-1] == "exec python3 dev.py test"
    # On a pull request: `dev.py review` of its base into the job summary; the base comes in through env.
    review = next(step for step in gate if "dev.py review" in step.get("run", ""))
    assert "pull_request" in review["if"] and "!cancelled()" in review["if"]
    assert review["env"] == {"BASE": "${{ github.event.pull_request.base.sha }}"}
    assert 'dev.py review "$BASE" --output review.md' in review["run"] and '>> "$GITHUB_STEP_SUMMARY"' in review["run"]
    assert "python3 dev.py build site" in runs
    upload = next(step for step in gate if step.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site"
    # Deployed from main only, by the official Pages action.
    deploy = workflow["jobs"]["deploy"]
    assert deploy["if"] == "${{ github.event_name == 'push' && github.ref == 'refs/heads/main' }}"
    assert deploy["needs"] == "gate" and deploy["environment"]["name"] == "github-pages"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert [step["uses"].split("@")[0] for step in deploy["steps"]] == ["actions/deploy-pages"]


def test_the_drift_workflow_checks_citations_and_errata_at_the_frameworks_main():
    workflow = load(DRIFT)
    assert set(workflow["on"]) == {"schedule", "workflow_dispatch"}
    script = "\n".join(step.get("run", "") for step in workflow["jobs"]["drift"]["steps"])
    assert "git clone --quiet --no-checkout https://github.com/Systemorph/MeshWeaver.git" in script
    assert 'dev.py upstream --source "$framework" --ref origin/main' in script
    assert 'dev.py errata --source "$framework" --ref origin/main' in script
    # On drift the step fails, after writing upstream's list of moved or changed citations to the summary.
    assert '>> "$GITHUB_STEP_SUMMARY"' in script and 'cat "$RUNNER_TEMP/upstream.txt"' in script
    assert script.rstrip().endswith('[ "$status" -eq 0 ] && [ "$errata" -eq 0 ]')


def test_site_url_and_edit_uri_name_the_repository_and_branch_the_workflow_deploys():
    """Pages serves https://OWNER.github.io/REPO/; no repo_url, or Material would fetch from the code host's API."""
    config = siteconfig.load()
    site = urlsplit(config["site_url"])
    owner, repository = site.hostname.removesuffix(".github.io"), site.path.strip("/")
    assert site.scheme == "https" and site.hostname.endswith(".github.io") and "/" not in repository
    assert config["site_url"].endswith("/") and "repo_url" not in config
    branch = re.search(r"refs/heads/([\w.-]+)", load(GUIDE)["jobs"]["deploy"]["if"]).group(1)
    docs = config.get("docs_dir", "docs")
    assert config["edit_uri"].lower() == f"https://github.com/{owner}/{repository}/edit/{branch}/{docs}/".lower()
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert config["site_url"] in readme.split("## Publishing", 1)[1]


def test_dev_py_build_is_the_gates_strict_build():
    import dev
    from guidetools.gate import JOBS

    job, out = JOBS["site_build"], Path("/nowhere/site")
    assert job.argv_in(out.parent) == [sys.executable, *dev.build_command(out)[1:]]
    assert dev.build_command(out)[1:] == ["-m", "mkdocs", "build", "--strict", "--site-dir", str(out)]
    assert job.env == dev.BUILD_ENV


def test_pre_commit_runs_ruff_and_the_claim_contract_from_the_venv_without_network():
    from pre_commit.clientlib import load_config

    load_config(REPO_ROOT / ".pre-commit-config.yaml")  # pre-commit's own validation: a malformed file raises
    config = yaml.safe_load((REPO_ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert [repo["repo"] for repo in config["repos"]] == ["local"]
    hooks = {hook["id"]: hook for hook in config["repos"][0]["hooks"]}
    assert set(hooks) == {"ruff", "claim-contract"}
    assert all(hook["language"] == "system" and hook["entry"].startswith(".venv/bin/") for hook in hooks.values())
    assert hooks["ruff"]["entry"].split()[:2] == [".venv/bin/ruff", "check"]
    assert hooks["claim-contract"]["entry"].endswith("tests/test_docs_contracts.py")
    assert (REPO_ROOT / "tests" / "test_docs_contracts.py").is_file()
