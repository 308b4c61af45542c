"""French: what pincite knows of the language (pincite.languages)."""

from pincite.languages.injection import ASIDE, InjectionWords, alt

# 'combien de temps' (how long) asks for no number, as English 'how long' does not.
QUESTION = {
    "asks_number": r"\bcombien\b(?!\s+de\s+temps\b)|\bquel(?:le)?s?\b(?:\s+[\w'’-]+){0,3}?\s+"
                   r"(?:taux|pourcentage|montant|nombre|chiffre)\b",
    "asks_rate": r"\b(?:taux|pourcentages?)\b",
    "asks_period": r"\bdans\s+quel\s+délai\b|\bcombien\s+de\s+temps\b",
    "asks_from_when": r"\b(?:à\s+partir\s+de\s+quand|entre(?:nt)?\s+en\s+vigueur)\b",
    "ask_word": r"comment|quand|qui|où|quel(?:le)?s?|pourquoi|que",
    "auxiliary": r"peut|peuvent|doit|doivent|est|sont",
    "conjunction": r"et|ou|mais",
    "joiner": r"et",
    "preposition": r"à|de|pour",
    "if": r"si",
    "now": r"\b(?:actuel(?:le)?s?|actuellement|aujourd['’]hui|à ce jour|jusqu['’]à présent)\b",
    "past_preposition": r"dans|pour|en",
    "past_question_word": r"quel(?:le)?s?|qui|que|combien",
    "past_auxiliary": r"(?:a|ont)\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+(?:é|ée|és|ées|i|is|u|us)\b",
}

HOPS = {
    "penalty": r"\b(?:amendes?|pénalit)\b",
    "exception": r"\b(?:dérogation)\b",
    "remedy": r"\b(?:recours|réclamation)\b",
    "deadline": r"\b(?:dans\s+quel\s+délai|délais?)\b",
    "definition": r"\b(?:signifie)\b",
    "annex": r"\b(?:annexe)\b",
    "date": r"\b(?:à partir de quand)\b",
}

ANSWER = {
    "names_question_word": r"quelle?s?",
    "scope_not_opening": r"(?:à\s+partir\s+de\s+quand|depuis\s+quand|quand|à\s+quelle\s+date)\b",
    "scope": r"\b(?:règlement|réglementation|loi|directive|texte)\s+(?:[\w'’]+\s+){0,3}?s['’]appliqu(?:e|ent)\b|"
             r"\bs['’]appliqu(?:e|ent)[- ]t[- ](?:il|elle|ils|elles)\b|"
             r"\b(?:relève|relèvent|entre|entrent|tombe|tombent)\s+(?:[\w'’]+\s+){0,3}?champ\s+d['’]application\b",
    "duty": r"\b(?:doit|doivent|dois|devons|devez|obligée?s?|tenue?s?\s+d[e'’])\b",
    # French asks yes or no with 'est-ce que' or by inverting verb and subject ('peut-il', 'doit-elle').
    "yes_no": r"^est[- ]ce\s+qu|\b(?:peut|peuvent|puis|doit|doivent|dois|est|sont|suis|a|ont|ai|"
              r"faut|existe|existent|sera|seront|pourrait|pourraient|devons|pouvons|avons|sommes)"
              r"(?:[- ]t)?[- ](?:il|elle|ils|elles|on|je|nous|vous)\b",
    "follow_up_opening": r"^\s*(?:et|ou|mais|aussi|et pour)\b",
    "refers_back": r"\b(?:ils|elles|eux|leurs?|ceux|celles|cela|ça)\b|\b(?:ceci)\s*[?.!]*$",
}

