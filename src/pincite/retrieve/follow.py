"""One hop along the reference graph, when the question asks for what lives elsewhere.

A statute points rather than repeats: the duty to designate a data protection officer is in
GDPR Article 37, its fine only in Article 83(4), which cites "Articles 25 to 39". When the
question asks for such a thing (`Query.hops`: a penalty, an exception, a remedy, a time limit, a
definition, an annex, a date), pincite looks for the best pair of provisions one reference apart, either way: one of
the kind asked for, matching the question (every penalty provision proper matches a question for a
fine), and the other matching the rest of the question (`Query.rest`: "not appointing a DPO"). The pair is ranked right after the best hit, its second
end marked with `via` (the answer then quotes both ends).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from weakref import WeakKeyDictionary

from pincite import languages
from pincite.citations.grammar import find_citations
from pincite.provisions import Provision
from pincite.retrieve.graph import Graph, article_of
from pincite.retrieve.hits import Hit
from pincite.retrieve.query import Query

KIND_DEPTH = 20  # provisions of the kind asked for, best first, whose references are followed
PAIR_FLOOR = 0.7  # a pair is followed when its two shares of the best scores add up to this (dev: 0.9 → 0.7
# reached the PDPA fines of a duty ranked fourth, the penalty sections all scoring low; 0.6 adds nothing)
# Pairs followed for each kind asked for, at most: a duty may have several penalties, a rule several
# exceptions. One for an annex or a definition: many provisions cite one annex point or use one
# term, and further pairs only push the rest of the hits down (on dev, an AI Act question lost its
# gold from the quoted four to a second annex pair).
PAIRS = 3
# A further pair (to the same provision) is followed when it scores this share of the best pair. Dev
# (2026-12-04): 0.9 → 0.75 followed a GDPR complaint to both Article 77(1) and 77(2), one more
# multi-hop question with every gold provision in the top 10 and cited, and one more gdpr-en answer
# right; 0.7 and 0.8 the same, 0.85 neither, 0.6 lost a Data Act answer.
PAIR_SHARE = 0.75
# What a provision of each kind says, in its text or title (English, Italian, French, Thai).
_PENALTY = languages.cue("penalty", "KINDS")
_EXCEPTION = languages.cue("exception", "KINDS")
# A penalty punishes the breach of a duty: on the other end, a provision saying what someone shall
# (must) do weighs more than one saying what they may do. Languages whose duties have no such
# word (Italian writes them in the present tense) get no preference.
_DUTY = languages.compiled("duty_word", "KINDS", 0)
# The article an annex's title names ('High-risk AI systems referred to in Article 6(2)', 'Technical
# documentation referred to in Article 11(1)') gives the list its force: as the annex point's other end
# it counts as the best match of the rest of the question (dev, multi-hop: 0.5 and 0.8 reached it for
# the two Italian high-risk questions, 1.0 also for Annex IV's; the single-hop dev sets no worse).
GATEWAY_SHARE = 1.0
TEXT_ONLY = 0.6  # the weight of a provision of the kind asked for whose titles do not say so
# A question's 'and what fine could we face?' is a few words of a long scenario, so the penalty
# articles themselves seldom score among the question's best (on dev, AI Act Article 99(4) ranked 289th
# for a warehouse deployer's question). Every penalty provision proper (its own title, or the nearest
# title above it, says so: 'Penalties', 'Administrative fines', PDPA 'โทษทางปกครอง') is therefore a
# candidate end, matching the question's ask at least this well; which one is followed is then decided
# by the duty it names matching the rest of the question. Penalties only: for a remedy (where 'complain'
# is also a duty's word) it cost two single-hop GDPR answers on dev. Dev, multi-hop: 0.5 and 0.7 reached
# one more question's every gold provision, 0.85 and 1.0 two (and one more answer citing them all);
# the single-hop dev sets unchanged at 0.85 but for one PDPA rank (2 → 3).
PENALTY_OWN = 0.85
INHERIT = 0.9  # the share of its best part's match the first part of a whole-article reference takes
NOT_A_DUTY = 0.5  # the weight of the rest-of-question match of a provision without a duty word
# With e5 neither moves a dev figure when switched off (docs/retrieval.md); with MiniLM a fine's range
# reference ('Articles 25 to 39') reaches the duty to designate, Article 37(1), and not 37(2)'s 'may
# appoint', only through them (tests/test_graph.py), so both stay.
_REMEDY = languages.cue("remedy", "KINDS")
# A time limit stated in the text: 'within one month', 'without undue delay', 'not later than 15 days'.
_DEADLINE = languages.cue("deadline", "KINDS")
_DATE = languages.cue("date", "KINDS")


# When the act as a whole starts to apply: 'This Regulation shall enter into force …' names every
# provision at once, so the article (or section) saying so reaches each provision that no
# narrower date names. English, Italian, French, Thai.
_WHOLE_ACT = languages.cue("whole_act", "KINDS")
# Hops whose other end is of another kind (a fine's duty is no fine); an exception's rule or a
# remedy's procedure may read like an exception or a remedy itself.
_OTHER_KIND = ("penalty", "date", "annex", "definition")


_KIND_WORDS = {"penalty": _PENALTY, "exception": _EXCEPTION, "date": _DATE, "remedy": _REMEDY, "deadline": _DEADLINE}
# Kinds no title names: a provision states a time limit in its text ('Modalities for the exercise of
# the rights' holds the month to answer a request), so its text is what makes it of the kind.
_UNTITLED_KINDS = ("deadline",)


def of_kind(hop: str, p: Provision) -> bool:
    """Whether `p` is a provision of the kind a question asks for."""
    if p.kind == "recital":
        return False
    if hop in _KIND_WORDS:
        return _says(hop, p.title, p.text)
    if hop == "annex":
        return p.kind == "annex" or p.label.startswith("Annex")
    return hop == "definition" and p.kind == "definition"


@lru_cache(maxsize=65536)
def _says(hop: str, title: str, text: str) -> bool:
    """Cached: every question with a hop reads the kind of each of its candidates."""
    return bool(_KIND_WORDS[hop].search(f"{title}\n{text}"))


def kind_weight(hop: str, p: Provision) -> float:
    """1 when the title of the provision, or of its chapter or section, says it is of the kind
    ('Penalties', 'Restrictions', 'Entry into force and application'); less when only its text does
    (a procedure article that mentions fines is not where the fines are)."""
    words = _KIND_WORDS.get(hop)
    if words is None or hop in _UNTITLED_KINDS or _titles_say(hop, " ".join([p.title, *p.path_titles])):
        return 1.0
    return TEXT_ONLY


@lru_cache(maxsize=65536)
def _titles_say(hop: str, titles: str) -> bool:
    """Cached: a question's pairs read the titles of every provision one reference away."""
    return bool(_KIND_WORDS[hop].search(titles))


