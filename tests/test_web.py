"""The chat page in real headless Chromium against a real server: load, ask, see the cited answer,
open a citation, see a refusal, find the conversation again. Screenshots go to test-artifacts/."""

from __future__ import annotations

import asyncio
import re
import threading

import pytest

from tests.conftest import CORPORA, MODEL, need_shared
from tests.live_server import chromium, http_server, screenshot
from tests.test_llm import server  # noqa: F401 (fixture: a scripted model on loopback)

BREACH = "How quickly must a personal data breach be notified to the supervisory authority?"
LUXEMBOURG = "Which data protection authority in Luxembourg handles complaints?"


@pytest.fixture(scope="module")
def gdpr(indexed):
    return indexed("gdpr", "en").model_copy(update={"rate_limit_per_minute": 0})


@pytest.fixture(scope="module")
def site(gdpr):
    with http_server(gdpr) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


def open_page(browser, url: str):
    """A fresh browser context on `url`; any request off the server fails the test (no CDN, no network)."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=url, reduced_motion="reduce")
    problems: list[str] = []
    context.route(re.compile(r"^(?!" + re.escape(url) + ").*"),
                  lambda route: (problems.append(f"off-site request {route.request.url}"), route.abort()))
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    return context, page, problems


@pytest.fixture
def page(browser, site):
    context, page, problems = open_page(browser, site)
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    yield page
    context.close()
    assert problems == []


def ask(page, question: str, outcome: str):
    page.fill("#question", question)
    page.press("#question", "Enter")
    page.wait_for_selector(f".turn:last-child article.answer[data-outcome={outcome}]")
    return page.locator(".turn:last-child article.answer")


def test_load_ask_open_a_citation_see_a_refusal(page):
    assert page.locator("#corpus").input_value() == "gdpr" and page.locator("#lang").input_value() == "en"
    assert "OJ L 119, 4.5.2016" in page.locator("#version").inner_text()
    assert page.locator("button.example").count() >= 3
    screenshot(page, "web-1-loaded")

    page.locator("button.example", has_text="personal data breach be notified").click()
    page.wait_for_selector("article.answer[data-outcome=answered]")
    answer = page.locator("article.answer").first
    chips = answer.locator(".sentence .cite")
    assert chips.first.inner_text() == "Article 33(1)"
    assert all(href.startswith("https://eur-lex.europa.eu/") for href in chips.evaluate_all("els => els.map(e => e.href)"))
    assert "OJ L 119, 4.5.2016" in answer.locator(".meta").inner_text()
    assert answer.locator(".sources li").count() == answer.locator(".sentence").count()
    screenshot(page, "web-2-answer")

    chips.first.click()
    page.wait_for_selector("#panel .line")
    assert page.locator("#panel-label").inner_text() == "Article 33(1)"
    assert "72 hours" in page.locator("#panel-text").inner_text()
    assert page.locator("#panel-link").get_attribute("href").endswith("#033.001")
    screenshot(page, "web-3-provision")

    page.keyboard.press("Escape")
    assert page.locator("#panel").is_hidden()
    refusal = ask(page, LUXEMBOURG, "refused")
    assert "Not answered" in refusal.inner_text() and "never mentions" in refusal.inner_text()
    assert refusal.locator("code").inner_text() == "outside_corpus"
    assert refusal.locator(".cite").count() == 0 and refusal.locator(".sources").count() == 0
    screenshot(page, "web-4-refusal")


def test_the_panel_lists_references_both_ways_as_links_that_open_them(page):
    ask(page, BREACH, "answered").locator(".sentence .cite").first.click()
    page.wait_for_selector("#panel .refs-cited-by a.ref")
    assert page.locator("#panel-label").inner_text() == "Article 33(1)"
    cites = page.locator("#panel .refs-cites a.ref").evaluate_all("els => els.map(e => e.dataset.label)")
    assert "Article 55" in cites  # "the supervisory authority competent in accordance with Article 55"
    fine = page.locator("#panel .refs-cited-by a.ref[data-label='Article 83(4)']")
    assert "25 to 39" in fine.locator("xpath=..").inner_text()
    fine.click()
    page.wait_for_function("document.querySelector('#panel-label').textContent === 'Article 83(4)'")
    page.wait_for_selector("#panel .refs-cites a.ref[data-label='Article 33']")
    assert "10 000 000" in page.locator("#panel-text").inner_text()
    screenshot(page, "web-5-references")


def test_a_conversation_is_kept_per_thread(page):
    ask(page, BREACH, "answered")
    ask(page, "And the processor?", "answered")
    assert page.locator("#thread-list li").count() == 1
    assert "2 questions" in page.locator("#thread-list").inner_text()

    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator(".turn").count() == 0 and page.locator("#empty").is_visible()
    page.locator("#thread-list button").first.click()
    assert page.locator(".turn").count() == 2
    assert page.locator(".turn .cite").first.inner_text() == "Article 33(1)"
    screenshot(page, "web-5-thread-restored")

    ask(page, "When must the data subject be told?", "answered")
    assert "3 questions" in page.locator("#thread-list").inner_text()
    page.click("#new-thread")
    assert page.locator(".turn").count() == 0 and page.locator("#empty").is_visible()


def test_switching_the_law_offers_its_languages_and_examples(page):
    ask(page, BREACH, "answered")
    page.select_option("#corpus", "ai-act")
    assert page.locator(".turn").count() == 0  # a conversation is about one text
    page.select_option("#lang", "it")
    assert "Quali" in page.locator("button.example").first.inner_text()
    assert page.locator("#empty-corpus").inner_text().startswith("Artificial Intelligence Act")


def test_a_server_with_api_keys_asks_for_one(browser, gdpr):
    with http_server(gdpr.model_copy(update={"api_keys": "letmein"})) as url:
        context, page, problems = open_page(browser, url)
        page.goto("/")
        page.wait_for_selector("#keybar:not([hidden])")
        page.fill("#apikey", "letmein")
        page.click("#keyform button")
        page.wait_for_selector("body[data-ready=true]")
        assert page.locator("#keybar").is_hidden()
        context.close()
    # The browser logs the first 401 as a failed resource load; nothing else may go wrong.
    assert [p for p in problems if "401" not in p] == []


def test_a_pdf_uploaded_on_the_page_is_added_and_chosen(browser, gdpr, tmp_path):
    from tests.pdf_fixtures import paged_pdf

    settings = gdpr.model_copy(update={"home": tmp_path / "upload-home"})
    pdf = paged_pdf(tmp_path / "handbook.pdf")
    with http_server(settings) as url:
        context, page, problems = open_page(browser, url)
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        page.set_input_files("#upload", str(pdf))
        page.wait_for_selector("#upload-status:has-text('Added')", timeout=240_000)
        screenshot(page, "web-6-upload")
        chosen = page.eval_on_selector("#corpus", "select => select.value")
        context.close()
    assert chosen == "handbook" and problems == []


EXTRACTIVE_CHECKED = "quotations of the law's text, checked against the cited provisions"


def test_an_extractive_answer_says_its_quotations_were_checked(page):
    assert EXTRACTIVE_CHECKED not in page.locator("#notice").inner_text()  # no mode is claimed before an answer
    answer = ask(page, BREACH, "answered")
    assert EXTRACTIVE_CHECKED in answer.locator(".answer-notice").inner_text()
    assert EXTRACTIVE_CHECKED in page.locator("#notice").inner_text()


def test_a_model_written_answer_says_what_was_checked_and_not_that_it_quotes(browser, gdpr, server, monkeypatch):  # noqa: F811
    from tests.test_llm import GOOD, said

    monkeypatch.setenv("PINCITE_LLM_API_KEY", "test-key")
    server.replies = [said(GOOD)]
    settings = gdpr.model_copy(update={"llm": "openai:gpt-4.1-mini", "llm_base_url": f"{server.url}/v1"})
    with http_server(settings) as url:
        context, page, problems = open_page(browser, url)
        page.goto("/")
        page.wait_for_selector("body[data-ready=true]")
        answer = ask(page, BREACH, "answered")
        said_on_card = answer.locator(".answer-notice").inner_text()
        footer = page.locator("#notice").inner_text()
        screenshot(page, "web-7-llm-notice")
        context.close()
    assert "written by a language model" in said_on_card and "checked in code" in said_on_card
    assert EXTRACTIVE_CHECKED not in said_on_card and EXTRACTIVE_CHECKED not in footer
    assert problems == [] and len(server.requests) == 1


def options(page, select: str) -> list[str]:
    return page.locator(f"{select} option").evaluate_all("els => els.map(e => e.value)")


def test_only_the_languages_the_mirror_holds_are_offered(page):
    assert options(page, "#lang") == ["en", "it"]  # built first, then the mirror's; not the GDPR's 24
    page.select_option("#corpus", "ai-act")
    assert sorted(options(page, "#lang")) == ["da", "en", "fr", "it", "nl"]
    page.select_option("#corpus", "dga")
    assert options(page, "#lang") == ["en"]


def test_progress_events_show_in_the_pending_card_until_the_answer_replaces_them(page, monkeypatch):
    # The server sends `progress` while it builds a text on first use; here they are put in front
    # of a real answer's events, held until the page has shown them.
    from pincite.surfaces.http import app
    from pincite.surfaces.http.sse import sse

    real, release = app.answer_stream, threading.Event()

    async def with_progress(*args, **kwargs):
        stream = real(*args, **kwargs)
        yield await stream.__anext__()  # start
        yield sse("progress", {"stage": "fetch", "done": None, "total": None})
        yield sse("progress", {"stage": "embed", "done": 256, "total": 587})
        while not release.is_set():
            await asyncio.sleep(0.05)
        async for chunk in stream:
            yield chunk

    monkeypatch.setattr(app, "answer_stream", with_progress)
    page.fill("#question", BREACH)
    page.press("#question", "Enter")
    status = page.locator("article.answer.pending .status")
    status.filter(has_text="embed 256/587").wait_for()
    assert status.inner_text() == "Preparing gdpr (en): embed 256/587"
    screenshot(page, "web-8-progress")
    release.set()
    page.wait_for_selector("article.answer[data-outcome=answered]")
    assert page.locator("article.answer .status").count() == 0


DGA_QUESTION = "What is a data intermediation service?"


@pytest.fixture
def fresh_site(tmp_path):
    """A server over an empty data directory and a mirror of three files, the DGA's broken at first
    (an HTML page that is not an act): yields (url, the DGA's mirror file)."""
    need_shared(MODEL)
    from pincite.settings import load_settings

    mirror = tmp_path / "mirror"
    for folder, lang in [("gdpr", "en"), ("gdpr", "it")]:
        (mirror / folder).mkdir(parents=True, exist_ok=True)
        (mirror / folder / f"{lang}.html").symlink_to(CORPORA / folder / f"{lang}.html")
    dga = mirror / "32022R0868" / "en.html"
    dga.parent.mkdir()
    dga.write_text("<!doctype html><html><body><p>No such document</p></body></html>\n")
    settings = load_settings(home=tmp_path / "home", mirror=mirror, embed_model_path=MODEL,
                             rate_limit_per_minute=0)
    with http_server(settings) as url:
        yield url, dga


def test_a_fresh_home_builds_on_first_question_then_says_so_and_errors_do_not_stay(browser, fresh_site):
    url, dga = fresh_site
    context, page, problems = open_page(browser, url)
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    assert options(page, "#lang") == ["en", "it"]  # what the mirror holds, nothing built yet
    page.select_option("#corpus", "dga")
    assert options(page, "#lang") == ["en"]
    assert page.locator("#version").inner_text().startswith("Not prepared here yet in English")

    ask(page, DGA_QUESTION, "failed")
    failed = page.locator(".turn.failed article.answer.failed")
    message = failed.inner_text()
    assert "32022R0868/en.html is an HTML page but not the text of an act" in message  # its place in the mirror
    assert str(dga.parent.parent) not in message and "file:" not in message  # but not where the mirror is
    screenshot(page, "web-9-fresh-error")

    page.select_option("#corpus", "gdpr")  # switching the law clears the error card
    assert page.locator(".turn").count() == 0 and page.locator("#empty").is_visible()
    page.select_option("#corpus", "dga")
    ask(page, DGA_QUESTION, "failed")
    dga.unlink()
    dga.symlink_to(CORPORA / "32022R0868" / "en.html")  # the mirror fixed: asking again builds the act

    page.fill("#question", DGA_QUESTION)
    page.press("#question", "Enter")
    assert page.locator(".answer.failed").count() == 0  # asking again clears the error card at once
    page.wait_for_selector(".turn:last-child article.answer[data-outcome]", timeout=240_000)
    page.wait_for_selector("#version[data-state=ready]")
    version = page.locator("#version").inner_text()
    assert "Not prepared" not in version and version.startswith("Text: OJ L 152, 3.6.2022")
    assert page.locator(".turn").count() == 1 and page.locator(".answer.failed").count() == 0
    assert options(page, "#lang") == ["en"] and "prepared on first question" not in page.locator("#lang").inner_text()
    screenshot(page, "web-10-fresh-built")
    context.close()
    # The browser logs nothing but the failed answers' own lines (none are expected: errors arrive as events).
    assert problems == []