# French writes acts' names in lower case ('le règlement sur les services numériques'): they are read as
# phrases, not by their capitals; and a directive named by its subject ('la directive sur la
# responsabilité du fait des produits défectueux') as one whose number is not known.
ACT_NAMES = {"rgpd": "2016/679"}
ACT_PHRASES = {
    "règlement général sur la protection des données": "2016/679",
    "règlement sur les services numériques": "2022/2065", "législation sur les services numériques": "2022/2065",
    "règlement sur les marchés numériques": "2022/1925", "législation sur les marchés numériques": "2022/1925",
    "règlement sur la gouvernance des données": "2022/868", "règlement sur les données": "2023/2854",
    "règlement sur la cyberrésilience": "2024/2847", "règlement sur la résilience opérationnelle numérique": "2022/2554",
    "règlement sur l'intelligence artificielle": "2024/1689", "règlement sur l'ia": "2024/1689", "règlement ia": "2024/1689",
    "directive vie privée et communications électroniques": "2002/58", "directive police-justice": "2016/680",
}
ACTS = {
    "act_kind": r"Règlement|Décision",
    "act_by_subject": r"\bdirective\s+(?:européenne\s+)?(?:sur|relative?s?\s+(?:à|aux?)|concernant)\s+"
                      r"[\w'’-]+(?:\s+[\w'’-]+){0,6}",
    "mention_word": r"et|avec|ou",
}

DEFINITION_FRAMES = (
    r"^qu['’]est[- ]ce\s+qu(?:e\s+|['’]\s*)(?P<term>.+?)$",
    r"^(?:qu['’]entend[- ]on|que\s+faut[- ]il\s+entendre|qu['’]est[- ]ce\s+qu['’]on\s+entend)\s+par\s+(?P<term>.+?)$",
    r"^(?:que\s+(?:signifie|désigne|recouvre)|qu['’]appelle[- ]t[- ]on)\s+(?:la\s+notion\s+d(?:e\s+|['’]\s*)|"
    r"le\s+terme\s+|l['’]expression\s+)?(?P<term>.+?)$",
    r"^(?:quelle\s+est\s+la\s+)?définition\s+(?:de\s+la\s+notion\s+)?(?:d(?:e\s+|['’]\s*)|du\s+|des\s+)(?P<term>.+?)$",
    r"^comment\s+(?:le\s+règlement\s+|la\s+loi\s+|le\s+texte\s+)?(?:définit[- ](?:il|elle)|définit|est\s+défini\w*)\s+"
    r"(?P<term>.+?)$",
)
DEFINITION = {
    "tail_lead": r"au\s+sens\s+d[ue]|selon|dans\s+le|aux\s+fins\s+d[ue]",
    "tail_word": r"exactement|précisément",
    "article": r"les|une|des|du",
}