def follow(query: Query, hits: list[Hit], graph: Graph, by_id: dict[str, Provision],
           scores: dict[str, float], rest: dict[str, float]) -> list[Hit]:
    """`hits` with the best linked pairs for each kind the question asks for placed after the
    first hit (the best pair first); unchanged when no pair scores PAIR_FLOOR. Pairs close to
    the best that lead to the same provision are followed too: a duty may have several fines (or a
    rule several exceptions), and the best is often a near miss (the processor's fine, not the
    controller's, for the same duty)."""
    if not hits or not scores:
        return hits
    pairs = []
    for hop in query.hops:
        if hop in _UNTITLED_KINDS and of_kind(hop, hits[0].provision):
            continue  # the best hit states a time limit itself: nothing to look for elsewhere
        ranked = sorted(_pairs(query, hop, graph, by_id, scores, rest), reverse=True)
        if ranked and ranked[0][0] >= PAIR_FLOOR:
            best = ranked[0]
            close = [p for p in ranked if p[0] >= PAIR_SHARE * best[0] and p[3] == best[3]]
            pairs += _distinct(close)[:PAIRS if hop in _KIND_WORDS else 1]
    for pair in sorted(pairs, reverse=True)[::-1]:  # the best pair placed last, so it ends up first
        hits = _place(hits, pair[1:], by_id, scores)
    return hits


