"""Italian: what pincite knows of the language (pincite.languages)."""

from pincite.languages.injection import ASIDE, InjectionWords, alt

# 'in quanto' (as, since), 'per quanto' (as far as) and 'quanto prima' (as soon as possible) ask for no number.
QUESTION = {
    "asks_number": r"(?<!\bin )(?<!\bper )\bquanto\b(?!\s+prima)|\bquant[aei]\b|\b(?:qual|quale|quali)\b"
                   r"(?:\s*[\w'’-]+){0,3}?\s*\b(?:aliquota|percentuale|importo|tasso|numero|cifra)\b",
    "asks_rate": r"\b(?:aliquot[ae]|percentual[ei]|tass[oi])\b",
    "asks_list": r"^quali\b|\bquali\s+sono\b|\belenc",
    "asks_period": r"\bentro\s+(?:quant[oiae]|quando|che\s+termine)\b|\bquanto\s+tempo\b|\bin\s+quanto\s+tempo\b"
                   r"|\bquant[ie]\s+(?:ore|giorni|settimane|mesi|anni)\b",
    "asks_from_when": r"\b(?:da\s+quando|da\s+quale\s+data|a\s+decorrere|a\s+partire\s+da\s+quando|"
                      r"(?:entra|entrano)\s+in\s+vigore)\b",
    "ask_word": r"cosa|che\s+cosa|quale|quali|come|quando|chi|dove|perché",
    "auxiliary": r"può|possono|deve|devono|è|sono",
    "conjunction": r"e|o|ed|ma",
    "joiner": r"e|ed",
    "preposition": r"a|da|per|di",
    "if": r"se",
    "now": r"\b(?:attual(?:e|i|mente)|oggi|ad oggi|finora|al momento)\b",
    "law_acts": r"\b(?:abrogat\w*|modificat\w*|sostituit\w*)\b",
    "past_preposition": r"entro|per|da",
    "past_question_word": r"quale|quali|quanto|quanta|quanti|quante|chi|cosa|che",
    "past_auxiliary": r"(?:ha|hanno)\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+(?:at[oaie]|it[oaie]|ut[oaie])\b",
    # 'La Commissione ha già adottato…?'; not 'se ha già notificato' (the facts of a case).
    "already": r"^(?!.*\b(?:se|qualora|quando|che|chi|if|when|where)\b.*\b(?:ha|hanno)\s+già\b).*\b(?:ha|hanno)\s+già\s+"
               r"[\w'’-]+(?:at|it|ut)[oaie]\b",
}

INTENTS = {
    "definition": r"\b(?:che cos['’]?è|cosa si intende|definizione)\b",
    "penalty": r"\b(?:sanzion[ei]|ammend[ae])\b",
    "date": r"\b(?:da quando|entra in vigore)\b",
    "exception": r"\b(?:deroga|eccezion[ei])\b",
}

HOPS = {
    "penalty": r"\b(?:sanzion[ei]|ammend[ae]|multa)\b",
    "exception": r"\b(?:deroga\w*|eccezion[ei]|esenzion[ei]|comunque)\b",
    "remedy": r"\b(?:ricorso|reclamo|tribunale|risarcimento)\b",
    "deadline": r"\b(?:entro\s+quando|entro\s+quale\s+termine|(?<!per\s)quanto\s+tempo\s+(?:ha|hanno)\b[^.?]{0,40}?"
                r"\bper\s+\w+)\b",
    "definition": r"\b(?:conta come|si intende|definizione|considerat[oaie])\b",
    "annex": r"\b(?:allegat[oi]|alto rischio)\b",
    "date": r"\b(?:da\s+quale\s+data|a\s+partire\s+da\s+quando|da quando|a decorrere|entra in vigore)\b",
}

ANSWER = {
    "person": r"^chi\s+(?:è|sono|presiede|dirige|guida)\b",
    "names_question_word": r"quali|quale",
    "names_verb": r"devono|deve|possono|può|hanno|ha",
    "named_kind": r"paesi|stati|aziende|societ[àa]|imprese|piattaforme|fornitori|norme|standard",
    "names_duty": r"devono|possono",
    "application": r"^(?:da\s+quando|quando|da\s+quale\s+data)\s+(?:si\s+applica|entra\s+in\s+vigore|è\s+applicabile)\s+"
                   r"(?:il|la|questo|questa)\s+(?:regolamento|direttiva|legge)\b",
    "amendments": r"\bquali\s+(?:atti|regolamenti|direttive|norme)\s+(?:\w+\s+){0,3}?(?:modifica|modificano|ha\s+modificato)\b",
    "scope": r"\b(?:regolamento|legge|normativa|direttiva)\s+(?:[\w'’]+\s+){0,2}?si\s+applica\b|"
             r"\bsi\s+applica\s+(?:anche\s+)?(?:il|la)\s+(?:regolamento|normativa|legge)\b|"
             r"\b(?:rientra|rientrano|ricade|ricadono)\s+nell['’]ambito\s+di\s+applicazione\b",
    "date": r"^(?:da|entro|fino\s+a)?\s*quando\b",
    "duty": r"\b(?:devono|deve|obblighi|obbligo)\b",
    "yes_no": r"^(?:è|sono|può|possono|devo|deve)\b",
    "follow_up_opening": r"^\s*(?:e|ed|o|ma|anche|invece|quid)\b",
    "refers_back": r"\b(?:loro|essi|esse|ciò)\b|\b(?:questo|quello)\s*[?.!]*$",
}