# What the support check reads (verify.signals): negations, modal words, exceptions turned around,
# the actors of a rule, comparators in words.
VERIFY = {
    "negations": r"\b(?:ne|n['’](?=\w)|ni|jamais|aucun\w*|sauf|excepté|hormis|sans|interdit\w*|interdiction|prohib\w*|"
                 r"par\s+dérogation|exempt\w*|(?:uniquement|seulement)\s+(?:si|lorsque))",
    "anti_exception": r"\bmême\s+(?:si|lorsque|quand|s['’]il)|\bindépendamment\b|\btoujours\b|\bdans\s+tous\s+les\s+cas\b|"
                      r"\ben\s+toutes?\s+circonstances?\b|\bsans\s+exception\b",
    "obligation": r"\b(?:doit|doivent|devr\w+|(?:est|sont)\s+tenue?s?|(?:est|sont)\s+requise?s?|oblig\w+|il\s+faut|"
                  r"incombe\w*)\b",
    "permission": r"\b(?:peut|peuvent|pourr\w+|facultati\w+|libres?\s+de|autorisée?s?|permise?s?|permis|volontaire\w*|"
                  r"choisir|choisi\w*)\b",
    "prohibited": r"\b(?:interdit\w*|prohibée?s?)\b",
    "should": r"\bdevrai(?:t|ent)\b",
    "negated_verb": r"\b(?:ne\s+|n['’])(?:[\w'’]+\s+){1,3}?(?:pas|jamais|plus|point|aucun\w*)\b|\bjamais\b",
    "not_a_negation": r"\b(?:ne\s+|n['’])(?:(?:peut|peuvent|doit|doivent)\s+(?:pas\s+)?)?(?:excéd|dépass)\w*(?:\s+pas)?|"
                      r"\bnon\s+seulement\b|\bpeu\s+importe\b",
    "negative_clause": r"\binterdit\w*|\binterdiction\b|\bprohib\w*|^\W*(?:\w\)\s*)?aucun\w*",
    "may_not": r"\b(?:ne|n['’])\s*(?:peut|peuvent|doit|doivent)\s+(?:en\s+)?(?:aucun\s+cas\s+|pas\b)",
    "denied_ban": r"\bpas\s+(?:(?:être|été)\s+)?(?:plus\s+)?interdit\w*",
}
# Predicates and their opposites (one side, the other side): a sentence that says one where its
# provision says only the other turns the rule around.
OPPOSITES = (
    (r"\b(?:licites?|autorisée?s?|permise?s?|permis)\b",
     r"\b(?:interdit\w*|illicites?|prohibée?s?)\b"),
    (r"\b(?:conserv\w*)\b",
     r"\b(?:supprim\w*|effac\w*|détrui\w*)\b"),
    (r"\b(?:avant)\b",
     r"\b(?:après)\b"),
    (r"\b(?:augment\w*)\b",
     r"\b(?:rédui\w*|diminu\w*)\b"),
)
# Words a faithful paraphrase adds without changing what it claims (stemmed before comparison).
FRAME_WORDS = """selon au sens du règlement article articles considérant paragraphe point doit doivent
        peut peuvent est sont a ont aussi seulement uniquement si lorsque quand tel telle tels telles
        même énumérés suivants prévoit dispose indique explique ainsi chaque tout tous toute toutes
        autre autres propre leur leurs être fait faire dans après avant plus moins exemple cas
        compris notamment parmi applique appliquent ne pas
        généralement normalement déjà encore un une deux trois quatre cinq six sept huit neuf dix
        quinze vingt trente cent mille million millions milliard milliards moitié pour cent euro euros"""

# What an instruction to its reader looks like (verify.untrusted): regex alternations by what the
# words do (InjectionWords says what each field holds).
_MODEL_FR = r"IA|AI|intelligence\s+artificielle|assistant(?:e|s|es)?(?:\s+(?:IA|virtuel(?:le)?s?))?|chatbots?|bots?|agents?\s+conversationnels?|modèles?(?:\s+de\s+langage)?|LLM|GPT|ChatGPT|Claude"