def _pairs(query: Query, hop: str, graph: Graph, by_id: dict[str, Provision],
           scores: dict[str, float], rest: dict[str, float]) -> list[tuple]:
    """(score, hop, a, b, words) of every pair: `a` of the kind asked for, `b` one reference away."""
    top, top_rest = max(scores.values()) or 1.0, max(rest.values(), default=0.0) or 1.0
    kinds = _kind_ids(hop, graph)
    kind = sorted((pid for pid in scores if pid in kinds), key=lambda pid: -scores[pid])[:KIND_DEPTH]
    proper = _penalty_proper(graph) if hop == "penalty" else frozenset()
    kind += [pid for pid in sorted(proper) if pid in scores and pid not in kind]
    whole_act = hop == "date" and query.asks_from_when
    if whole_act:  # when the act applies is the answer for any provision, however it scores
        kind += [pid for pid in sorted(_act_dates(graph)) if pid in scores and pid not in kind]
    out = []
    for a in kind:
        own = scores[a] / top * kind_weight(hop, by_id[a])
        if a in proper:
            own = max(own, PENALTY_OWN)
        for b, words, named in _links(hop, a, graph, by_id, whole_act):
            # Most provisions one reference away do not match the rest of the question at all
            # (`rest` holds its best few): their share is 0, whatever their weight.
            matched = rest.get(b)
            direct = matched * _weight(hop, by_id[b], query.lang) if matched else 0.0
            # A reference to a whole article names the article: its first part (the edge's
            # own target) stands for it, with nearly the match of its best part.
            inherited = INHERIT * max(rest.get(x, 0.0) for x in named) if named else 0.0
            share = max(direct, inherited) / top_rest
            if hop == "annex" and _gateway(by_id[a], words):
                share = max(share, GATEWAY_SHARE)
            out.append((own + share, hop, a, b, words))
    return out


# Per graph, held no longer than the graph: what every question with a hop would otherwise read
# again from each provision (its kind, its links), ~5 ms of a 20 ms search on two cores.
_KINDS: WeakKeyDictionary[Graph, dict[str, frozenset[str]]] = WeakKeyDictionary()
_LINKS: WeakKeyDictionary[Graph, dict[tuple[str, str, bool], list[tuple[str, str, list[str]]]]] = WeakKeyDictionary()


def _kind_ids(hop: str, graph: Graph) -> frozenset[str]:
    """The ids of the provisions of the kind a hop asks for (`of_kind`)."""
    kinds = _KINDS.setdefault(graph, {})
    if hop not in kinds:
        kinds[hop] = frozenset(p.id for p in graph.provisions if of_kind(hop, p))
    return kinds[hop]


_PROPER: WeakKeyDictionary[Graph, frozenset[str]] = WeakKeyDictionary()


def _penalty_proper(graph: Graph) -> frozenset[str]:
    """The ids of the penalty provisions proper: of the penalty kind, and titled so by their own title or,
    untitled, by the nearest title above them (a PDPA section under 'โทษทางปกครอง'). Not the rest of
    a chapter whose title lists penalties among other things ('Remedies, liability and penalties')."""
    if graph not in _PROPER:
        _PROPER[graph] = frozenset(p.id for p in graph.provisions if p.id in _kind_ids("penalty", graph)
                                   and _titles_say("penalty", p.title or (p.path_titles[-1] if p.path_titles else "")))
    return _PROPER[graph]


# An exception read without its rule misleads ('Paragraph 1 shall not apply if …' says nothing of
# what paragraph 1 forbids), so a best hit that sets aside another paragraph of its article brings
# that paragraph along, asked for or not. English, Italian, French.
RULE_DEPTH = 2  # the best hits whose set-aside paragraph is brought along
_SETS_ASIDE = f"(?:{languages.cue('sets_aside', 'KINDS').pattern})"
_DEROGATES = f"(?:{languages.cue('derogates', 'KINDS').pattern})"


def with_rules(hits: list[Hit], graph: Graph, by_id: dict[str, Provision], k: int) -> list[Hit]:
    """`hits` with the paragraph each of the first RULE_DEPTH hits sets aside ('Paragraph 1 shall
    not apply if', 'By way of derogation from paragraph 2') placed right after it, marked `via` it,
    when it is not in the first `k` already."""
    for hit in list(hits[:RULE_DEPTH]):
        rule = _set_aside(hit.provision, graph, by_id)
        if rule is None or any(h.provision.id == rule for h in hits[:k]):
            continue
        found = next((h for h in hits if h.provision.id == rule), None) or Hit(by_id[rule], 0.0)
        at = hits.index(hit) + 1
        why = f"follows {hit.provision.label} (exception)"
        added = replace(found, via=hit.provision.label, via_words="", via_hop="exception", why=[*found.why, why])
        hits = hits[:at] + [added] + [h for h in hits[at:] if h.provision.id != rule]
    return hits