ACTS = {
    "act_kind": r"Regolamento|Direttiva|Decisione",
    "mention_word": r"e|ed|con",
    "mention_article": r"il\s+|la\s+|lo\s+|le\s+|l['’]\s*",
}

DEFINITION_FRAMES = (
    r"^(?:che\s+cos['’]\s*è|cos['’]\s*è|cosa\s+(?:è|sono)|che\s+cosa\s+(?:è|sono)|chi\s+è|chi\s+sono)\s+(?P<term>.+?)$",
    r"^cosa\s+si\s+intende\s+per\s+(?P<term>.+?)$",
    r"^(?:qual\s+è\s+la\s+)?definizione\s+di\s+(?P<term>.+?)$",
)
DEFINITION = {
    "tail_lead": r"ai\s+sensi\s+del|nel|secondo\s+il",
    "article": r"il|lo|la|i|gli|le|un|uno|una",
    "elided_article": r"l|un",
}

# What the support check reads (verify.signals): negations, modal words, exceptions turned around,
# the actors of a rule, comparators in words.
VERIFY = {
    # the readings of a sentence against the clause it follows word for word (verify.alignment; see the English pack)
    "aligned_duty": r"(?:deve|devono|è\s+tenut[oa]\s+a|sono\s+tenut[ie]\s+a|è\s+obbligat[oa]\s+a|sono\s+obbligat[ie]\s+a)",
    "aligned_permission": r"(?:può|possono|è\s+autorizzat[oa]\s+a|sono\s+autorizzat[ie]\s+a|ha\s+facoltà\s+di|hanno\s+facoltà\s+di)",
    "modal_limited": r"\b(?:solo|soltanto|unicamente|esclusivamente|non|né|mai|salvo|tranne)\b",
    "aligned_only": r"\b(?:solo|soltanto|unicamente|esclusivamente)\b",
    "aligned_condition": r"(?:se|qualora|ove|laddove|quando|purché|nella\s+misura\s+in\s+cui|solo\s+se|soltanto\s+se)\b",
    "back_reference": r"\b(?:tal[ei]|quest[oaie]|quell[oaie]|dett[oaie]|suddett[oaie]|medesim[oaie])\s+$",
    # the verb that reports what a provision says, after its label ('l'articolo 5 prevede che')
    "says": r"(?:prevede|stabilisce|dispone|afferma|dice|elenca|recita)(?:\s+che)?",
    "clause_joiner": r"\be\s+(?=(?:deve|devono|può|possono|non|è|sono)\b)",
    "negations": r"\b(?:non|né|mai|nessun\w*|salvo|eccetto|tranne|senza|vietat\w*|divieto|proibit\w*|in\s+deroga|"
                 r"esent[ei]\w*|solo\s+(?:se|qualora|quando|ove))\b",
    "anti_exception": r"\banche\s+(?:se|qualora|ove)\b|\bindipendentemente\b|\bsempre\b|\bin\s+ogni\s+caso\b",
    "obligation": r"\b(?:deve|devono|dovr(?!ebber?o\b)\w+|è\s+tenut\w|sono\s+tenut\w|obblig\w+|è\s+richiest\w|sono\s+richiest\w)\b",
    "permission": r"\b(?:può|possono|potr\w+|facolt\w+|liberi?\s+di|(?:è|sono)\s+(?:consentit\w|autorizzat\w)|volontari\w+)\b",
    "modal_verb": r"\b(?P<neg>non\s+)?(?P<modal>deve|devono|può|possono|è\s+tenut\w|sono\s+tenut\w)(?:\s+(?:anche|solo|"
                  r"inoltre|altresì))?\s+(?P<verb>[a-zàèéìòù]{3,})\b",
    "prohibited": r"\b(?:è|sono)?\s*(?:vietat\w|proibit\w)",
    "should": r"\bdovrebber?o\b",
    "negated_verb": r"\bnon\s+(?:\w+\s+)?(?:è|sono|può|possono|deve|devono|si\s+applica|si\s+applicano|ha|hanno)\b|\bmai\b",
    "modal": r"\b(?:deve|devono|può|possono|ha\s+il\s+diritto|hanno\s+il\s+diritto|è\s+tenut\w|sono\s+tenut\w)\b",
    "not_a_negation": r"\bnon\s+(?:può|possono|deve|devono)\s+superare\b|\bnon\s+(?:solo|soltanto)\b|\bnon\s+(?:oltre|"
                      r"più\s+di|meno\s+di|prima\s+di)\b|\bnon\s+(?:importa|rileva)\b|\bnon\s+appena\b",  # 'as soon as'
    # a saving clause ('lasciano impregiudicati', 'fatto salvo'), and a sentence's way of saying it ('non incide
    # su … né su …'): the sentence's negation, and the 'né' it goes on with and its verb ('né interferiscono'), are the
    # text's
    "saving_text": r"\bimpregiudicat\w*|\bnon\s+pregiudica\w*|\bnon\s+incid\w*",
    "saving_said": r"\bnon\s+(?:\w+\s+)?(?:pregiudic|incid|sostitu|limit|modific|alter)\w*(?:[^.;]*?\bné\b(?:\s+\w+)?)*",
    "negative_clause": r"\bvietat\w*|\bdivieto\b|\bproibit\w*|^\W*(?:\w\)\s*)?(?:nessun\w*|né)\b",
    # a word the text denies ('non includono', 'né … coinvolti'): a sentence asserting it turns the rule around
    "denial": r"\b(?:non|mai|né)\s+(?:(?:è|sono|stato|stata|stati|state|essere|viene|vengono|anche|più)\s+)*(?P<word>[a-zàèéìòù]{4,})\b",
    "qualified": r"\b(?:fornitor[ei]|deployer)\s+(?:di|del|dello|della|dei|degli|delle)\s+((?:[\w'-]+\s+){0,2}[\w'-]+)",
    "ceiling": r"\bentro\b|\bfino\s+a\b|\bnon\s+superiore\b|\bal\s+massimo\b|(?<!\bnon\s)\binferiore\s+a\b|"
               r"(?<!\bnon\s)\bmeno\s+di\b|"
               r"\bnon\s+oltre\b|\bal\s+più\s+tardi\b|\bnon\s+più\s+di\b|"
               r"\bmassim[oa]\b",
    # a bound that leaves its number out ('più di 3'; not 'non più di 3')
    "strict_bound": r"(?<!\bnon\s)\b(?:più|meno)\s+di\b|(?<!\bnon\s)\b(?:superiore|inferiore)\s+a\b|(?<!\bnon\s)\boltre\b",
    # 'non meno di' as 'almeno'; 'dopo 15 giorni' sets the earliest time, as 'al più presto' does
    "floor": r"\balmeno\b|\bnon\s+inferiore\b|\bnon\s+meno\s+di\b|\bal\s+più\s+presto\b|\bsuperiore\s+a\b|"
             r"(?<!\bnon\s)\bpiù\s+di\b|(?<!\bnon\s)\boltre\b|\bminim[oa]\b|"
             r"\bdopo\s+(?:(?:un|il)\s+(?:periodo|termine)\s+di\s+)?(?:\d+|un[oa]?|due|tre|quattro|cinque|sei|sette|otto|nove|"
             r"dieci|quindici|trenta)\s+(?:giorn|settiman|mes|ann|or)\w*|"
             r"\bnon\s+prima\s+d\w*",
    "beyond_limit": r"\bnon\s+(?:solo|soltanto|esclusivamente)\b|\banche\s+parzialmente\b|\bin\s+parte\b",
    "at_will": r"\ba\s+(?:sua|loro)\s+discrezione\b|\bsenza\s+limit\w*\b",
    "may_not": r"\bnon\s+(?:può|possono|deve|devono)\b",
    "extension": r"prorog\w*|ulterior\w*",
    "comparator_higher": r"se\s+superiore|è\s+superiore|il\s+più\s+elevato|più\s+elevat\w",
    "comparator_lower": r"se\s+inferiore|è\s+inferiore|il\s+più\s+basso|meno\s+elevat\w",
    "comparator_at_least": r"\balmeno\b|\bnon\s+inferiore\b",
    "comparator_at_most": r"\bentro\b|\bfino\s+a\b|\bnon\s+superiore\b",
    "negated_before": r"\bnon\s+(?:\w+\s+)?$",
    "may_only": r"\b(?:può|possono)\s+(?:[\w'-]+\s+){0,2}(?:soltanto|solo|unicamente)\b",
    "period_qualifier": r"ulteriori",
    "period_unit": r"mesi|giorni",
    "joined_word": r"e|o",
    "joined_article": r"il\s+|lo\s+|la\s+|l'",
    "relative": r"\b(?:il\s+cui|la\s+cui|i\s+cui|le\s+cui|che)\b",
    "only": r"(?<!\bnon\s)\b(?:soltanto|solo|unicamente|esclusivamente)\b(?!\s+(?:se|qualora|quando|ove)\b)",
    "floor_unnumbered": r"\balmeno\b(?!\s+(?:\w+\s+)?\d)(?!\s+(?:un[oa]?|due|tre|quattro|cinque|sei|sette|otto|nove|dieci)\b)",
    "text_only": r"\b(?:soltanto|solo|unicamente|esclusivamente|esclusiv[oaie]|limitat\w+)\b",
    "all": r"\b(?:tutti|tutte|ogni|chiunque)\b",
    "text_all": r"\b(?:tutti|tutte|ogni|ciascun\w*|qualsiasi|qualunque|chiunque|nessun\w*)\b",
    "denied_ban": r"\bnon\s+(?:(?:è|sono|sia|siano|essere|risulta|risultano)\s+)?(?:più\s+)?(?:vietat\w*|proibit\w*)",
    "negation_end": r"non|mai",
}
# Predicates and their opposites (one side, the other side): a sentence that says one where its
# provision says only the other turns the rule around.
OPPOSITES = (
    (r"\b(?:lecit\w*|consentit\w*|autorizzat\w*|permess\w*)\b",
     r"\b(?:vietat\w*|illecit\w*|proibit\w*)\b"),
    (r"\b(?:conserv\w*|mant[ei]n\w*)\b",
     r"\b(?:cancell\w*|distrugg\w*|abrog\w*)\b"),
    (r"\b(?:prima)\b",
     r"\b(?:dopo)\b"),
    (r"\b(?:aument\w*)\b",
     r"\b(?:ridu\w*|dimin\w*)\b"),
    # as in English: public / confidential, encourage / hinder, include / exclude, balanced / unbalanced
    (r"\b(?:pubblic\w*|trasparen\w*)\b",
     r"\b(?:riservat\w*|segret\w*|confidenzial\w*)\b"),
    (r"\b(?:promuov\w*|promozione|incoraggi\w*|agevol\w*|facilit\w*)\b",
     r"\b(?:frena\w*|frenare|ostacol\w*|scoraggi\w*)\b"),
    (r"\b(?:includ\w*|inclus\w*)\b",
     r"\b(?:esclud\w*|esclus\w*)\b"),
    (r"\b(?:equilibrat\w*)\b",
     r"\b(?:sbilanciat\w*|squilibrat\w*)\b"),
    (r"\bt(?:en|ien|err)\w*\s+(?:\w+\s+){0,2}?conto\b",
     r"\b(?:ignor\w*|trascur\w*|prescind\w*)\b"),
)
# Words of opposite sense read where a sentence follows a clause of the text word for word (see the English pack).
ALIGNED_OPPOSITES = (
    (r"\b(?:prima|anteriormente|precedente)\b", r"\b(?:dopo|successivamente|successiv[oaie])\b"),
    (r"\b(?:almeno|non\s+inferiore|minim[oaie])\b", r"\b(?:al\s+massimo|non\s+superiore|massim[oaie]|fino\s+a)\b"),
)
# Regimes the act sets apart by a qualifier (see the English pack): a head noun → its qualified form.
SCOPE_QUALIFIERS = {
    r"\bsistem[ai]\s+di\s+IA\b": r"\bsistem[ai]\s+di\s+IA\s+ad\s+alto\s+rischio\b",
    r"\bmodell[oi]\s+di\s+IA\b": r"\bmodell[oi]\s+di\s+IA\s+per\s+finalità\s+generali\b",
    r"\bmodell[oi]\s+di\s+IA\s+per\s+finalità\s+generali\b":
        r"\bmodell[oi]\s+di\s+IA\s+per\s+finalità\s+generali\s+con\s+rischio?\s+sistemic[oi]\b",
    r"\bincident[ei]\b": r"\bincident[ei]\s+grav[ei]\b",
}
# The actors a rule names, each with the words that name it.
ACTORS = {
    "controller": r"titolar[ei]\s+del\s+trattamento|titolar[ei]",
    "processor": r"responsabil[ei]\s+del\s+trattamento",
    "supervisory authority": r"autorit[àa]\s+di\s+controllo",
    "data subject": r"interessat[oi]",
    "provider": r"fornitor[ei]",
    "deployer": r"deployer",
    "importer": r"importator[ei]",
    "distributor": r"distributor[ei]",
    "notified body": r"organism[oi]\s+notificat[oi]",
    "commission": r"commissione",
    "ai office": r"ufficio\s+per\s+l'ia|ufficio\s+ia",
    "member state": r"stat[oi]\s+membr[oi]",
    "board": r"\bcomitato\b",
    "market surveillance": r"autorit[àa]\s+di\s+vigilanza\s+del\s+mercato",
}
# Words a faithful paraphrase adds without changing what it claims (stemmed before comparison).
FRAME_WORDS = """ai sensi del regolamento disposizione disposizioni articolo articoli considerando paragrafo lettera deve devono
        può possono puo è sono ha hanno anche solo se quando ove qualora dove tale tali stesso stessa né
        elencati seguenti stabilisce prevede dispone afferma spiega cioè ovvero ogni ciascun tutti
        tutte altro altra altri altre proprio propria loro essere viene vengono fare fa entro dopo
        prima più meno almeno esempio tipo caso casi incluso inclusi compreso compresi tra
        applica applicano si non
        ia ue nell dell sull all dall coll
        generalmente normalmente comunque già ancora uno una due tre quattro cinque sei sette otto
        nove dieci quindici venti trenta cento mila mille milione milioni miliardi metà per cento
        euro"""

