"""What a new user meets in the first hour: the version, the corpora built here, the effective
settings, one reading of a label and of a language everywhere, errors as JSON under --json, and an
answer that does not depend on the thread it was asked in. A real `pincite` subprocess where the
command is what is tested; the service where the answer is."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from importlib.metadata import version

import pytest

import pincite
from tests.conftest import MODEL, service_for


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pincite", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=300)


@pytest.fixture
def built(indexed) -> dict:
    """The environment of a data directory where the GDPR (English) is built and indexed."""
    settings = indexed("gdpr", "en")
    return {"PINCITE_HOME": str(settings.home), "PINCITE_MIRROR": str(settings.mirror),
            "PINCITE_EMBED_MODEL_PATH": str(MODEL)}


def test_version_is_the_installed_distribution_version():
    result = run("--version")
    assert (result.returncode, result.stdout) == (0, f"pincite {version('pincite')}\n")


def test_corpus_list_shows_what_is_built_and_all_adds_the_known_acts(built):
    listed = json.loads(run("corpus", "list", "--json", env=built).stdout)["corpora"]
    gdpr = next(c for c in listed if c["name"] == "gdpr")
    assert {"lang": "en", "provisions": 587, "indexed": True}.items() <= gdpr["built"][0].items()
    assert all(c["built"] for c in listed)  # without --all, only what is built here
    known = {c["name"] for c in json.loads(run("corpus", "list", "--all", "--json", env=built).stdout)["corpora"]}
    assert {"gdpr", "ai-act", "dsa", "pdpa"} <= known
    table = run("corpus", "list", env=built).stdout
    assert "gdpr" in table and "587" in table


def test_corpus_list_on_an_empty_home_says_how_to_start(home):
    result = run("corpus", "list")
    assert result.returncode == 0
    assert "no corpus is built here yet" in result.stdout and "--all" in result.stdout


def test_config_says_where_each_setting_came_from_and_masks_secrets(home, tmp_path):
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text('answer_k = 3\nembed_api_key = "sk-from-file"\n', encoding="utf-8")
    env = {"PINCITE_TIMEOUT": "5", "PINCITE_DATABASE_URL": "postgresql://me:hunter2@db.example/pincite"}
    result = run("config", "--json", env=env)
    assert result.returncode == 0, result.stderr
    rows = {r["name"]: r for r in json.loads(result.stdout)["settings"]}
    assert (rows["timeout"]["value"], rows["timeout"]["source"]) == (5.0, "environment")
    assert rows["answer_k"]["value"] == 3 and rows["answer_k"]["source"].startswith("file ")
    assert rows["search_mode"]["source"] == "default"
    assert rows["embed_api_key"]["value"] == "****"
    assert rows["database_url"]["value"] == "postgresql://me:****@db.example/pincite"
    assert "sk-from-file" not in result.stdout and "hunter2" not in result.stdout


def test_an_unknown_point_is_unknown_to_show_as_to_verify(built):
    show = run("corpus", "show", "gdpr", "Article 5(1)(z)", env=built)
    assert show.returncode == 1 and show.stdout == ""
    assert "has no provision 'Article 5(1)(z)'" in show.stderr
    report = service_for(pincite.load_settings(home=built["PINCITE_HOME"], mirror=built["PINCITE_MIRROR"],
                                               embed_model_path=MODEL)).verify(
        "Personal data shall be processed lawfully. [Article 5(1)(z)]", corpus="gdpr")
    assert not report["verified"]
    assert run("corpus", "show", "gdpr", "Article 5(1)(f)", env=built).stdout.startswith("Article 5(1)")


@pytest.mark.parametrize("command", [["ask", "What is personal data?"], ["search", "personal data"]])
def test_an_unknown_language_is_an_error_everywhere_and_json_under_json(built, command):
    result = run(*command, "--lang", "xx", "--json", env=built)
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"error": "unknown_language", "message": result.stderr[len("error: "):].strip()}
    assert "'xx' is not a language pincite reads" in result.stderr


def test_pincite_verify_can_be_called_again_after_the_stage_is_imported(built, monkeypatch):
    for name, value in built.items():
        monkeypatch.setenv(name, value)
    import pincite.verify.check  # noqa: F401  # the import that used to replace the function

    sentence = "The processor shall notify the controller without undue delay. [Article 33(2)]"
    assert pincite.verify(sentence, corpus="gdpr")["verified"] is True
    assert pincite.verify(sentence, corpus="gdpr")["verified"] is True


def test_a_self_contained_question_gets_the_same_answer_in_a_thread(indexed):
    settings = indexed("gdpr", "en")
    service = service_for(settings)
    question = "What is profiling?"
    alone = service.ask(question, corpus="gdpr")
    assert alone["outcome"] == "answered"
    service.ask("How fast must a personal data breach be notified?", corpus="gdpr", thread="breach-then-adequacy")
    in_thread = service.ask(question, corpus="gdpr", thread="breach-then-adequacy")
    assert (in_thread["outcome"], in_thread["citations"]) == (alone["outcome"], alone["citations"])


def test_a_follow_up_still_reads_the_thread(indexed):
    settings = indexed("gdpr", "en")
    service = service_for(settings)
    service.ask("Must a controller notify a personal data breach to the supervisory authority?", corpus="gdpr",
                thread="breach-follow-up")
    follow = service.ask("And what about processors?", corpus="gdpr", thread="breach-follow-up")
    assert follow["outcome"] == "answered"
    assert any(c["label"].startswith("Article 33") for c in follow["citations"]), follow["citations"]


def test_mcp_help_names_every_tool_the_server_offers(home):
    # the server itself: its tools are what the help must name
    from pincite.surfaces.mcp import create_server

    names = {tool.name for tool in asyncio.run(create_server(pincite.load_settings()).list_tools())}
    help_text = " ".join(run("mcp", "--help").stdout.split())
    assert len(names) == 7 and all(name in help_text for name in names), (names, help_text)