def with_gateways(hits: list[Hit], graph: Graph, k: int) -> list[Hit]:
    """`hits` with each annex among the first `k` tied to the article its title names ('Criteria …
    referred to in Article 51', 'di cui all'articolo 6, paragrafo 2'), when a part of that article
    is among them too: that hit is marked `via` the annex (hop "gateway"), so an answer quoting the
    annex quotes the article too (a list has no force without the article that points to it).
    Nothing moves; a hit reached another way keeps its `via`, and an article is tied to one annex only."""
    hits = list(hits)
    for annex in [h.provision for h in hits[:k] if not h.via and of_kind("annex", h.provision)]:
        for article, paragraph in _titled_articles(annex.title, annex.lang)[:1]:
            at = next((i for i, h in enumerate(hits[:k]) if not h.via and graph.article(h.provision.id) == article
                       and paragraph in (None, h.provision.label)), None)
            if at is not None:
                gateway = hits[at]
                hits[at] = replace(gateway, via=annex.label, via_words=_naming(gateway.provision, annex),
                                   via_hop="gateway", why=[*gateway.why, f"named by the title of {annex.label}"])
    return hits


# A term a quarter or more of the act's provisions use (controller, personal data, AI system, provider) is
# the act's own vocabulary: its definition tells the reader nothing the quoted rule does not. Chosen on
# the dev splits (multi-hop with the fifth batch, and the seven single-hop sets): without this bound a
# definition was added to 30 of 297 single-hop dev answers, Article 3(1) 'AI system' among them; with
# it 23, each defining a word of the question's subject ('pseudonymisation', 'recommender system').
TERM_USERS_SHARE = 0.25


def with_terms(hits: list[Hit], graph: Graph, k: int) -> list[Hit]:
    """`hits` with the best-ranked definition among the first `k` tied to the first of them that uses its
    term: that definition is marked `via` the rule (hop "term"), so an answer quoting the rule quotes
    what its term means ('substantial modification' for the provider's new conformity assessment,
    'publicly accessible space' for the ban on real-time identification in one). Nothing moves; one
    definition at most, not of a term the act uses everywhere (TERM_USERS_SHARE), and none for a hit
    reached another way. A question need not ask what a word means: whether a retrained system was
    'substantially modified' decides the answer either way."""
    common = _common_terms(graph)
    for at, hit in enumerate(hits[:k]):
        if hit.via or hit.provision.kind != "definition" or hit.provision.id in common:
            continue
        users = dict(graph.users(hit.provision.id))
        rule = next((h for h in hits[:k] if h.provision.id in users and not h.via), None)
        if rule is not None:
            hits = list(hits)
            hits[at] = replace(hit, via=rule.provision.label, via_words=users[rule.provision.id], via_hop="term",
                               why=[*hit.why, f"defines a term {rule.provision.label} uses"])
            return hits
    return hits


_COMMON: WeakKeyDictionary[Graph, frozenset[str]] = WeakKeyDictionary()


def _common_terms(graph: Graph) -> frozenset[str]:
    """The ids of the definitions whose term more than TERM_USERS_SHARE of the act's rules use. Per
    graph: every search would otherwise count the act's provisions again."""
    if graph not in _COMMON:
        rules = sum(1 for p in graph.provisions if p.kind not in ("recital", "definition")) or 1
        _COMMON[graph] = frozenset(pid for _, pid in graph.definitions if len(graph.users(pid)) > TERM_USERS_SHARE * rules)
    return _COMMON[graph]


@lru_cache(maxsize=4096)
def _titled_articles(title: str, lang: str) -> tuple[tuple[str, str | None], ...]:
    """(article, paragraph or None) of each article of this act a title names, in order. Cached: every
    search reads the titles of the annexes it found."""
    return tuple((f"Article {c.number}", f"Article {c.number}({c.paragraph})" if c.paragraph else None)
                 for _, _, c in find_citations(title or "", lang) if c.kind == "article" and not c.document)


def _naming(p: Provision, annex: Provision) -> str:
    """The words of `p` that name the annex ('the criteria set out in Annex XIII' → 'Annex XIII'), or ''."""
    number = article_of(annex.label).removeprefix("Annex ").strip()
    for start, end, c in find_citations(p.text, p.lang):
        if c.kind == "annex" and c.number == number:
            return p.text[start:end]
    return ""


def _set_aside(p: Provision, graph: Graph, by_id: dict[str, Provision]) -> str | None:
    """The id of the paragraph of its own article that `p` opens by setting aside, if any."""
    if p.kind == "recital":
        return None
    head = p.text[:300]
    for e in graph.cites(p.id):
        target = by_id.get(e.target) if e.target else None
        if target is None or target.id == p.id or graph.article(target.id) != graph.article(p.id):
            continue
        words = re.escape(e.words)
        if re.search(rf"{words}[^.;:]{{0,80}}\b{_SETS_ASIDE}|{_DEROGATES}\s+{words}", head, re.I):
            return target.id
    return None