# How the support check reads a provision's structure (verify.structure): the conditions that open
# or close a sentence, a condition the sentence states itself, quantifiers, connectives before a
# condition, the words that open an exception, join points, or concede.
STRUCTURE = {
    "condition_opening": r"^(?:qualora|se|ove|laddove|quando|a\s+meno\s+che|purché|salvo\s+che|nella\s+misura\s+in\s+cui)\b",
    "condition_inside": r"(?:,\s*|\b)(?:a\s+meno\s+che|purché|a\s+condizione\s+che|solo\s+se|soltanto\s+se|unicamente\s+se|"
                        r"nella\s+misura\s+in\s+cui|in\s+tutti\s+i\s+casi\s+in\s+cui|salvo\s+(?:che|se))\b|,\s*(?:qualora|ove|"
                        r"laddove|se|finché)\b",
    "own_condition": r"\b(?:qualora|se|ove|laddove|quando|purché|salvo|solo|soltanto|unicamente|a\s+meno\s+che|"
                     r"nella\s+misura|a\s+condizione)\b",
    # a participle or gerund opens a clause inside a noun phrase ('un sistema di IA immesso sul mercato'): not a modifier
    "participle": r"\b\w{2,}(?:at[oaie]|it[oaie]|ut[oaie]|ess[oaie]|pres[oaie]|ott[oaie]|ando|endo)\b",
    "quantifier": r"\b(?:tutti\s+gli|tutti\s+i|tutte\s+le|ogni|qualsiasi|qualunque|ciascun[oa]?)\s+",
    "connective": r"^(?:tuttavia|inoltre|in\s+deroga\s+[^,]{1,60})\s*,\s*",
    "exception_word": r"a\s+meno|salvo",
    "on_request": r"\bsu\s+(?:(?:sua|loro|apposita)\s+)?(?:[\w-]+\s+)?richiesta\b(?!\s+o\s+di\s+propria\s+iniziativa)",
    "asked": r"\b(?:richie\w*|chied\w*|chiest\w*|domand\w*)\b",
    "and_word": r"e|ed",  # joins the parts of a condition, all of which must hold
    # a verb that makes a joined piece of a condition a clause of its own
    "finite_verb": r"\b(?:è|sono|sia|siano|ha|hanno|abbia|abbiano|era|erano|fosse|fossero|può|possono|deve|devono|si)\b",
    "point_joiner": r"e|o",
    "qualifier": r"\b(?:(?:ove|se|qualora|laddove)\s+(?:opportun\w*|pertinent\w*|necessari\w*|possibil\w*)|se\s+del\s+caso|"
                 r"nella\s+misura\s+del\s+possibile|per\s+quanto\s+possibile|in\s+caso\s+di\s+urgenza|"
                 r"nella\s+misura\s+in\s+cui\s+ciò\s+sia\s+tecnicamente\s+(?:possibile|fattibile))\b",
    "concession": r"anche",
    # 'se' after a verb of judging is 'whether', no condition of the sentence's own ('decide se l'autorizzazione è
    # giustificata')
    "whether": r"\b(?:decid\w*|valut\w*|verific\w*|stabilisc\w*|accert\w*|esamin\w*|determin\w*|chied\w*)\s+se\b",
    # a one-word condition that leaves the rule to someone's judgement ('ove opportuno', 'se necessario')
    "discretion": r"\b(?:opportun\w*|pertinent\w*|necessari\w*|tecnicamente\s+fattibil\w*)\b",
    # a reference after a noun phrase that restricts it ('sistemi di IA di cui all'allegato III')
    "listed_in": r"di\s+cui\s+a|elencat\w+\s+(?:nel|nell|negli|nella)|indicat\w+\s+(?:nel|nell|negli|nella)",
}
# Words that end a quantified noun phrase: the verb or the clause after it begins.
# adjectives follow the noun ('sistemi di IA ad alto rischio'): the support check reads a restricting word there
ADJECTIVE_AFTER = True
PHRASE_END = """che cui deve devono ha hanno i il la le ove possono può quale quali qualora quando se sia siano sono vengono viene è"""