INJECTION = InjectionWords(
    reader=alt(
        r"\b(?:à\s+)?(?:quiconque|toute\s+personne\s+qui|celui\s+qui|celle\s+qui|qui\s+que\s+vous\s+soyez\s+qui)\s+(?:lit|lisez|lira|traite|parcourt|consulte|résume)\s+(?:ce|cet|cette|ces|le\s+présent|la\s+présente)",
        r"\b(?:cher|chère|chers|chères)\s+(?:lecteur|lectrice|lecteurs|lectrices|" + _MODEL_FR + r")\b",
        r"^\W*(?:(?:à|pour)\s+)?(?:l['’]\s*|le\s+|la\s+|les\s+|aux\s+)?(?:lecteur|lecteurs|" + _MODEL_FR + r")\s*[:,!]",
        r"\bsi\s+(?:vous\s+êtes|tu\s+es)\s+(?:une?\s+)?(?:IA|intelligence\s+artificielle|assistant|chatbot|agent\s+conversationnel|modèle|LLM)\b",
        r"\ben\s+tant\s+qu['’]\s*(?:IA|assistant|modèle\s+de\s+langage)\b",
        r"\b(?:l['’]\s*|le\s+|la\s+)?(?:IA|assistant|chatbot|modèle)\s+qui\s+(?:lit|traite|résume)\s+(?:ce|cet|cette|ces)\b"),
    you=r"\btu\b|\btoi\b|\bte\b|\bt['’]|\bton\b|\bta\b|\btes\b|\bvous\b|\bvotre\b|\bvos\b",
    coordinate=r"et|puis|mais|ou|donc|alors|ensuite",
    modal=r"doit|doivent|peut|peuvent|est|sont|a|ont|devra|devront|pourra|pourront|sera|seront|était|étaient",
    lead=r"s['’]il\s+(?:te|vous)\s+pla[iî]t|maintenant|désormais|dorénavant|toujours|seulement|uniquement|simplement|plutôt|dans\s+(?:ta|votre)\s+réponse",
    imperative=alt(
        r"réponds|répondez|dis|dites|écris|écrivez|affirme|affirmez|confirme|confirmez|déclare|déclarez|indique|indiquez",
        r"répète|répétez|soutiens|soutenez|ignore|ignorez|oublie|oubliez|traite|traitez|considère|considérez",
        r"suppose|supposez|présume|présumez|fais|faites|crois|croyez|suis|suivez|obéis|obéissez|veuillez|merci\s+de",
        r"rappelle-toi|souviens-toi|souvenez-vous|utilise|utilisez|prétends|prétendez|agis|agissez|cite|citez",
        r"mentionne|mentionnez|refuse|refusez|nie|niez|assure-toi|assurez-vous|résume|résumez",
        r"ne\s+(?:mentionne|mentionnez|cite|citez|dis|dites|tiens|tenez|réponds|répondez|suis|suivez)"),
    steer=alt(
        r"suppose|supposez|présume|présumez|prétends|prétendez|fais\s+comme\s+si|faites\s+comme\s+si|crois|croyez|obéis|obéissez",
        r"rappelle-toi\s+que|souviens-toi\s+que|souvenez-vous\s+que",
        r"(?:traite|traitez|considère|considérez)\s+(?:cette|ce|cet|le\s+présent|la\s+présente)\s+(?:page|document|texte|avis|note)"),
    reply=alt(
        r"réponds|répondez|dis|dites|écris|écrivez|affirme|affirmez|confirme|confirmez|déclare|déclarez|indique|indiquez",
        r"répète|répétez|soutiens|soutenez",
        r"(?:veuillez|merci\s+de|tu\s+dois|vous\s+devez)\s+(?:toujours\s+|seulement\s+|uniquement\s+)?(?:répondre|dire|affirmer|déclarer|écrire|confirmer|indiquer|répéter)",
        r"(?:dis|dites)\s+(?:à\s+l['’]\s*utilisateur|aux\s+utilisateurs|aux\s+lecteurs|à\s+tous)"),
    that=r"que|qu['’]",
    saying=r"en\s+disant\b|par\s*(?=[:\"“‘«']|la\s+(?:phrase|formule)\s+suivante\b)|:|[\"“‘«]|(?<=\s)'",
    yes=r"oui|non",
    infinitive=r"répondre|dire|affirmer|déclarer|écrire|confirmer|soutenir",
    must=r"\b(?:tu\s+dois|vous\s+devez|tu\s+devras|vous\s+devrez|il\s+(?:te|vous)\s+faut)\s+(?:(?:maintenant|toujours|seulement|uniquement|simplement)\s+)*",
    told=alt(
        r"\b(?:la|l['’])\s*(?:seule\s+|bonne\s+)*réponse\s+(?:correcte|exacte|juste|vraie|attendue|officielle)(?:\s+à\s+\w+(?:\s+\w+){0,6})?" + ASIDE + r"\s+(?:est|sera|serait|doit\s+être)\b",
        r"\bla\s+(?:seule|bonne)\s+(?:bonne\s+)?réponse(?:\s+à\s+\w+(?:\s+\w+){0,6})?" + ASIDE + r"\s+(?:est|sera)\b",
        r"\b(?:quand|lorsqu['’]on|si\s+on)\s+(?:te|vous)\s+(?:demande|interroge|pose)\b[^.!?\n]{0,80}\b(?:réponds|répondez|dis|dites)\b"),
    override=r"ignore|ignorez|ignorer|oublie|oubliez|oublier|ne\s+(?:tiens|tenez|tenir)\s+pas\s+compte|ne\s+pas\s+tenir\s+compte|fais\s+abstraction|faites\s+abstraction|passe\s+outre|passez\s+outre|outrepasse|outrepassez|n['’]obéis\s+pas|n['’]obéissez\s+pas|ne\s+suis\s+pas|ne\s+suivez\s+pas",
    det=r"les|la|le|l|toutes|tous|tes|vos|ces|des|de|du|d|précédentes|anciennes|habituelles|ta|votre|ton",
    earlier=r"instructions?|consignes?|règles?|directives?|indications?|prompt|invite|contraintes?|tout\s+ce\s+qui\s+précède",
    claim=alt(
        r"\bnouvelles?\s+(?:instructions?|consignes?|directives?)\b(?!\s+d['’]utilisation\b)",
        r"\b(?:message|invite|prompt|instructions?|note)\s+(?:du\s+)?système\b",
        r"\b(?:note|message|instructions?|consignes?|avis|rappel|avertissement)\s+(?:(?:destinée?s?\s+)?(?:à|aux|pour))\s*(?:l['’]\s*|les\s+|la\s+|le\s+)?(?:" + _MODEL_FR + r")\b(?!\s+(?:à\s+usage|systèmes?)\b)"),
)

