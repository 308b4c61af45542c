"""Danish: what pincite knows of the language (pincite.languages): so far the words of an instruction to its reader."""

from pincite.languages.injection import ASIDE, InjectionWords, alt

# What an instruction to its reader looks like (verify.untrusted): regex alternations by what the
# words do (InjectionWords says what each field holds).
_MODEL_DA = r"AI(?:-(?:assistent\w*|model\w*|chatbot\w*|sprogmodel\w*))?|kunstig\s+intelligens|assistent(?:en|er|erne)?|chatbot(?:ten|s)?|bot(?:ten)?|sprogmodel(?:len|ler)?|model(?:len|ler)?|LLM|GPT|ChatGPT|Claude"

INJECTION = InjectionWords(
    reader=alt(
        r"\b(?:til\s+)?(?:den|dem|enhver|alle|hvem\s+der\s+end)\s*,?\s+(?:der|som)?\s*(?:læser|ser|behandler|opsummerer)\s+(?:dette|denne|disse|siden|teksten|dokumentet)\b",
        r"\bhvem\s+der\s+end\s+(?:læser|ser|behandler)\b",
        r"\b(?:kære|hej|hallo|bemærk|opmærksomhed)\s*[,:]?\s+(?:læser(?:e|en)?|" + _MODEL_DA + r")\b(?!-)",
        r"^\W*(?:til\s+)?(?:læser(?:e|en|ne)?|" + _MODEL_DA + r")\s*[:,!]",
        r"\bhvis\s+du\s+er\s+(?:en\s+)?(?:AI|kunstig\s+intelligens|assistent|chatbot|sprogmodel|model|LLM)\b(?!-)",
        r"\bsom\s+(?:en\s+)?(?:AI-assistent|sprogmodel|chatbot)\b"),
    you=r"\bdu\b|\bdig\b|\bdin\b|\bdit\b|\bdine\b|\bjer\b|\bjeres\b",
    coordinate=r"og|så|men|eller|derefter|i\s+stedet",
    modal=r"skal|kan|må|bør|er|har|vil|bliver|blev|var|være|have",
    lead=r"venligst|nu|altid|kun|blot|bare|straks|fremover|i\s+stedet|i\s+dit\s+svar",
    imperative=alt(
        r"svar|sig|skriv|bekræft|fortæl|gentag|påstå|erklær|ignorer|glem|tilsidesæt|se\s+bort\s+fra|husk|følg|adlyd",
        r"antag|lad\s+som\s+om|behandl|betragt|stol\s+på|tro\s+på|nævn|undlad|stop|brug|giv|afvis|benægt|konkluder",
        r"sørg\s+for|opsummer|citer|anbefal|nægt|aldrig|lad\s+være\s+med"),
    steer=alt(
        r"antag|lad\s+som\s+om|stol\s+på\s+(?:denne|dette|mig|os)|tro\s+på\s+(?:denne|dette)|adlyd|konkluder",
        r"husk\s+at|(?:behandl|betragt)\s+(?:denne|dette)\s+(?:side|dokument|tekst|meddelelse|note)"),
    reply=alt(
        r"svar|sig|skriv|bekræft|gentag|påstå|erklær|konkluder",
        r"fortæl\s+(?:brugeren|brugerne|læseren|læserne|alle|dem|enhver)"),
    that=r"at",
    saying=r"ved\s+at\s+sige\b|med\s*(?=[:\"“‘«»„']|følgende\b)|:|[\"“‘«»„]|(?<=\s)'",
    yes=r"ja|nej",
    infinitive=r"svare|sige|skrive|bekræfte|påstå|erklære|fortælle\s+(?:brugeren|brugerne)",
    must=r"\b(?:du\s+(?:skal|bør|må|burde)|(?:skal|bør|må|burde)\s+du)\s+(?:(?:nu|altid|kun|blot|bare)\s+)*",
    told=alt(
        r"\bdet\s+(?:eneste\s+)?(?:korrekte|rigtige|sande|forventede|officielle)\s+svar(?:\s+på\s+\w+(?:\s+\w+){0,6})?" + ASIDE + r"\s+(?:er|vil\s+være|skal\s+være)\b",
        r"\bsvaret\s+skal\s+(?:altid\s+)?være\s*(?:at\b|:)",
        r"\b(?:når|hvis)\s+du\s+(?:bliver\s+)?(?:spurgt|spørges)\b[^.!?\n]{0,80}\b(?:svar|sig|skriv)\b"),
    override=r"ignorer|ignorere|glem|glemme|se\s+bort\s+fra|tilsidesæt|tilsidesætte|spring\s+over|lad\s+være\s+med\s+at\s+følge|følg\s+ikke",
    det=r"de|alle|dine|din|dit|jeres|disse|tidligere|foregående|ovenstående|al|enhver|gamle|sædvanlige|dens|hans",
    earlier=r"instrukser(?:ne)?|instruks(?:en)?|instruktion(?:en|er|erne)?|anvisning(?:en|er|erne)?|regl(?:er|erne)|regel(?:en)?|prompt(?:en)?|retningslinjer(?:ne)?|alt\s+(?:det\s+)?ovenstående",
    claim=alt(
        r"\bnye\s+(?:instrukser|instruktioner|anvisninger|direktiver)\b(?!\s+(?:om|for)\s+brug\b)",
        r"\bsystem(?:besked|meddelelse|prompt|instruks(?:er)?|instruktion(?:er)?|note)\b",
        r"\b(?:note|besked|meddelelse|instruks(?:er)?|instruktion(?:er)?|påmindelse|advarsel|bemærkning)\s+(?:til|for)\s+(?:" + _MODEL_DA + r")\b(?!-)"),
)