# What an instruction to its reader looks like (verify.untrusted): regex alternations by what the
# words do (InjectionWords says what each field holds).
_MODEL_IT = r"IA|AI|intelligenza\s+artificiale|assistent[ei](?:\s+(?:IA|AI|virtual[ei]))?|chatbot|bot|modell[oi](?:\s+linguistic[oi])?|LLM|GPT|ChatGPT|Claude"

INJECTION = InjectionWords(
    reader=alt(
        r"\bchiunque\s+(?:legga|stia\s+leggendo|elabori|veda|riassuma)\s+(?:questa|questo|queste|questi|il\s+presente|la\s+presente)",
        r"\b(?:a\s+)?chi\s+(?:legge|sta\s+leggendo|elabora)\s+(?:questa|questo|queste|questi|il\s+presente|la\s+presente)",
        r"\b(?:car[oaie]|gentile|ehi|attenzione)\s*[,:]?\s+(?:lettor[ei]|lettric[ei]|" + _MODEL_IT + r")\b",
        r"^\W*(?:(?:a|per)\s+)?(?:l['’]\s*|il\s+|lo\s+|gli\s+|all['’]\s*|al\s+|agli\s+)?(?:lettor[ei]|" + _MODEL_IT + r")\s*[:,!]",
        r"\bse\s+(?:sei|siete)\s+(?:un['’]?\s*|una\s+)?(?:IA|AI|intelligenza\s+artificiale|assistente|chatbot|modello)\b",
        r"\b(?:in\s+quanto|come)\s+(?:IA|assistente\s+(?:IA|AI|virtuale)|modello\s+linguistico)\b(?!\s+(?:per\s+finalità|a\s+finalità))",
        r"\b(?:l['’]\s*|il\s+|lo\s+)?(?:IA|AI|assistente|chatbot|modello)\s+che\s+(?:legge|sta\s+leggendo|elabora)\s+(?:questa|questo|queste|questi)\b"),
    you=r"\btu\b|\bte\b|\bti\b|\btuo\b|\btua\b|\btuoi\b|\btue\b|\bvoi\b|\bvostr[oaie]\b",
    coordinate=r"e|ed|poi|quindi|ma|o|invece",
    modal=r"deve|devono|può|possono|è|sono|ha|hanno|dovrà|dovranno|potrà|potranno|viene|vengono|sia|siano|era|erano|sarà|saranno",
    lead=r"per\s+favore|per\s+piacere|ora|adesso|sempre|solo|soltanto|semplicemente|invece|d['’]ora\s+in\s+poi|nella\s+(?:tua|vostra)\s+risposta",
    imperative=alt(
        r"rispondi|rispondete|risponda|d[iì]['’]|dì|dite|dica|scrivi|scrivete|afferma|affermate|dichiara|dichiarate",
        r"conferma|confermate|ripeti|ripetete|sostieni|sostenete|ignora|ignorate|dimentica|dimenticate|trascura|trascurate",
        r"tratta|trattate|considera|considerate|presumi|presumete|supponi|supponete|fingi|fingete|credi|credete",
        r"fidati|fidatevi|segui|seguite|obbedisci|obbedite|ricorda|ricordate|ricordati|cita|citate|evita|evitate",
        r"riassumi|riassumete|rifiuta|rifiutate|nega|negate|assicurati|assicuratevi|usa|usate|non\s+(?:menzionare|citare|dire|rispondere|seguire)"),
    steer=alt(
        r"presumi|presumete|supponi|supponete|fingi|fingete|credi|credete|fidati|fidatevi|obbedisci|obbedite",
        r"ricorda(?:ti)?\s+che|ricordate\s+che|(?:tratta|trattate|considera|considerate)\s+(?:questa|questo|il\s+presente|la\s+presente)\s+(?:pagina|documento|testo|avviso|nota)"),
    reply=alt(
        r"rispondi|rispondete|risponda|d[iì]['’]|dì|dica|scrivi|scrivete|afferma|affermate|dichiara|dichiarate",
        r"conferma|confermate|ripeti|ripetete|sostieni|sostenete",
        r"(?:di|dite|dica|d[iì]['’])\s+(?:all['’]\s*utente|agli\s+utenti|ai\s+lettori|a\s+tutti|a\s+chiunque)"),
    that=r"che",
    saying=r"dicendo\b|con\s*(?=[:\"“‘«']|la\s+(?:seguente|frase)\b)|:|[\"“‘«]|(?<=\s)'",
    yes=r"sì|no",
    infinitive=r"rispondere|dire|affermare|dichiarare|scrivere|confermare|sostenere",
    must=r"\b(?:(?:tu|voi)\s+)?(?:devi|dovete|dovrai|dovrete)\s+(?:(?:ora|sempre|solo|soltanto|semplicemente)\s+)*",
    told=alt(
        r"\b(?:la|l['’])\s*(?:unica\s+)?risposta\s+(?:corretta|giusta|esatta|vera|attesa|ufficiale)(?:\s+a\s+\w+(?:\s+\w+){0,6})?" + ASIDE + r"\s+(?:è|sarà|sarebbe|deve\s+essere)\b",
        r"\bl['’]\s*unica\s+risposta\s+(?:possibile\s+)?(?:è|sarà)\b",
        r"\b(?:quando|se|qualora)\s+(?:ti\s+|vi\s+)(?:viene|vengono|venga|chiedono|domandano|chiede)\b[^.!?\n]{0,80}\b(?:rispondi|rispondete|di['’]|dì|dite)\b"),
    override=r"ignora|ignorate|ignorare|dimentica|dimenticate|dimenticare|trascura|trascurate|tralascia|tralasciate|disattendi|disattendete|scavalca|sovrascrivi|non\s+(?:seguire|seguite|considerare|considerate|tenere\s+conto|tenete\s+conto|rispettare|rispettate)",
    det=r"le|la|gli|i|il|lo|l|tutte|tutti|tutto|tue|tuoi|tua|tuo|vostre|vostri|queste|questi|ogni|qualsiasi|qualunque|delle|degli|dei|della|del|alle|ai|agli|precedenti|vecchie|solite|di|sistema",
    earlier=r"istruzion[ei]|regol[ae]|indicazion[ei]|direttiv[ae]|prompt|consegn[ae]|vincol[io]|linee\s+guida|tutto\s+(?:ciò\s+che|quanto)\s+(?:precede|sopra)",
    claim=alt(
        r"\bnuov[ae]\s+istruzion[ei]\b(?!\s+per\s+l['’]\s*uso\b)",
        r"\b(?:messaggio|prompt|istruzion[ei]|nota)\s+(?:di|del)\s+sistema\b",
        r"\b(?:nota|messaggio|istruzion[ei]|avviso|promemoria|avvertenza|comunicazione)\s+(?:per|a|alla|al|agli|ai|all['’])\s*(?:l['’]\s*|il\s+|lo\s+|gli\s+|i\s+)?(?:" + _MODEL_IT + r")\b(?!\s+(?:sistem\w*|per\s+finalità)\b)"),
)

