"""French: the question cues (pincite.languages)."""

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