# Function words the keyword index leaves out (index.analysis); legal words ("shall", "not") stay.
STOPWORDS = """le la les un une des de du d l à au aux en et ou est sont par pour dans sur avec que qui
        quoi ce cet cette ces son sa ses leur leurs ne pas se il elle ils elles nous vous je"""

# What kind a provision is, from its words (retrieve.follow: the end of a reference a question asks for):
# a penalty, an exception, a remedy, a time limit, a start date, the act's own entry into force; and the word
# of a duty a penalty punishes.
KINDS = {
    "penalty": r"\b(?:amende|pénal)",
    "exception": r"\b(?:dérogation|ne s['’]applique pas)",
    "remedy": r"\b(?:recours|réclamation)",
    "deadline": r"\b(?:dans\s+un\s+délai|sans\s+retard\s+injustifié)\b",
    "date": r"\b(?:s['’]appliquent? à partir)",
    "whole_act": r"\bprésente?\s+(?:règlement|directive)\s+entre\s+en\s+vigueur",
    "duty_word": r"\b(?:doi[tv]|doivent)\b",
    "sets_aside": r"ne\s+s['’]applique(?:nt)?\s+pas",
    "derogates": r"par\s+dérogation\s+(?:au|aux|à\s+la)",
}

# Words left out of a recurring phrase before its initials are read as an acronym (answer.gate:
# "data protection officer" → DPO).
PHRASE_STOP = "et des du d l"

# corpus.formats.eurlex: the word a section heading inside an annex opens with
# ('Section A'), the title of a definitions article.
EURLEX = {
    "annex_section": r"section",
    "definitions_title": "définitions",  # a definitions article's title, lower-cased ('Définitions')
}

# verify (check, claims, support): numbers written in words, units, the names of acts, what a recital is said
# to state.
# verify.check.quantities: number words read as a count before a unit of time ('trois mois'), scale words
# after a number, the units by name.
UNIT_NUMBERS = {"un": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "huit": 8, "dix": 10, "douze": 12,
                "quinze": 15, "vingt": 20, "trente": 30}