# Function words the keyword index leaves out (index.analysis); legal words ("shall", "not") stay.
STOPWORDS = """il lo la i gli le un uno una di a da in con su per tra fra e o ed è sono del dello della
        dei degli delle al allo alla ai agli alle dal dallo dalla dai dagli dalle nel nello nella nei
        negli nelle sul sullo sulla sui sugli sulle che chi cui non si come quale quali questo questa
        questi queste quello quella mio mia miei mie nostro nostra loro suo sua suoi sue"""

# What kind a provision is, from its words (retrieve.follow: the end of a reference a question asks for):
# a penalty, an exception, a remedy, a time limit, a start date, the act's own entry into force; and the word
# of a duty a penalty punishes.
KINDS = {
    "penalty": r"\b(?:sanzion|ammend)",
    "exception": r"\b(?:in deroga|non si applica|limitar)",
    "remedy": r"\b(?:ricorso|reclamo|risarcimento)",
    "deadline": r"\b(?:entro\s+(?:\w+\s+){0,2}(?:ore|giorni|settimane|mesi|mese|anni?)|senza\s+ingiustificato\s+ritardo|non\s+oltre)\b",
    "date": r"\b(?:si applica(?:no)? a decorrere|entra in vigore)",
    "whole_act": r"\bpresente\s+(?:regolamento|direttiva)\s+entra\s+in\s+vigore",
    "sets_aside": r"non\s+si\s+applica(?:no)?",
    "derogates": r"in\s+deroga\s+(?:al|ai|alla|alle)",
}