# Per graph, held no longer than the graph: a rebuilt index drops its old one.
_ACT_DATES: WeakKeyDictionary[Graph, frozenset[str]] = WeakKeyDictionary()


def _act_dates(graph: Graph) -> frozenset[str]:
    """The provisions that say when the whole act applies: of the date kind, in an article (or
    section) whose text says the act enters into force ('It shall apply from 25 May 2018' in
    GDPR Article 99(2), after 99(1) 'This Regulation shall enter into force')."""
    if graph not in _ACT_DATES:
        _ACT_DATES[graph] = frozenset(p.id for p in graph.provisions if p.kind != "recital" and of_kind("date", p)
                                      and _WHOLE_ACT.search(graph.article_text(p.id)))
    return _ACT_DATES[graph]


def _gateway(annex: Provision, words: str) -> bool:
    """Whether the reference is the one the annex's title makes ('High-risk AI systems referred to in
    Article 6(2)'): the article that gives the list its force."""
    return bool(words) and words in annex.title


def _distinct(ranked: list[tuple]) -> list[tuple]:
    """The pairs best first, each bringing a provision no better pair brought."""
    seen: set[str] = set()
    out = []
    for pair in ranked:
        if not {pair[2], pair[3]} <= seen:
            out.append(pair)
            seen |= {pair[2], pair[3]}
    return out


def _weight(hop: str, b: Provision, lang: str) -> float:
    duty = _DUTY.get(lang)
    return NOT_A_DUTY if hop == "penalty" and duty is not None and not duty.search(b.text) else 1.0


def titled(hop: str, p: Provision) -> bool:
    """Whether `p` is of the kind by what it is, not by a mention: a prohibition that names an
    offence 'punishable by' a sentence is still the duty a fine punishes."""
    return of_kind(hop, p) and (hop not in _KIND_WORDS or kind_weight(hop, p) == 1.0)


def _links(hop: str, a: str, graph: Graph, by_id: dict[str, Provision],
           whole_act: bool = False) -> list[tuple[str, str, list[str]]]:
    """(id, referencing words, the parts it stands for) of the provisions one reference from `a`
    (not of its kind, for the hops in _OTHER_KIND); for a definition, the provisions that use its term. The first part
    of an article a reference names as a whole stands for all its parts. With `whole_act` (the question
    asks from when a rule applies), the provision saying when the whole act applies reaches every one.
    `by_id` holds the graph's provisions; the answer is kept with the graph (not to be changed)."""
    links = _LINKS.setdefault(graph, {})
    key = (hop, a, whole_act)
    if key not in links:
        links[key] = _read_links(hop, a, graph, by_id, whole_act)
    return links[key]


def _read_links(hop: str, a: str, graph: Graph, by_id: dict[str, Provision],
                whole_act: bool) -> list[tuple[str, str, list[str]]]:
    if hop == "definition":
        return [(b, term, []) for b, term in graph.users(a)]
    if whole_act and a in _act_dates(graph):
        words = _WHOLE_ACT.search(by_id[a].text) or _WHOLE_ACT.search(graph.article_text(a))
        return [(b, words.group() if words else "", []) for b, p in by_id.items()
                if b != a and p.kind != "recital" and not titled(hop, p)]
    linked = [(b, e) for b, e in graph.neighbours(a) if b in by_id and b != a and by_id[b].kind != "recital"
              and not (hop in _OTHER_KIND and titled(hop, by_id[b]))]
    parts: dict[int, list[str]] = {}
    for b, e in linked:
        parts.setdefault(id(e), []).append(b)
    return [(b, e.words, parts[id(e)] if b == e.target and len(parts[id(e)]) > 1 else []) for b, e in linked]


def _place(hits: list[Hit], pair: tuple, by_id: dict[str, Provision], scores: dict[str, float]) -> list[Hit]:
    """The first hit, then both ends of the pair (the second marked `via` the first), then the rest."""
    hop, a, b, words = pair
    found = {h.provision.id: h for h in hits}
    ends = [found.get(pid) or Hit(by_id[pid], scores.get(pid, 0.0)) for pid in (a, b)]
    ends.sort(key=lambda h: hits.index(h) if h in hits else len(hits))
    first, second = ends
    why = f"follows {first.provision.label} ({hop})"
    second = replace(second, via=first.provision.label, via_words=words, via_hop=hop, why=[*second.why, why])
    head = [h for h in hits[:1] if h.provision.id not in (a, b)]
    out = head + [first, second]
    return out + [h for h in hits if h.provision.id not in {x.provision.id for x in out}]