# corpus.formats.eurlex: the word a section heading inside an annex opens with
# ('Afsnit A'), the title of a definitions article.
EURLEX = {
    "annex_section": r"afsnit",
    "definitions_title": "definitioner",  # a definitions article's title, lower-cased ('Definitioner')
}

# verify.check.split_sentences: abbreviations whose full stop does not end a sentence ('nr.').
SENTENCE_SPLIT = {"abbreviation": r"nr"}

# citations (citations.grammar, citations.references, corpus.checks): how a provision is named and pointed at
# (en.py says what each kind holds). Dutch has no pack: the grammar has always read Dutch EUR-Lex text with
# the Danish head words and Danish text with the Dutch ones, so the Dutch words are here, each after the
# Danish ('artikelen', 'bijlage', 'overweging'; 'lid' paragraph, 'en' and, 'tot' to, 'Wijziging van').
CITATION_HEADS = (
    ("article", True, r"artiklerne|artikler|artikelen"),
    ("article", False, r"artikel"),
    ("annex", False, r"bilag|bijlage"),
    ("recital", False, r"betragtning|overweging"),
)
CITATION_ALSO = ("nl",)  # the languages whose text these head words read besides Danish
CITATION = {
    "and": r"og|eller|en",
    "range": r"til|tot",
    "paragraph": r"stk\.|lid",
    "point": r"litra",
}
REFERENCES = {
    "of_act": r"i|i den|af",
    "issuer": r"Europa-Parlamentets og Rådets|Rådets|Kommissionens",
    "act": r"forordning|direktiv",
    # Read only after a cited provision: a decision named on its own, or an act's series after its number
    # ('direktiv 95/46/EF'), is not read ('direktiv 95/46' is the act's edge).
    "act_cited": r"afgørelse|rammeafgørelse",
    "series_cited": r"EF|EØF",
    "treaty": r"traktaten|chartret",
    "that_act": r"(?:nævnte|denne)\s+(?:forordning|direktiv)\b(?<!denne forordning)",
    "this_act": r",?\s*i\s+denne\s+(?:forordning|direktiv)",
    "amending": r"Ændring(?:er)?\s+af|Wijziging(?:en)?\s+van",
}
CHECKS = {"mention": r"artikel|bilag", "definitions_title": "definitioner"}

# retrieve.search (TITLED_ANSWERS): the titles of the scope, amending and final articles.
ANSWER_TITLES = {
    "scope": r"\banvendelsesområde\b",
    "amendments": r"^ændring\s+af\s+(?:forordning|direktiv)\b",
    "application": r"\bikrafttræden\b",
}

# Acronyms common in questions that name no act ('KI', kunstig intelligens).
ACRONYMS = "KI"

# index.analysis: the Snowball stemmer (PyStemmer) the keyword index and the support check stem this language with.
STEMMER = "danish"