# Words left out of a recurring phrase before its initials are read as an acronym (answer.gate:
# "data protection officer" → DPO).
PHRASE_STOP = "de di del della dei degli delle e o la le il lo gli"

# corpus.formats.eurlex: the word a section heading inside an annex opens with
# ('Sezione A'), the title of a definitions article.
EURLEX = {
    "annex_section": r"sezione",
    "definitions_title": "definizioni",  # a definitions article's title, lower-cased ('Definizioni')
}

# verify (signals, check, claims, support): numbers written in words, units, the names of acts, what a
# recital is said to state.
# Number words by value: verify.signals writes them as digits; Italian writes a compound as one word
# ('settantadue').
NUMBER_WORDS = {
    "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7, "otto": 8, "nove": 9, "dieci": 10,
    "undici": 11, "dodici": 12, "tredici": 13, "quattordici": 14, "quindici": 15, "sedici": 16, "diciotto": 18,
    "venti": 20, "ventiquattro": 24, "trenta": 30, "quaranta": 40, "cinquanta": 50, "sessanta": 60,
    "settanta": 70, "settantadue": 72, "ottanta": 80, "novanta": 90, "cento": 100,
}
NUMBER_SCALES = "milioni miliardi"
MODAL_CLASSES = {"permission": "può possono"}
# What follows a modal without being the verb it governs ('deve essere motivata': the verb is the participle)
MODAL_NOT_VERB = "essere avere non anche solo applicarsi applicare"
# verify.check.quantities: number words read as a count before a unit of time ('un mese'), scale words
# after a number, the units by name.
UNIT_NUMBERS = {"uno": 1, "un": 1, "una": 1, "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7,
                "otto": 8, "dieci": 10, "dodici": 12, "quindici": 15, "venti": 20, "trenta": 30}
