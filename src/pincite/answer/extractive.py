"""Extractive answers (the default, no model): the law's own sentences, each cited.

The answer quotes whole sentences, or whole points prefixed by their lead-in, of the retrieved
provisions that match the question best; never a lead-in alone or half a sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pincite import languages
from pincite.answer.gate import Profile
from pincite.answer.result import Answer, distinct, refused
from pincite.citations import (
    joined,
    parse_label,
    point_label,
    point_lines,
    point_text,
    strip_number,
    top_points,
)
from pincite.errors import CitationError
from pincite.index.analysis import token_set
from pincite.provisions import Provision
from pincite.retrieve.graph import article_of
from pincite.retrieve.query import Query, analyse
from pincite.retrieve.search import answers_by_title
from pincite.verify.check import CALENDAR_DATE, MAX_SENTENCES, Sentence, quantities, split_sentences

QUOTE_HITS = 4  # provisions the extractive mode quotes from, at most
WHOLE_QUOTE_CHARS = 1200  # a provision the question names is quoted whole when it is this short
SECOND_QUOTE = 0.4  # a further provision is quoted when it scores this share of the best (chosen with eval abstention)
# A question of more analysed tokens than this carries a situation as well as a question, and often asks
# what two articles answer. 9 to 13 score alike on the dev splits (first questions, multi-hop); 15 loses
# a multi-hop answer.
LONG_QUESTION = 11
GOVERNING_QUOTE_CHARS = 2000  # the first provision a question names is quoted whole up to this length


@dataclass(frozen=True)
class Quote:
    """A quotable piece of a provision: one whole sentence, or one whole point with its lead-in."""

    label: str
    text: str
    provision: Provision
    rank: int  # of the provision among the hits
    provision_named: bool = False  # the question names the provision ('What does Article 17(1) say?')


def quotes(provision: Provision, rank: int) -> list[Quote]:
    """Every quotable piece of a provision: its whole sentences outside the points, and each
    top-level point prefixed by its lead-in, so that it reads as the law reads. A definition
    is quoted whole. A lead-in is never quoted alone (it is half a sentence)."""
    if provision.kind == "definition":
        body = [ln.strip() for ln in provision.text.splitlines()[1:]] or [provision.text]
        return [Quote(provision.label, strip_number(" ".join(body)), provision, rank)]
    if answers_by_title("amendments", provision) and provision.text:
        # An amending article's instruction ('In Article 4(3) of Regulation (EC) No 300/2008, the
        # following subparagraph is added:') is whole in itself and says which act it amends; the
        # text it inserts is the other act's, not this one's.
        return [Quote(provision.label, strip_number(provision.text.splitlines()[0]).strip(), provision, rank)]
    out = [Quote(provision.label, s, provision, rank) for s in _whole_sentences(provision.text)]
    for path in top_points(provision.text):
        text = point_text(provision.text, path)
        if text is not None:
            # A rule has no citable points: its point, with the lead-in, is quoted as the rule.
            label = provision.label if provision.kind == "rule" else point_label(provision.label, path)
            out.append(Quote(label, joined(text), provision, rank))
    if not out:  # an annex item without points: the item with its lead-in
        out = [Quote(provision.label, joined(provision.text), provision, rank)]
    return out


def _whole_sentences(text: str) -> list[str]:
    """Sentences of the unnumbered lines at the top level: before the points, and after them
    when a line starts a new sentence (a lower-case line ends the lead-in's sentence)."""
    out = []
    for number, (indent, marker, line) in enumerate(point_lines(text)):
        if marker is not None or indent > 0 or (number and line.strip()[:1].islower()):
            continue
        for sentence in split_sentences(strip_number(line) if number == 0 else line):
            if not sentence.rstrip().endswith((":", "—", "–", "-")):
                out.append(sentence)
    return out


def extractive(query: Query, hits: list, profile: Profile, *, max_sentences: int = MAX_SENTENCES) -> Answer:
    """Quote the best piece of each closely matching provision, best first, at most
    `max_sentences`. A further provision is quoted only when it matches nearly as well as the
    best one, so a clear question gets a short answer. When the question names provisions,
    those are quoted (whole, when short) and nothing else."""
    weights = _term_weights(query, profile)
    period = query.asks_period
    evidence = distinct(hits)
    by_title = any(answers_by_title(query.asks, h.provision) for h in evidence)
    if by_title:
        # Whether the act applies is said in its scope article, what it amends in its amending ones:
        # the rest only shares the question's words.
        evidence = [h for h in evidence if answers_by_title(query.asks, h.provision) or h.exact]
    if by_title and query.asks == "application":
        # From when the act applies: every date its final article states, in its order ('It shall apply
        # from 2 August 2026.', then the chapters that apply earlier or later).
        dated = [q for rank, h in enumerate(evidence) for q in quotes(h.provision, rank) if CALENDAR_DATE.search(q.text)]
        if dated:
            sentences = [Sentence(q.text, [q.label], quote=True) for q in dated[:max_sentences]]
            return Answer("answered", sentences=sentences, question=query.text, hits=hits, lang=profile.lang)
    # A question for a period may find it a little further down: every evidence hit is read.
    reach = evidence[:len(hits) if period else QUOTE_HITS]
    ranked = _ranked(reach, weights, profile.lang, period)
    written = getattr(reach[0], "asked_question", None) if reach else None
    if (not ranked or (ranked[0][1] == 0 and not ranked[0][2].provision_named)) and written:
        # No sentence shares a word with the question ('Our online shop got hacked — who do we tell?'), but the lead
        # was found by a question written for it ('… notify a personal data breach …'): its words choose the quote.
        weights = _term_weights(analyse(str(written), profile.lang), profile)
        ranked = _ranked(reach, weights, profile.lang, period)
    if not ranked or (ranked[0][1] == 0 and not ranked[0][2].provision_named):
        return refused("no_quote", "no sentence of the closest provisions shares a word with the question")
    if not ranked[0][2].provision_named and not period:
        # On the dev splits of the first questions, an answer led by a stronger quote of a lower-ranked hit than the
        # ranker's first was led by a governing provision 0 times in 7 (GDPR), the ranker's first 6 times.
        ranked = _ranked_lead(ranked, _asked_for(reach, query))
    named = [q for _, _, q in ranked if q.provision_named]
    more = asks_more(query)
    if named:
        chosen = named[:max_sentences]
    else:
        # Without written questions (an act that ships none, or a model other than e5) the ranker leads with a detail more
        # often, and the first paragraph of its article stays on its strength, as before them.
        written_questions = any(getattr(h, "asked_words", None) for h in reach)
        chosen = _composed(ranked, weights, profile.lang, max_sentences, more, first_on_strength=not written_questions)
    chosen = [piece for q in chosen for piece in (q, *qualifiers(q, hits))]
    chosen = list({(q.label, q.text): q for q in chosen}.values())[:max_sentences]
    listed = _listed(chosen[0]) if chosen and not named and query.asks_list else []
    if chosen and not named and query.asks_list and not listed:
        # A list question whose lead states no list ('This Article shall not affect the prohibitions …') is
        # answered by the list its article holds, when the ranking reached it ('The following AI practices
        # shall be prohibited: (a) …').
        article = article_of(chosen[0].label)
        for _, _, quote in ranked:
            if article_of(quote.label) == article and (listed := _listed(quote)):
                chosen = [quote, *(q for q in chosen if q.provision.id != quote.provision.id)]
                break
    if listed:
        # The list counts as one quotation: its points come in place of the lead, the rest follow.
        chosen = listed + chosen[1:max_sentences]
    if not by_title:  # the titled articles answer whole: no reference is followed out of them
        chosen += followed_quotes(hits, chosen, weights, profile.lang, every_hop=more)
    sentences = [Sentence(q.text, [q.label], quote=True) for q in chosen]
    return Answer("answered", sentences=sentences, question=query.text, hits=hits, lang=profile.lang,
                  listed=max(0, len(listed) - 1))


def _ranked(reach: list, weights: dict[str, float], lang: str, period: bool) -> list:
    """(strength, coverage, quote) of each provision's best piece, named provisions first, then by strength."""
    ranked = []
    for rank, hit in enumerate(reach):
        pieces = quotes(hit.provision, rank)
        if hit.exact and len(hit.provision.text) <= (GOVERNING_QUOTE_CHARS if rank == 0 else WHOLE_QUOTE_CHARS):
            pieces = [Quote(hit.provision.label, joined(strip_number(hit.provision.text)), hit.provision, rank)]
        scored = [(_coverage(q, weights, lang), _fit(q, period), q) for q in pieces]
        if scored:
            coverage, fit, best = max(scored, key=lambda item: (0.3 + item[0]) * item[1])
            strength = (1.0 if hit.exact else 1 / (1 + 0.35 * rank)) * (0.3 + coverage) * fit
            ranked.append((strength, coverage, replace(best, provision_named=hit.exact)))
    ranked.sort(key=lambda item: (not item[2].provision_named, -item[0]))  # named provisions first
    return ranked


def _ranked_lead(ranked: list, asked: frozenset[int] = frozenset()) -> list:
    """`ranked` led by the best-ranked hit whose quote shares a question term, or whose written questions do (its rank
    in `asked`): the ranker chooses the provision, the quote only its sentence."""
    lead = min((item for item in ranked if item[1] > 0 or item[2].rank in asked), key=lambda item: item[2].rank,
               default=ranked[0])
    return [lead, *(item for item in ranked if item is not lead)]


def _asked_for(reach: list, query: Query) -> frozenset[int]:
    """The ranks of the hits whose written questions (retrieve.questions) share a term with the question. A plain-words
    question may share no word with the provision it asks about ('Can I get wrong information about me corrected?' and
    Article 16's 'rectification of inaccurate personal data') but many with the questions written for it, which is how
    the ranker put it first; without them, the lead went to a lower hit that shared a word by chance."""
    wanted = frozenset(query.terms)
    return frozenset(rank for rank, hit in enumerate(reach) if wanted & getattr(hit, "asked_words", frozenset()))


def asks_more(query: Query) -> bool:
    """Whether a question may need more than one article: it asks two things ('…, and what fine
    applies?'), or it is long enough to tell a situation. A short question of one ask is answered
    from its lead's article: on the dev splits, 0.05 of the other articles such answers quoted, and
    0.09 of the references they followed, were provisions that govern the question."""
    return query.parts > 1 or len(query.tokens) > LONG_QUESTION


def _composed(ranked: list, weights: dict[str, float], lang: str, max_sentences: int,
              other_articles: bool = True, first_on_strength: bool = False) -> list[Quote]:
    """The quotes of an answer, lead first (`ranked[0]`); then a further provision only when it matches nearly as
    well as the strongest quote and answers a part of the question the quotes before it do not (question terms of its
    own), never to fill the cap; with `first_on_strength`, the first paragraph of the lead's article needs no part of
    its own. Another article is quoted only when the question may need one (`asks_more`)."""
    held = [_covers(q, weights, lang) for _, _, q in ranked]
    lead = ranked[0][2]
    chosen, covered = [lead], set(held[0])
    best = max(strength for strength, _, _ in ranked)
    for (strength, _, quote), own in zip(ranked[1:], held[1:], strict=True):
        if len(chosen) >= max_sentences or strength < SECOND_QUOTE * best:
            continue
        sibling = article_of(quote.label) == article_of(lead.label)
        if not sibling and not other_articles:
            continue
        # Its own part: a question term no quote before it holds. A minimum share of the question's idf
        # weight (0.05–0.3) moved dev citation precision by under 0.02 against this, in both directions. With written
        # questions, the first paragraph of the lead's article needs one too: kept on its strength alone, it governed 6
        # of the 31 dev first questions that quoted it after a sibling lead (other siblings, counted earlier: 11 in 93).
        if (first_on_strength and sibling and _first_paragraph(quote.label)) or own - covered:
            chosen.append(quote)
            covered |= own
    return chosen


def _first_paragraph(label: str) -> bool:
    """An article's first paragraph, or a point of it ('Article 37(1)(a)'); not an annex's items, which are
    a list's entries, none of them its rule."""
    try:
        return parse_label(label).paragraph == "1"
    except CitationError:  # a label of another shape (a page, a rule id): no paragraphs to tell apart
        return False


def _covers(quote: Quote, weights: dict[str, float], lang: str) -> set[str]:
    found = token_set(quote.text, lang)  # not the title: siblings share it, and it says no part of the answer
    return {t for t in weights if t in found}


MIN_LIST_POINTS = 2


def _listed(lead: Quote) -> list[Quote]:
    """The lead's provision as a list: its lead-in with the first point, then each further point
    alone, each cited at its point; [] when the provision has no list (or is a rule, whose points
    are not cited apart)."""
    provision = lead.provision
    paths = top_points(provision.text) if provision.kind not in ("definition", "rule") else []
    if len(paths) < MIN_LIST_POINTS:
        return []
    blocks = [(path, block) for path in paths if (block := point_text(provision.text, path)) is not None]
    if len(blocks) < len(paths):
        return []
    lead_in = joined(strip_number(_lead_in(provision.text)))
    out = []
    for number, (path, block) in enumerate(blocks):
        text = joined(strip_number(block)) if number == 0 else joined(block)
        if number and lead_in and text.startswith(lead_in):
            text = text[len(lead_in):].strip()
        out.append(Quote(point_label(provision.label, path), text, provision, lead.rank))
    return out


def _lead_in(text: str) -> str:
    """The lines before a provision's first point."""
    lines = point_lines(text)
    first = next((i for i, (_, marker, _) in enumerate(lines) if marker is not None), len(lines))
    return "\n".join(line for _, _, line in lines[:first])


# How a provision states a period without a number of days; the units a period is counted in.
_PERIOD_WORDS = languages.cue("period_words", "QUOTES")
_TIME_UNITS = frozenset(languages.names("QUANTITY_UNITS")) - {"percent", "eur"}
PERIOD_MISS = 0.5  # a quote that states no period answers a question for one this much less (chosen on dev)


def _fit(quote: Quote, period: bool) -> float:
    """How well a quote can hold what the question asks for: a question for a period is
    answered by a quote that states one ('72 hours', 'without undue delay')."""
    if not period:
        return 1.0
    states = _PERIOD_WORDS.search(quote.text) or any(unit in _TIME_UNITS for _, unit in quantities(quote.text))
    return 1.0 if states else PERIOD_MISS


def followed_quotes(hits: list, chosen: list[Quote], weights: dict[str, float], lang: str, *,
                    every_hop: bool = True) -> list[Quote]:
    """One more quote per reference retrieval followed (`Hit.via`) whose one end is quoted: the
    other end, so that the answer cites both (the duty and its fine; a quoted annex and the article
    its title names; a quoted rule and the definition of its term). These go beyond the cap.
    Without `every_hop` (a short question of one ask), only what the question asks for and the duty's
    own article never holds is followed: the fine for it, the date it applies from."""
    by_label = {h.provision.label: h for h in distinct(hits)}
    quoted = {q.provision.id for q in chosen}
    added: list[Quote] = []
    for rank, hit in enumerate(distinct(hits)):
        source = by_label.get(hit.via) if hit.via else None
        if source is None or (hit.provision.id in quoted) == (source.provision.id in quoted):
            continue  # both ends quoted already, or neither: the answer is not about this pair
        if hit.via_hop == "term" and hit.provision.id in quoted:
            continue  # a quoted definition needs no rule that uses its term
        if hit.via_hop == "gateway" and hit.provision.id in quoted:
            continue  # the article names its annex itself; only a quoted annex needs its article
        if not every_hop and hit.via_hop not in ("date", "penalty"):
            continue
        other = source if hit.provision.id in quoted else hit
        pieces = quotes(other.provision, rank)
        naming = [q for q in pieces if hit.via_words and hit.via_words in joined(q.text)]
        best = max(naming or pieces, key=lambda q: _coverage(q, weights, lang))
        added.append(best)
        quoted.add(other.provision.id)
    return added


# An exception that reverses the rule it follows ('Point (f) … shall not apply', 'By way of
# derogation from paragraph 1', 'However, …').
_REVERSES = languages.cue("reverses", "QUOTES")
# The words of a sibling paragraph that sets the quoted one aside, and of a sentence naming the quoted point.
_PARAGRAPH_WORDS, _LIST_WORDS, _NOT_APPLY, _DEROGATION_FROM, _POINT_WORDS, _POINT_LIST_WORDS = (
    languages.cue(name, "QUOTES").pattern
    for name in ("paragraph_words", "list_words", "not_apply", "derogation_from", "point_words", "point_list_words"))


def qualifiers(quote: Quote, hits: list) -> list[Quote]:
    """What governs a quote and must be quoted with it: a sentence of its provision that names
    its point ('Point (f) of the first subparagraph shall not apply to … public authorities'), or,
    for a quoted sentence, one that reverses it; and a retrieved paragraph of the same article
    that sets its paragraph aside ('Paragraph 1 shall not apply where …')."""
    provision = quote.provision
    try:
        label = parse_label(quote.label)
    except CitationError:  # a label of another shape (a page, a rule id): nothing to govern it
        return []
    point = label.points[0] if label.points else None
    out = []
    for sentence in _whole_sentences(provision.text):
        if sentence in quote.text:
            continue
        if (point and _names_point(sentence, point)) or (not point and _REVERSES.search(sentence)):
            out.append(Quote(provision.label, sentence, provision, quote.rank))
    if label.paragraph:
        number = re.escape(str(label.paragraph))
        aside = re.compile(rf"^(?:{_PARAGRAPH_WORDS})\s+(?:\d+\s*(?:,|{_LIST_WORDS})\s*)*{number}\b.*\b(?:{_NOT_APPLY})|"
                           rf"^(?:{_DEROGATION_FROM}) {number}\b", re.I)
        for hit in distinct(hits)[:QUOTE_HITS]:
            if hit.provision.id != provision.id and _same_article(hit.provision.label, label):
                out += _aside(hit.provision, aside, quote.rank)
    return out


def _aside(other: Provision, aside: re.Pattern, rank: int) -> list[Quote]:
    """The sentences of a paragraph that set the quoted one aside; when its cases are listed as
    points ('Paragraph 1 shall not apply if the decision: (a) …'), the paragraph whole when short."""
    found = [Quote(other.label, s, other, rank) for s in _whole_sentences(other.text) if aside.search(s)]
    lead = strip_number(other.text.splitlines()[0]) if other.text else ""
    if not found and aside.search(lead) and len(other.text) <= WHOLE_QUOTE_CHARS:
        found = [Quote(other.label, joined(strip_number(other.text)), other, rank)]
    return found


def _same_article(other: str, label) -> bool:
    try:
        parsed = parse_label(other)
    except CitationError:
        return False
    return (parsed.kind, parsed.number) == (label.kind, label.number)


def _names_point(sentence: str, point: str) -> bool:
    return bool(re.search(rf"\b(?:{_POINT_WORDS})\s+(?:\(?[a-z]+\)\s*(?:,|{_POINT_LIST_WORDS})\s*)*"
                          rf"\(?{re.escape(point)}\)", sentence, re.IGNORECASE))


def _term_weights(query: Query, profile: Profile) -> dict[str, float]:
    """idf weight of each question term; the provisions the question names are left out (a
    quote is about 'erasure', not about the words 'Article 17(1)')."""
    rarest = max(profile.idf.values(), default=1.0)
    return {t: profile.idf.get(t, rarest) for t in set(query.terms)}


def _coverage(quote: Quote, weights: dict[str, float], lang: str) -> float:
    """The idf-weighted share of the question's terms in the quote (or its provision's title)."""
    if not weights:
        return 0.0
    found = token_set(f"{quote.provision.title}\n{quote.text}", lang)
    return sum(w for t, w in weights.items() if t in found) / sum(weights.values())