MULTIPLIERS = {"milliards": 10**9}
QUANTITY_UNITS = {
    "percent": r"pour\s+cent",
    "hour": r"heures?",
    "working day": r"jours\s+ouvrables",
    "day": r"jours?",
    "week": r"semaines?",
    "month": r"mois",
    "year": r"ans|années?",
}
# References to structure are not quantities ('paragraphe 2', 'JO L 119').
NOT_QUANTITIES = {
    "part": r"paragraphes?|chapitre|annexe|considérants?|JO",
    "joined": r"et",
    "series": r"UE|CE|CEE",
}
# verify.claims: the names of acts, by the corpus that is that act (case as written).
ACT_MENTIONS = {"gdpr": r"RGPD"}
# verify.support: what states an obligation (a recital states none), and the words that report a recital.
RECITAL_CLAIMS = {
    "obligation": r"\b(?:doit|doivent|(?:est|sont)\s+tenue?s?|(?:est|sont)\s+obligée?s?|(?:est|sont)\s+interdite?s?"
                  r"|obligation)\b",
    "reported": r"\b(?:considérants?|explique|observe|souligne)\b",
}

# citations (citations.grammar, citations.references, corpus.checks): how a provision is named and pointed at
# (en.py says what each kind holds).
CITATION_HEADS = (
    ("article", True, r"articles"),
    ("article", False, r"article"),
    ("article", False, r"art\.|art(?=\s*\d)"),
    ("annex", True, r"annexes"),
    ("annex", False, r"annexe"),
    ("recital", True, r"consid[ée]rants"),
    ("recital", False, r"consid[ée]rant"),
)
CITATION = {
    "and": r"et|ou",
    "range": r"à",
    "paragraph": r"paragraphes?",
    "point": r"points?",
    "ordinal": r"premier|deuxième|troisième|quatrième|cinquième|dernier",
    "subparagraph": r"alinéa",
    "first_number": r"premier|1er",  # 'article premier' is Article 1
    "chapter": r"Chapitre",
    "title": r"titre",
}
# An article inserted after another: 'article 5 bis' is Article 5a (it.py has the same words).
NUMBER_SUFFIXES = {"bis": "a", "ter": "b", "quater": "c", "quinquies": "d", "sexies": "e", "septies": "f",
                   "octies": "g", "novies": "h", "decies": "i", "nonies": "h"}
# EUR-Lex style ('chained': 'Article 5, paragraphe 1, point f)', 'Annexe III, point 4 a) ii)'): the first
# point is named, the levels below it follow bare.
LABELS = {"style": "chained", "article": "Article", "annex": "Annexe", "recital": "Considérant",
          "paragraph": "paragraphe", "point": "point"}
REFERENCES = {
    "of_act": r"du|de la|des|de l['’]",
    "act": r"Règlement|Directive|Décision",
    "union": r"UE|CE|CEE",
    "series": r"CE|UE|CEE|GAI",
    "treaty": r"traité|charte",
    "treaty_short": r"TFUE|TUE",
    "that_act": r"(?:ce|cette)\s+(?:règlement|directive)\b",
    "this_act": r"(?:du|de la)\s+présent(?:e)?\s+(?:règlement|directive)",
    "chapters": r"Chapitres",
    "list_and": r"et|ou",
    "list_to": r"à",
    "paragraph": r"paragraphes?",
    "of_article": r"du|de l['’]",
    "article": r"l['’]article",
    "amending": r"Modifications?\s+(?:de|du|à)",
}
CHECKS = {"mention": r"articles?|annexes?", "definitions_title": "définitions"}

# retrieve.search (TITLED_ANSWERS): the titles of the scope, amending and final articles.
ANSWER_TITLES = {
    "scope": r"\bchamp\s+d['’]application\b",
    "amendments": r"^modification\s+d[eu]\s+(?:règlement|la\s+directive)\b",
    "application": r"\bentrée\s+en\s+vigueur\b",
}

# retrieve.ranker: what a provision's title says it is about.
TITLE_TOPICS = {
    "application": r"entrée en vigueur",
    "penalty": r"amende",
}

# Month names, as a date is written ('25 mai 2018').
MONTHS = "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre"

# answer.extractive (see the English pack).
QUOTES = {
    "period_words": r"\b(?:sans\s+retard|immédiatement)\b",
}

# Acronyms common in questions that name no act.
ACRONYMS = "IA PME UE ONG"

# index.analysis: the Snowball stemmer (PyStemmer) the keyword index and the support check stem this language with.
STEMMER = "french"