MULTIPLIERS = {"milioni": 10**6, "milione": 10**6, "miliardi": 10**9}
QUANTITY_UNITS = {
    "percent": r"per\s+cento",
    "hour": r"ore|ora",
    "working day": r"giorni\s+lavorativi",
    "day": r"giorni|giorno",
    "week": r"settimane|settimana",
    "month": r"mesi|mese",
    "year": r"anni|anno",
}
# References to structure are not quantities ('paragrafo 2', 'articoli 5 e 6', 'GU L 119').
NOT_QUANTITIES = {
    "part": r"paragraf[oi]|punt[oi]|lettera|capo|sezione|allegat[oi]|considerando|articol[oi]|GU",
    "joined": r"e|a",
    "series": r"UE|CE|CEE",
    "number_sign": r"n\.",
}
# verify.check.split_sentences: abbreviations whose full stop does not end a sentence ('artt.', 'lett.').
SENTENCE_SPLIT = {"abbreviation": r"artt|n|par|lett|co|ss"}
# verify.claims: the names of acts, by the corpus that is that act (case as written).
ACT_MENTIONS = {
    "gdpr": r"GDPR",
    "ai-act": r"regolamento\s+sull'IA|legge\s+sull'IA",
}
# verify.support: what states an obligation (a recital states none), and the words that report a recital.
RECITAL_CLAIMS = {
    "obligation": r"\b(?:deve|devono|è\s+tenut\w|sono\s+tenut\w|è\s+obbligat\w|sono\s+obbligat\w"
                  r"|è\s+vietat\w|sono\s+vietat\w|obbligo)\b",
    "reported": r"\b(?:considerando|spiega|osserva)\b",
}

# citations (citations.grammar, citations.references, corpus.checks): how a provision is named and pointed at
# (en.py says what each kind holds).
CITATION_HEADS = (
    ("article", True, r"articoli|artt\."),
    ("article", False, r"articolo"),
    ("article", False, r"art\.|art(?=\s*\d)"),
    ("annex", True, r"allegati"),
    ("annex", False, r"allegato"),
    ("recital", True, r"considerando"),  # singular and plural alike
)
CITATION = {
    "and": r"e|ed|o",
    "range": r"a",
    "paragraph": r"paragraf[oi]|comma",
    "point": r"punt[oi]|letter[ae]|lett?\.",
    "ordinal": r"primo|secondo|terzo|quarto|quinto|ultimo",
    "subparagraph": r"comma",
    "page": r"pag\.",
    "chapter": r"Capo",
    "title": r"titolo",
}
# An article inserted after another: 'articolo 5 bis' is Article 5a (the letter each Latin word stands
# for; 'nonies' is another spelling of 'novies').
NUMBER_SUFFIXES = {"bis": "a", "ter": "b", "quater": "c", "quinquies": "d", "sexies": "e", "septies": "f",
                   "octies": "g", "novies": "h", "decies": "i", "nonies": "h"}
# EUR-Lex style ('listed': 'Articolo 5, paragrafo 1, lettera f)', 'Allegato III, punto 4, lettera a)'):
# a lettered first point is a 'lettera', every other level a 'punto'.
LABELS = {"style": "listed", "article": "Articolo", "annex": "Allegato", "recital": "Considerando",
          "paragraph": "paragrafo", "letter": "lettera", "point": "punto"}
REFERENCES = {
    "of_act": r"del|dello|della|dei|degli|delle",
    "act": r"Regolamento|Direttiva|Decisione",
    "union": r"UE|CE|CEE",
    "number_sign": r"n\.",
    "series": r"CE|UE|CEE|GAI",
    "treaty": r"Trattato|Carta",
    "treaty_short": r"TFUE|TUE",
    "that_act": r"(?:quel(?:la|lo)?|detto|tale)\s+(?:regolamento|direttiva)\b",
    "this_act": r"(?:del|dello|della)\s+presente\s+(?:regolamento|direttiva)",
    "chapters": r"capi",
    "chapter_section": r"sezione",
    "chapter_section_of": r"del",
    "list_and": r"e|o",
    "list_to": r"a",
    "paragraph": r"paragraf[oi]",
    "of_article": r"del|della",
    "article": r"articolo",
    # 'articoli da 102 a 109': a range opened by 'da' (read as 'articoli 102 a 109').
    "range_heads": r"articoli|paragrafi",
    "range_from": r"da",
    "amending": r"Modific(?:a|he)\s+(?:a|al|del|della|dell['’])",
}
CHECKS = {"mention": r"articol[oi]|allegat[oi]", "definitions_title": "definizioni"}

# index.vocabulary (the support check's equivalents): a sentence's term counts as in the cited text when
# the text has it or a word of its group; one group per line, as the groups were measured.
EQUIVALENTS = """azienda aziende impresa imprese società ditta organizzazione organizzazioni titolare
        responsabile fornitore fornitori
        cliente clienti utente utenti persona persone interessato interessati consumatore consumatori
        dipendente dipendenti lavoratore lavoratori cittadino cittadini
        vietare vieta vietato vietata vietati vietate divieto proibire proibito
        sanzione sanzioni multa multe ammenda
        conservare conserva conservato mantenere mantiene registro registri
        cancellare cancella cancellazione rimuovere rimuove rimozione
        chiedere chiede richiesta richieste domanda"""

# index.vocabulary (the search's plain words): a line's plain words are searched as the statutory words after
# '→' too; a group goes on over lines indented further.
SEARCHED_AS = """
        azienda aziende impresa imprese società ditta organizzazione organizzazioni
            → titolare responsabile fornitore fornitori
        cliente clienti persona persone dipendente dipendenti lavoratore lavoratori cittadino cittadini
            → utente utenti interessato interessati consumatore consumatori
        proibire proibito
            → vietare vieta vietato vietata vietati vietate divieto
        multa multe
            → sanzione sanzioni ammenda
        mantenere mantiene
            → conservare conserva conservato registro registri
        rimuovere rimuove rimozione
            → cancellare cancella cancellazione
        chiedere chiede domanda
            → richiesta richieste"""

# retrieve.search (TITLED_ANSWERS): the titles of the scope, amending and final articles.
ANSWER_TITLES = {
    "scope": r"\bambito\s+di\s+applicazione\b",
    "amendments": r"^modific[ah]e?\s+(?:del\s+regolamento|della\s+direttiva|della\s+decisione|dei\s+regolamenti|"
                  r"delle\s+direttive)\b",
    "application": r"\bentrata\s+in\s+vigore\b",
}

# retrieve.ranker: what a provision's title says it is about.
TITLE_TOPICS = {
    "application": r"entrata in vigore|applicazione",
    "penalty": r"sanzion|ammend",
    "exception": r"deroga|eccezion|limitazion",
}

# Month names, as a date is written ('25 maggio 2018').
MONTHS = "gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre"

# answer.extractive, answer.pointers (see the English pack).
QUOTES = {
    "period_words": r"\b(?:senza\s+ingiustificato\s+ritardo|immediatamente|tempestivamente)\b",
    "reverses": r"\b(?:non si applica|in deroga|tuttavia)\b",
    "paragraph_words": r"il paragrafo|i paragrafi",
    "list_words": r"e|o",
    "not_apply": r"non si applica",
    "point_words": r"lettera|lettere",
    "point_list_words": r"e|o",
    "mechanism": r"\b(?:pubblic\w+|elenco|registro|banca dati|decide|atti di esecuzione|design\w+|nomin\w+|"
                 r"presied\w+|istitui\w+)\b",
}

# Acronyms common in questions that name no act.
ACRONYMS = "IA PMI UE ONG"

# index.analysis: the Snowball stemmer (PyStemmer) the keyword index and the support check stem this language with.
STEMMER = "italian"
