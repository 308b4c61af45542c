"""English: what pincite knows of the language (pincite.languages)."""

from pincite.languages.injection import ASIDE, InjectionWords, alt

# What a question asks for (retrieve.cues). 'How long' and 'what period' ask for no number: the law often
# answers them without one ('no longer than is necessary', 'without undue delay').
QUESTION = {
    "asks_number": r"\bhow\s+(?:many|much)\b|\b(?:what|which)\b(?:\s+[\w'’-]+){0,3}?\s+"
                   r"(?:rate|percentage|amount|sum|figure|number)\b",
    # A fine asked for is an amount too (the answer type `amount`).
    "asks_fine": r"\b(?:what|which)\b(?:\s+[\w'’-]+){0,3}?\s+fines?\b",
    "asks_rate": r"\b(?:rates?|percentages?)\b",
    "asks_list": r"^(?:(?:so|and)\s+)?(?:which|what)\s+(?:are|were)\b|^(?:(?:so|and)\s+)?which\s+[\w'’-]+s\b|"
                 r"^(?:(?:so|and)\s+)?which\s+[\w'’-]+\s+[\w'’-]{2,}s(?=\s+(?:are|were|must|shall|should|may|can|do|have|"
                 r"need|apply|count|fall|qualify)\b|\s*\?)|"
                 r"^(?:(?:so|and)\s+)?what\s+(?:[\w'’-]+\s+){0,3}?(?:rights|bases|grounds|conditions|practices|"
                 r"obligations|duties|requirements|information|elements|criteria|principles|measures|categories|"
                 r"types|kinds|details|things|steps|cases|situations|exceptions|tasks|powers)\b|"
                 r"\bwhat\s+(?:must|should|does|do|shall)\s+(?:[\w'’-]+\s+){1,6}?(?:contain|include|cover|list|"
                 r"set\s+out|state|specify)\b|\blist\s+(?:of\s+)?(?:the|all)\b|^list\b",
    # 'When' alone asks for a condition as often as for a time ('When is a controller required to consult…?').
    "asks_period": r"\bhow\s+(?:quickly|soon|fast|long|promptly)\b|\bby\s+when\b|\bwithin\s+(?:what|which|how)\b"
                   r"|\b(?:what|which)\s+(?:deadline|time\s+limit|period|time\s+frame)\b|\bdeadline\b|\btime\s+limit\b"
                   r"|\bhow\s+many\s+(?:hours|days|weeks|months|years)\b",
    # The day a rule starts to apply, not any 'when' ('When does a controller have to consult…?').
    "asks_from_when": r"\b(?:(?:from|since|as\s+of|starting)\s+(?:when|what\s+date|which\s+date)|appl(?:y|ies)\s+from|"
                      r"start(?:s|ed)?\s+to\s+apply|in\s+force|entry\s+into\s+force|enter(?:s|ed)?\s+into\s+force|"
                      r"came\s+into\s+force)\b",
    # A second ask: the question words, the auxiliaries, the conjunctions and prepositions that join it.
    "ask_word": r"what|which|how|when|who|whom|whose|where|why|whether",
    "auxiliary": r"can|could|do|does|did|is|are|was|were|will|would|must|should|shall|may|might|has|have",
    "conjunction": r"and|or|but",
    "joiner": r"and",
    "preposition": r"by|to|for|from|in|on|with",
    "if": r"if",
    "subject": r"it|they|we|i|you|he|she|there",
    # Facts a statute never holds (retrieve.cues.outside_law): what is so now, what happened.
    "now": r"\b(?:current(?:ly)?|presently|at present|right now|today|to date|so far|as of now)\b",
    # 'Current' of the law's own text ('the current rules') is no fact of the world.
    "law_now": r"\bcurrent(?:ly)?\s+(?:definition|rules?|wording|text|law|requirements?|obligations?)\b",
    # What an act does to other acts, which its final provisions state.
    "law_acts": r"\b(?:repeal(?:ed|s)?|amend(?:ed|s)?|replac(?:e|ed|es)|supersed(?:e|ed|es))\b",
    # A past event is asked with a past or perfect auxiliary right after a question word, itself perhaps
    # after a preposition. 'When' and 'where' are left out: they open subordinate clauses too.
    "past_preposition": r"in|within|by|for|from|under|to",
    "past_question_word": r"what|which|who|whom|how\s+(?:much|many|long|often)|why",
    "past_auxiliary": r"(?:did\b|(?:was|were)\s+(?:[\w'’-]+\s+){0,3}?[\w'’-]+(?:ed|en|wn|ht|un|id)\b"
                      r"|(?:has|have)\s+(?!to\b)(?:[\w'’-]+\s+){0,2}?[\w'’-]+(?:ed|en|wn|ht|un|id)\b)",
    # 'Has the Commission already published…?', 'Have any providers been fined yet?': only as the question.
    "already": r"^(?:(?:and|so|but|e|ma)\s+)?(?:has|have|hasn['’]t|haven['’]t)\b(?:\s+[\w'’-]+){0,6}?\s+"
               r"(?:already|(?<!not\s)yet)\b",
    # A modal perfect ('what should that contract have covered') asks what the law required.
    "modal_perfect": r"\b(?:should|would|could|must|might|ought)\b(?:\s+[\w'’-]+){0,3}?\s+have\b",
}

# What a question asks for, when its words say so plainly (Query.intent; the ranker reads it).
INTENTS = {
    "definition": r"\b(?:what (?:is|are|does)\b.*\b(?:mean|defin)|defin(?:e|es|ed|ition)|what counts as|meaning of)\b",
    "penalty": r"\b(?:fines?|penalt(?:y|ies)|sanctions?|punish)\b",
    "date": r"\b(?:from when|since when|when does|when do|apply from|applies from|enter into force|entry into force)\b",
    "exception": r"\b(?:exceptions?|exempt(?:ed|ion)?|derogat(?:e|ion)s?|unless|does not apply)\b",
}

# What a question asks for that a provision leaves to another one it cites or that cites it (Query.hops,
# retrieve.follow): the fine, the exception, the remedy, the time limit, the definition, the annex, the date.
HOPS = {
    "penalty": r"\b(?:fin(?:e|es|ed)|penalt(?:y|ies)|sanction(?:s|ed)?|punish\w*|liab(?:le|ility))\b",
    "exception": r"\b(?:exceptions?|exempt\w*|derogat\w*|unless|does not apply|do not apply|restrict\w*|"
                 r"(?:national|member state) law|allow\w*\b[^.?]{0,40}\bnot to)\b",
    "remedy": r"\b(?:court|sue|judicial|complain\w*|lodge|remed(?:y|ies)|appeal|compensation)\b",
    # 'How long' alone asks as often how long data may be kept, which no reference answers: it counts only
    # before 'to' and a verb.
    "deadline": r"\b(?:how\s+(?:long|quickly|soon|fast)\b[^.?]{0,40}?\b(?:to|until|before)\s+\w+|deadlines?|"
                r"time[- ]limits?|within\s+how\s+(?:many|long|much)|by\s+when)\b",
    "definition": r"\b(?:defin\w+|count(?:s)? as|meaning of|mean[st]?|considered|treated as)\b",
    "annex": r"\b(?:annex(?:es)?|high[- ]risk|listed)\b",
    "date": r"\b(?:from when|since when|when (?:does|do|will|did)|apply from|applies from|start(?:s)? to apply|"
            r"(?:from|by|on|as of)\s+(?:what|which)\s+date|enter(?:s|ed)? into force|came into force|"
            r"entry into force)\b",
}

# How a question names the act it is asked of: 'the Regulation', 'the AI Act', 'the rules', 'the DSA'.
_THE_ACT = r"(?:regulation|act|directive|gdpr|rules|law|(?-i:[A-Z]{2,6}))"

# What kind of thing the answer is (retrieve.query.answer_type), from the question sentence. A stage
# assembles `names` and `scope` from the pieces; the others are whole patterns.
ANSWER = {
    # a frame the question opens with ('Under the GDPR, …'), left out before its type is read
    "frame": r"^(?:under|according\s+to|in)\s+[^,]{1,60},\s*",
    # who holds an office
    "person": r"^(?:and\s+)?who\s+(?:is|are|was|were)\s+(?:(?:currently|now|presently)\s+)?(?:the\s+)?"
              r"(?:(?:current|present|new|first)\s+)?(?:chair|head|president|director|"
              r"executive\s+director|supervisor|commissioner|members?)\b|"
              r"^who\s+(?:currently\s+)?(?:chairs|heads|leads|runs|directs)\b|"
              r"\bname\s+of\s+the\s+(?:person|chair|head)\b",
    # named things of the world (countries, companies, standards…), which a statute does not list: the
    # question word, a few words (not a verb: 'What must providers do…?' asks a duty), the kind, and no
    # duty after it
    "names_opening": r"(?:so|and|but)",
    "names_question_word": r"which|what",
    "names_verb": r"must|shall|should|may|can|could|do|does|did|have|has|had|are|is|will|would|need",
    "named_kind": r"(?:third\s+)?countr(?:y|ies)|states?|territor(?:y|ies)|companies|company|firms?|businesses"
                  r"|platforms|gatekeepers|providers|organi[sz]ations|standards?|codes?\s+of\s+(?:practice|conduct)"
                  r"|tools?|products?",
    "names_duty": r"must|shall|may|can|should|have\s+to|need|are\s+required",
    "names_list": r"\blist\s+of\s+(?:the\s+)?",
    # from when the act applies ('When does the GDPR apply?'): its final article answers
    "application": r"^(?:from\s+|since\s+)?(?:when|what\s+date|which\s+date)\s+(?:does|did|will|do|is|was)\s+"
                   r"(?:the\s+|this\s+)?"
                   rf"(?:[\w-]+\s+){{0,3}}?(?:{_THE_ACT}|it)\s+(?:start\s+to\s+|begin\s+to\s+|first\s+)?"
                   r"(?:apply|applicable|enter\s+into\s+force|come\s+into\s+force|take\s+effect)\b(?!\s+to\b)|"
                   r"^(?:from|as\s+of|since)\s+(?:what|which)\s+date\s+(?:does|do|is)\s+(?:the\s+|this\s+)?"
                   rf"(?:[\w-]+\s+){{0,3}}?{_THE_ACT}\s+appl(?:y|icable)\b(?!\s+to\b)",
    # which acts it amends: its amending articles answer
    "amendments": r"\b(?:which|what)\s+(?:other\s+)?(?:acts?|regulations?|directives?|laws?|legislation|legal\s+acts?)\s+"
                  r"(?:does|did|do|will)\s+(?:the\s+|this\s+)?(?:[\w-]+\s+){0,3}?(?:amend|modify|change)\b",
    # whether the act applies to a case ('Does the GDPR apply to us?'): its scope article answers; not a
    # question for the date ('When does the GDPR apply?'), which opens so
    "scope_not_opening": r"(?:from\s+|since\s+)?when\s+(?:does|do|did|will|would)\b",
    "scope": r"\b(?:does|do|did|would|will|could|can)\s+(?:the\s+|this\s+|that\s+)?(?:[\w-]+\s+){0,3}?"
             rf"(?:{_THE_ACT}|it)\s+(?:still\s+|also\s+|even\s+|really\s+)?(?:apply|cover)\b|"
             r"\b(?:is|are|was|were)\s+(?:[\w'’-]+\s+){0,4}?(?:covered|governed)\s+by\s+(?:the\s+|this\s+)?"
             rf"(?:[\w-]+\s+){{0,3}}?{_THE_ACT}\b|\bfall(?:s)?\s+(?:under|within|outside)\s+(?:the\s+|its\s+)?"
             r"(?:scope\b|(?:gdpr|regulation|act|rules)\s*\?)|\b(?:within|outside)\s+(?:the|its)\s+scope\b",
    "date": r"^(?:from\s+|since\s+|by\s+|until\s+)?when\b|\b(?:what|which)\s+date\b",
    "duty": r"\b(?:must|shall|have\s+to|has\s+to|need\s+to|obliged|obligations?|duty|duties|required)\b",
    "yes_no": r"^(?:is|are|does|do|can|may|must|could|should|will|am|was|has|have)\b",
    # a short question that refers back to the conversation: it opens with a connective or leans on a
    # pronoun ('how long do they have?'); not 'is it lawful to …', whose 'it' is nobody
    "follow_up_opening": r"^\s*(?:and|or|but|also|what about|how about|same|then)\b",
    "refers_back": r"\b(?:they|them|their|these|those)\b|\bits?\b(?!\s+(?:\w+\s+){0,2}(?:to|that|for)\b)"
                   r"|\b(?:this|that)\s*[?.!]*$",
}

# Acts by the names people use for them (retrieve.cues: a question that asks what one of these says is
# not answered by another act): written with capitals ('the Digital Services Act'), or as acronyms — the
# Union's own, and 'DSGVO', German speakers' name for the GDPR, met in English questions too.
ACT_NAMES = {
    "general data protection regulation": "2016/679", "digital services act": "2022/2065",
    "digital markets act": "2022/1925", "data governance act": "2022/868", "cyber resilience act": "2024/2847",
    "artificial intelligence act": "2024/1689", "law enforcement directive": "2016/680",
    "gdpr": "2016/679", "dsgvo": "2016/679", "led": "2016/680", "eudpr": "2018/1725",
    "eprivacy": "2002/58", "dsa": "2022/2065", "dma": "2022/1925", "dga": "2022/868", "data act": "2023/2854",
    "nis2": "2022/2555", "nis": "2016/1148", "dora": "2022/2554", "cra": "2024/2847", "mica": "2023/1114",
    "ai act": "2024/1689", "eidas": "2014/910", "psd2": "2015/2366", "ehds": "2025/327",
}

# How acts are named (retrieve.cues): their kind before a number ('Regulation (EU) 2016/679'), their kind
# after a capitalised title ('the Digital Services Act'; case matters), the words that make a named act
# an object ('complies with the GDPR') and the question words a title does not begin with.
ACTS = {
    "act_kind": r"Regulation|Directive|Decision",
    "act_title_kind": r"Directive|Regulation|Act|Convention",
    "mention_word": r"with|to|than|and|or",
    "mention_article": r"the\s+",
    "title_skip": r"the|what|which|under|does|how|is|are",
    # answer.gate: the words that say an act is the Union's ('EU AI Act', 'the EU's GDPR') before its own name
    "union_prefix": r"(?:the\s+)?(?:eu['’]?s?|european|union)",
}

# The frames of a question that asks what a term means (retrieve.definitions); group "term" is the rest,
# tried in order. What may follow the term without changing it, and the articles before it.
DEFINITION_FRAMES = (
    r"^(?:so\s+)?(?:what|who)\s+(?:exactly\s+)?(?:is|are)\s+(?:meant\s+by\s+)?(?P<term>.+?)$",
    r"^(?:what|who)\s+(?:counts?|qualifies|qualify)\s+as\s+(?P<term>.+?)$",
    r"^what\s+(?:does|do)\s+(?:the\s+(?:term|word|expression)\s+)?(?P<term>.+?)\s+mean$",
    r"^what\s+is\s+the\s+(?:legal\s+)?(?:definition|meaning)\s+of\s+(?P<term>.+?)$",
    r"^how\s+(?:does|do|is|are)\s+(?:the\s+\S+(?:\s+act)?|this\s+regulation|it|the\s+law)?\s*(?:define|defined)\s+"
    r"(?P<term>.+?)$",
    r"^how\s+(?:is|are)\s+(?P<term>.+?)\s+defined$",
    r"^(?:define|definition\s+of|meaning\s+of)\s+(?P<term>.+?)$",
)
DEFINITION = {
    "tail_lead": r"under|in|according\s+to|for\s+the\s+purposes\s+of|as\s+defined\s+in|within|by",
    "tail_word": r"exactly|legally|here|then",
    "article": r"a|an|the",
}

# What the support check reads (verify.signals): negations, modal words, exceptions turned around,
# the actors of a rule, comparators in words.
VERIFY = {
    "negations": r"\b(?:not|no(?!\s+\d)(?![-‐])|never|none|nothing|nobody|neither|nor|cannot|unable|unless|except|without|n't|prohibit\w*|ban(?:s|ned)?|"
                 r"forbid\w*|even\s+(?:where|if|when|though)|regardless|irrespective|notwithstanding|exempt\w*|"
                 r"only\s+(?:if|where|when))\b",
    "anti_exception": r"\beven\s+(?:where|if|when|though|for)\b|\bregardless\b|\birrespective\b|\balways\b|\bin\s+(?:all|"
                      r"every)\s+(?:cases?|circumstances?)\b|\bin\s+any\s+(?:event|case)\b|\bunder\s+no\s+circumstances\b|\bwithout\s+exception\b|"
                      r"\bat\s+all\s+times\b|\bremains?\s+liable\b",
    "obligation": r"\b(?:shall|must|(?:is|are)\s+(?:required|obliged|bound|to\s+(?!result\b)\w+)|ha(?:s|ve)\s+to|needs?\s+to|"
                  r"obligat(?:ed|ory)|obligations?\s+to|duty|mandatory|(?<!\bmay\s)(?<!\bcan\s)(?<!\bto\s)requires?)\b",  # 'may require X to …' is a power
    "permission": r"\b(?:may(?!\s+\d)|shall\s+only|not\s+be\s+(?:prevented|precluded)\s+from|(?:is|are)\s+(?:free|allowed|permitted)|optional|discretion|ha(?:s|ve)\s+the\s+option|"
                  r"choose|can\s+choose|voluntar\w+)\b",
    "modal_verb": r"\b(?P<modal>shall|must|may|can|cannot|ha(?:s|ve)\s+to|needs?\s+to|(?:is|are)\s+(?:required|"
                  r"obliged)\s+to)(?P<neg>\s+(?:not|neither|never))?(?:\s+(?:also|only|either|still|at\s+least|"
                  r"\w+ly))?(?:\s*,[^,;:.]{1,120},)?\s+(?P<verb>[a-z]{3,})\b",  # ('may, after consultation …, issue')
    # a lead-in that ends in its modal ('the Board may in particular:'): each point's first verb takes it
    # a second verb joined right after the modal's ('may establish and make public', 'shall draw up and publish')
    "joined_verb": r"(?:\s+(?:up|out|down))?\s+(?:and|or)\s+(?P<verb>[a-z]{3,})\b",
    "modal_lead_in": r"\b(?P<modal>shall|must|may|can)(?P<neg>\s+not)?(?:\s+[a-z]+){0,2}\s*:[ \t]*\n"
                     r"(?P<points>(?:[ \t]*\(\w{1,4}\)\s+[^\n]*(?:\n|$))+)",
    "prohibited": r"\b(?:(?:is|are|be)\s+)?(?:prohibited|banned|forbidden)\b",
    # a sentence whose subject is denied: its modals prohibit ('Neither the body nor its staff shall represent …')
    # ('No less frequently than annually, …' opens with a comparator, not a negative subject)
    "negative_subject": r"^\W*(?:\(\w+\)\s*)?(?:no(?!\s+(?:less|more|later|earlier|fewer|longer|sooner)\b)|"
                        r"nothing|neither|none)\b",
    # not 'Should the population rise by 5 %, …': an inverted 'if'
    "should": r"(?<!^)(?<!^\s)\bshould\b(?!\s+(?:the|a|an|any|it|they|there|such|this|that)\b[^.;]*,)",
    "denial": r"\b(?:not|never|neither|nor|cannot|no)\s+(?:(?:be|been|being|have|has|any|a|an|the|to|also|"
              r"either|longer|general|obligation|duty|requirement)\s+)*(?P<word>[a-z]{4,})\b",
    "negated_verb": r"\b(?:shall|must|may|can|will|does|do|is|are|need|has|have|be)\s+(?:not|neither)\b|\bcannot\b|\bunable\s+to\b|"
                    r"n't\b|\bnever\b|"
                    r"\bno\s+(?:longer|obligation|need)\b|\bneed\s+not\b|\bneither\s+[a-z]+\s+nor\b|\bnot\s+to\s+(?!the\b|a\b|an\b|exceed)",
    "modal": r"\b(?:shall|must|may(?!\s+\d)|has\s+to|have\s+to|is\s+required|are\s+required|has\s+the\s+right|"
             r"have\s+the\s+right|is\s+obliged|are\s+obliged|(?:is|are)\s+(?:best\s+placed|responsible|liable|"
             r"entitled))\b",
    "clause_joiner": r"\band\s+(?=(?:must|shall|may|has\s+to|have\s+to|cannot|can|will|is|are|does|do)\b)",
    # what the text says where a sentence says 'regardless of' or 'even if'
    "concession_text": r"\bnotwithstanding\b|\balthough\b|\beven\s+though\b",
    "not_a_negation": r"\b(?:cannot|can\s+not|may\s+not|shall\s+not|must\s+not|does\s+not|do\s+not|not)\s+exceed\b|\b(?:no|"
                      r"not)\s+(?:[a-z]+\s+)?(?:longer|shorter|more|fewer|less|greater|later|earlier|sooner)(?:\s+\w+ly)?\s+than\b|\bnot\s+(?:only|just|merely)\b|"
                      r"\b(?:is|are)\s+not\s+(?:limited|restricted|confined)\s+to\b|\bwithout\s+prejudice\b|"
                      r"\b(?:it\s+)?(?:does|do)\s+not\s+matter\b|\bnot\s+prejudice\w*\b|\bat\s+no\s+(?:\w+\s+)?(?:cost|charge)\b",
    # a saving clause ('without prejudice to', 'shall not affect'), and a sentence's way of saying it ('do not
    # displace', 'does not affect'): the sentence's negation is the text's
    # a sentence that has the text's saving clause block what it leaves untouched ('rules out the possibility' for 'shall
    # not affect the possibility', 'precludes transfers' for 'without prejudice to transfers')
    "blocking": r"\b(?:prevent(?:s|ed|ing)?|preclud(?:e|es|ed|ing)|rul(?:e|es|ed|ing)\s+out|bar(?:s|red|ring)?|block(?:s|ed|ing)?)\b",
    "saving_text": r"\bwithout\s+prejudice\b|\b(?:shall|does|do)\s+not\s+affect\b",
    "saving_said": r"\b(?:does|do|shall|will)\s+not\s+(?:\w+\s+)?(?:displac|affect|prejudic|overrid|replac|limit|restrict|alter|"
                   r"chang)\w*|\b(?:regardless|irrespective)\s+of\b",  # 'regardless of' for 'without prejudice to'
    "negative_clause": r"\bprohibit\w*|\bban(?:s|ned)?\b|\bforbid\w*|^\W*(?:\(\w+\)\s*)?(?:no|nothing|neither)\b|\bno\s+(?:\w+\s+){0,3}(?:shall|"
                       r"may|is|are|will)\b|\bno\s+longer\b",
    "qualified": r"\b(?:providers?|deployers?|operators?|users?)\s+of\s+(?:an?\s+|the\s+|"
                 r"such\s+)?((?:[\w-]+\s+){0,2}[\w-]+)",
    "ceiling": r"\bat\s+(?:the\s+)?most\b|\bat\s+the\s+latest\b|\bby\s+\d+$|\bno\s+(?:more|later|longer)\s+(?:\w+ly\s+)?than\b|\bnot\s+(?:later|more|"
               r"longer)\s+(?:\w+ly\s+)?than\b|\bup\s+to\b(?!\s+date)|\bmaximum\b|\bwithin\s+(?:\d|a\b|an\b|the\s+time)|"
               r"(?<!\bno\s)(?<!\bnot\s)(?<!\bnot\sbe\s)\b(?:less|fewer)\s+than\b|\bbelow\b|\bceiling\b|\bcap(?:s|ped)?\b|\b(?:not|"
               r"cannot|never)\s+(?:\w+\s+)?exceed\w*",
    # the verb that reports what a provision says, after its label ('Article 36(2) provides that')
    "says": r"(?:provides|says|states|stipulates|reads|specifies|sets\s+out|lays\s+down|lists)(?:\s+that)?",
    # the verb between a negation and a comparison ('may not total more than', 'shall not be longer than'): read
    # without it, the bound is the negated comparison's
    "verb_before_than": r"(?:(?<=\bnot\s)|(?<=\bnever\s))[a-z]+\s+(?=(?:more|less|fewer|greater|longer|later|earlier|sooner)\s+than\b)",
    # a bound that leaves its number out ('more than 3'; not 'not more than 3', 'cannot exceed 3')
    "strict_bound": r"(?<!\bno\s)(?<!\bnot\s)(?<!\bnot\sbe\s)\b(?:more|less|fewer|greater|longer)\s+than\b|"
                    r"(?<!not\s)(?<!never\s)(?<!n't\s)\bexceed(?:s|ing)?\b|\babove\b|\bbelow\b",
    "floor": r"\bat\s+least\b|\bno[t]?\s+(?:be\s+)?(?:less|fewer)\s+than\b|\bminimum\b|\bno[t]?\s+(?:earlier|sooner)\s+than\b|\bmore\s+than\b|"
             r"\bat\s+the\s+earliest\b|"
             r"\bexceed\w*|\babove\b|\bgreater\s+than\b|\bor\s+more\b|\b(?:after|once)\s+(?:(?:a|the)\s+(?:period|expiry)\s+of\s+)?\d+\s+(?:working\s+)?(?:hour|day|week|month|year)s?\b",
    "as_well": r"\bas\s+well\b|\balongside\b",  # a limit lifted after the words it limits
    "beyond_limit": r"\bnot\s+(?:only|solely|just|merely|exclusively|limited\s+to)\b|\b(?:even\s+|at\s+least\s+)?partly\b|"
                    r"\bpartially\b|\bin\s+part\b",
    "at_will": r"\b(?:it|they|he|she)\s+(?:chooses?|wish(?:es)?|likes?|wants?|sees?\s+fit|deems?\s+fit)\b|"
               r"\bat\s+(?:will|its\s+discretion|their\s+discretion)\b|\bunlimited\b|"
               r"\bwithout\s+(?:any\s+)?limit\w*\b",
    # what the text writes for a sentence's 'whenever they choose': the same or 'at any time'
    "at_will_text": r"\b(?:it|they|he|she)\s+(?:chooses?|wish(?:es)?|likes?|wants?|sees?\s+fit|deems?\s+fit)\b|"
                    r"\bat\s+(?:will|its\s+discretion|their\s+discretion|any\s+(?:time|moment))\b|\bunlimited\b|"
                    r"\bwithout\s+(?:any\s+)?limit\w*\b",
    "may_not": r"\b(?:(?:may|can|shall|must)\s+(?:not|neither|never)|cannot)\b(?!\s+(?:apply|be\s+applied|be\s+(?:prevented|precluded)\s+from))"
               # a negative subject or adverb before the modal ('No provider may …', 'In no event may …')
               r"|\b(?:in\s+no\s+(?:event|case)|under\s+no\s+circumstances|at\s+no\s+time)\s*,?\s+(?:may|can)\b"
               r"|\b(?:no|nobody|none)\b(?!\s+(?:later|earlier|more|less|fewer|longer|sooner|\d))(?:\s+[\w'’-]+){0,7}?\s+(?:may|can)\b",
    "extension": r"exten\w*|prolong\w*|\bby\s+(?:a|an)?\s*$|\b(?:further|additional)\s*$",
    "applies": r"\b(?:shall|must)\s+(?:not\s+)?(?:apply|be\s+applied)\b",
    "empowered": r"\b(?:is|are|(?:shall|must)\s+be)\s+empowered\b",  # a power to act, whatever else the text obliges
    "grants": r"\b(?:shall|will|must)\s+(?:also\s+)?have\s+(?:all\s+of\s+)?(?:the\s+|"
              r"a\s+)?(?:following\s+)?(?:[\w-]+\s+){0,3}?(?:rights?|powers?|jurisdiction|competences?)\b|\b(?:shall|must)\s+be\s+(?:entitled|"
              r"empowered)\b|\b(?:is|are)\s+empowered\b|\bpowers?\b(?:\s+[\w-]+){0,6}?\s+(?:is|are)\s+to\b",
    # a sentence whose duty is to have a power ('are to be equipped with the powers', 'must have jurisdiction'):
    # what a text granting the power says
    "granted_noun": r"\b(?:must|shall|(?:has|have|is|are)\s+to|(?:is|are)\s+required\s+to)\s+(?:be\s+)?(?:[\w-]+\s+){0,4}?"
                    r"(?:rights?|powers?|jurisdiction|competences?)\b",
    # a passive with no agent after the modal ('the data subject has to be told'): its subject does nothing (a duty
    # 'to' act or a responsibility 'for' is the subject's: 'shall be required to', 'shall be responsible for')
    "passive": r"\s+(?:not\s+)?be\s+(?:\w+ly\s+)?(?:[a-z]{3,}(?:ed|en|wn)|told|made|held|sent|kept|set|put|paid|laid|sought|"
               r"brought|done|met|taken)\b(?!\s+(?:to|for)\b)",
    "agent": r"\s+(?:not\s+)?be\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+by\s+(?P<who>(?:[\w-]+\s+){0,3}[\w-]+)",
    "require": r"\b(?:require[sd]?|requiring|oblige[sd]?|obliging|compel\w*)\s+(?P<who>(?:[\w-]+\s+){1,6}?)to\s+[a-z]",
    "only_when": r"\bonly\s+(?:if|where|when|with|after|upon|once|on\s+the\s+basis)\b",
    # a rule the text states only on a condition ('shall be lawful only if …'): its condition word, and the words a
    # sentence keeps the limit with ('only', 'unless', 'on condition that', 'cannot … without', 'requires')
    "only_condition": r"\b(?:only|solely)\s+(?:if|where|when|after|once|upon|following)\b",
    "condition_word": r"\b(?:if|where|when|whenever|after|once|upon|following)\b",
    "condition_limited": r"\b(?:only|solely|exclusively|unless|except|provided\s+that|on\s+(?:the\s+)?condition|conditional\s+(?:on|upon)|"
                         r"as\s+long\s+as|subject\s+to|requires?|required|depends?\s+on|to\s+the\s+extent|in\s+so\s+far|insofar|"
                         r"cannot|may\s+not|must\s+not|shall\s+not|never|as\s+soon\s+as)\b",
    # a permission limited to a purpose ('may use the data solely for monitoring') says what 'shall use the data only for
    # monitoring' says
    "only_for": r"\b(?:only|solely|exclusively)\s+(?:for|to)\b",
    # 'only after', 'only once': a precondition in time, which the text states with 'after', 'prior', 'unless' …
    # ('until' is the opposite: 'may rely on codes until a standard is published')
    "only_after": r"only\s+(?:after|once|upon|following)\b",
    "precondition": r"\b(?:after|prior|upon|unless)\b",
    "but_for": r"[^.;:]{0,80}?\b(?:without|unless|except|save)\b",
    # a negation undone by 'without' ('cannot prepare a draft without first informing the committee') states a
    # precondition, as the text may write it positively ('Before preparing a draft, the Commission shall inform …')
    "denied_but_for": r"\b(?:cannot|(?:may|must|shall|can)\s+not)\s+[^.;:]{0,80}?\b(?:without|before|until|beyond|other\s+than)\b",
    # a condition the text states negatively without a negation word ('fails to address', 'in the absence thereof'),
    # and a sentence's negation inside a condition ('if it does not address', 'where there is no such vendor')
    "negative_condition_text": r"\bfail(?:s|ed|ing)?\s+to\b|\bin\s+the\s+absence\b|\buntil\b",
    "negated_condition": r"\b(?:if|where|when|whenever|unless|as\s+long\s+as|so\s+long\s+as)\b[^,;:]{0,80}?\b(?:not|no|never)\b",
    "doer_noun": r"(?:er|or)s?$",  # 'provider', 'processors': the doer of a verb, not the verb
    # before and after: turned when the sentence puts the other one before the same event ('only after placing the model'
    # for 'Prior to placing the model, … shall appoint'); 'once' in time ('once the contract has been signed') is 'after'
    "before_word": r"\b(?:before|prior\s+to|preceding)\b",
    # what holds until an event does not hold once it has happened ('may rely on codes … until a harmonised standard is
    # published' — 'only once a standard has been published' turns it)
    "until_word": r"\buntil\b",
    "after_word": r"\bafter\b|\bfrom\s+the\s+(?:time|moment)\b|\b(?:day|month|year)s?\s+following\b|\bonce\s+(?=(?:the|they|it|he|she|this|that|an?|\d)\b)",
    "precondition_text": r"\b(?:before|after|prior|upon|unless|only|subject\s+to)\b",
    "not_a_number": r"\b(?:no|any|every|some|this|that|the)\s+one\b|\bone\s+(?:another|or\s+more)\b|\bone\s+by\s+one\b",
    "comparator_shorter": r"whichever\s+is\s+(?:the\s+)?shorter|\bthe\s+shorter\s+of\b",
    "comparator_longer": r"whichever\s+is\s+(?:the\s+)?longer|\bthe\s+longer\s+of\b",
    "comparator_higher": r"whichever\s+is\s+(?:the\s+)?higher|whichever\s+is\s+greater",
    "comparator_lower": r"whichever\s+is\s+(?:the\s+)?lower|whichever\s+is\s+(?:less|smaller)",
    "comparator_at_least": r"\bat\s+least\b|\bno\s+(?:less|fewer)\s+than\b|\bminimum\b",
    "comparator_at_most": r"\bat\s+(?:the\s+)?most\b|\bno\s+(?:more|longer)\s+than\b|\bnot\s+(?:later|more)\s+than|\bup\s+to\b|"
                          r"\bmaximum\b|\bwithin\b|\bnot\s+exceed\w*",
    "negated_before": r"\b(?:not|no|never|nor)\s+(?:\w+\s+)?$",
    # a verb the text negates ('shall not be interpreted as exempting'), for a sentence that states it without
    # any negation ('is to be interpreted as exempting')
    # ('shall not be interpreted as exempting': the verb denied is the one read, so that reading comes first)
    "text_negated_verb": r"\b(?:(?:shall|must|may|can|will)\s+)?not\s+be\s+(?:interpreted|construed|understood|read)\s+as\s+(?P<verb3>[a-z]{4,})\b|"
                         r"\b(?:shall|must|may|can|will|does|do|is|are)\s+not\s+(?:be\s+)?(?P<verb>[a-z]{4,})\b|"
                         r"\bshall\s+neither\s+(?P<verb2>[a-z]{4,})\b",
    # a negative said without a negation word: 'is barred from', 'refrain from', 'are excluded', 'only'
    "negative_said": r"\b(?:prohibit\w*|ban(?:s|ned)?|forbid\w*|barr?(?:ed|s)?\s+from|refrain\w*|avoid\w*|prevent\w*|"
                     r"preclud\w*|exclud\w*|exempt\w*|free\s+(?:from|of)|except\w*|unless|only|solely|outside|neither|"
                     r"nor|none|nothing|never|without|lack\w*|fail\w*|refus\w*|deni\w*|deny|instead|rather|other\s+than|"
                     r"beyond|cease\w*|stop\w*|abstain\w*|not)\b",
    "may_only": r"\b(?:no|not)\s+(?:more|fewer|less|later|earlier|longer)\s+(?:[\w-]+\s+){0,3}?than\b[^.;:,]{0,60}?\b(?:may|can)\b|"
                r"\b(?:may|can)\s+(?:[\w'-]+\s+){0,2}(?:only|solely|exclusively)\b|\b(?:may|can)\b[^.;:,]{0,100}?\b(?:only|solely|exclusively)\b",
    # a verb that denies the one after it: 'fails to comply' is the text's 'does not comply', no assertion of it
    "denying_verb": r"\b(?:fail(?:s|ed|ing)?|refus(?:es|ed|ing|e)|ceas(?:es|ed|ing|e)|omit(?:s|ted|ting)?)\s+to\s+$",
    "limit_word": r"\b(?:only|solely|exclusively)\b",
    "period_qualifier": r"further|additional|consecutive|working",
    "one": r"one|a|an",  # a single period ('one month', 'a year'), as a bound counts it
    "period_unit": r"hours?|days?|weeks?|months?|years?",
    "joined_word": r"and|or|nor",
    "joined_article": r"the\s+|a\s+|an\s+",
    # a duty's and a permission's modal, the whole of a run a sentence puts in place of the text's (verify.alignment.swapped_modal)
    "aligned_duty": r"(?:shall|must|has\s+to|have\s+to|is\s+required\s+to|are\s+required\s+to|is\s+obliged\s+to|are\s+obliged\s+to)",
    # a condition's opening words (an exception, 'unless', is one a summary may leave out: see dropped_condition)
    "aligned_only": r"\b(?:only|solely|exclusively)\b",
    # a negation a sentence adds alone to the clause it follows word for word (verify.alignment.inserted_negation)
    "aligned_negation": r"(?:not|never)",
    "aligned_condition": r"(?:where|if|when|whenever|provided\s+that|in\s+so\s+far\s+as|insofar\s+as|to\s+the\s+extent|only\s+(?:if|where|when))\b",
    "modal_limited": r"\b(?:only|solely|exclusively|not|no|never|neither|nor|unless|cannot)\b",
    "aligned_permission": r"(?:may|can|is\s+allowed\s+to|are\s+allowed\s+to|is\s+permitted\s+to|are\s+permitted\s+to|is\s+entitled\s+to|are\s+entitled\s+to)",
    # a head noun after these refers back to one named before ('such systems'), qualified there
    "back_reference": r"\b(?:such|those|these|that|this|the\s+same|said)\s+$",
    "relative": r"\b(?:whose|who|whom|which|that)\b",
    # a modal right after a conjunction, its subject left out ('is the controller of the database and must give')
    "elided_subject": r"\b(?:and|but)\s+(?:\w+ly\s+)?$",
    # an actor after these words is the complement of a noun ('the representative of a controller', 'documents
    # issued by notified bodies'), not the subject of the verb after it
    "complement": r"\b(?:of|by)\s+(?:(?:the|a|an|any|such|each|other|relevant)\s+)*$",
    # ('only once', 'only the minimum' say what 'once', 'the minimum' say: the word itself limits)
    "only": r"(?<!\bnot\s)\b(?:only|solely|exclusively)\b(?!\s+(?:if|where|when|to\s+the\s+extent|in\s+so\s+far|insofar|as\s+far\s+as|on\s+the\s+basis\s+of|because|"
            r"once|the\s+minimum|a\s+single)\b)",
    # 'at least' said of no number ('shall include at least the following information'): a floor on what the text
    # may limit with 'only'
    "ceiling_unnumbered": r"\bat\s+(?:the\s+)?most\b(?!\s+(?:\w+\s+)?\d)(?!\s+(?:one|two|three|four|five|six|seven|eight|nine|ten|"
                          r"once|twice|a|an)\b)",
    "floor_unnumbered": r"\bat\s+least\b(?!\s+(?:\w+\s+)?\d)(?!\s+(?:one|two|three|four|five|six|seven|eight|nine|ten|"
                        r"once|twice|a|an)\b)",
    "text_only": r"\b(?:only|solely|exclusively|exclusive|sole|limited\s+to|to\s+the\s+extent\s+that|in\s+so\s+far\s+as|insofar\s+as)\b|\b(?:not|no)\b[^.;:]{0,80}?\b(?:without|unless|except)\b",
    # not a frequency ('every year', 'every six months' is 'annually', 'twice a year') nor 'at all times'
    "all": r"\b(?:all(?!\s+times\b)|every(?!\s+(?:\w+\s+)?(?:years?|months?|weeks?|days?|hours?|time)\b)|everyone|"
           r"anyone)\b|^\s*any\b",
    "text_all": r"\b(?:all|every|any|each|whatever|no|anybody|anyone|everybody|everyone|whoever)\b",
    "denied_ban": r"\bnot\s+(?:be\s+)?(?:prohibit\w*|ban\w*|forbid\w*)",
    # the modals that prohibit with a negation: 'must not use' is the text's 'shall not use' (support._negation_explained)
    "prohibiting": r"(?:must|shall|may|can)\s+not|cannot",
    # a duty the sentence says there is not, with the verb it lifts ('does not have to take', 'need not notify')
    "lifted_duty": r"\b(?:(?:does|do|is|are)\s+not\s+(?:have|need|required|obliged|bound)|need\s+not|(?:is|are)\s+under\s+no\s+"
                   r"obligation|(?:has|have)\s+no\s+(?:obligation|duty))\s+(?:to\s+)?(?:\w+ly\s+)?(?P<verb>[a-z]{3,})\b",
    # what makes a text's duty one that does not always hold: a sentence denying it may restate the exception
    "text_exception": r"\b(?:unless|except\w*|exempt\w*|derogat\w*|notwithstanding|however|not\s+apply|"
                      r"without\s+prejudice|only\s+(?:if|where|when)|provided\s+that|to\s+the\s+extent)\b",
    "negation_end": r"not|cannot|n't|never",
    # a prefix that negates the word it is put on ('unconditional', 'inaccurate'); 'in-', 'dis-' and their kin
    # only on adjectives, not on 'impose', 'include' or 'disclose'
    "negating_prefix": r"un|non|(?:in|im|ir|il|dis)(?=[a-z]*(?:able|ible|ate|ent|ant|al|ive|ful|ous|ary|ete)\b)",
}
# Predicates and their opposites (one side, the other side): a sentence that says one where its
# provision says only the other turns the rule around.
# Words of opposite sense read where a sentence follows a clause of the text word for word and puts one where the
# clause has the other (verify.alignment.swapped_opposite), besides OPPOSITES: times, bounds, order.
ALIGNED_OPPOSITES = (
    (r"\b(?:before|prior\s+to|earlier|sooner|earliest)\b", r"\b(?:after|following|later|latest)\b"),
    (r"\b(?:at\s+least|no\s+less\s+than|not\s+less\s+than|minimum|more\s+than|above|exceed\w*)\b",
     r"\b(?:at\s+most|no\s+more\s+than|not\s+more\s+than|maximum|up\s+to|less\s+than|fewer\s+than|below|"
     r"not\s+exceed\w*)\b"),
    (r"\b(?:higher|highest|greater|largest)\b", r"\b(?:lower|lowest|smaller|smallest)\b"),
    (r"\b(?:first|start\w*|begin\w*|commenc\w*)\b", r"\b(?:last|end|ends|ending|ended|expir\w*)\b"),
    (r"\buntil\b", r"\b(?:from|since|once)\b"),
)
OPPOSITES = (
    (r"\b(?:lawful|permitted|permissible|allowed|authori[sz]ed)\b",
     r"\b(?:prohibit\w*|forbid\w*|ban(?:s|ned)?|unlawful)\b"),
    (r"\b(?:keep\w*|kept|retain\w*|stor(?:e|es|ed|ing)|preserv\w*)\b",
     r"\b(?:delet\w*|eras\w*|destroy\w*|discard\w*|repeal\w*)\b"),
    (r"\b(?:affix\w*|attach\w*)\b",
     r"\b(?:remov\w*|detach\w*)\b"),
    (r"\b(?:increas\w*|rais(?:e|es|ed|ing))\b",
     r"\b(?:reduc\w*|decreas\w*|lower(?:s|ed|ing)?)\b"),
    (r"\b(?:includ\w*)\b",
     r"\b(?:exclud\w*)\b|\bwith\s+the\s+exception\s+of\b"),
    (r"\bas\s+(?:a\s+)?part\s+of\b",
     r"\bseparate(?:ly)?\s+from\b"),
    (r"\b(?:accept\w*|approv\w*|grant\w*|agree\w*)\b",
     r"\b(?:reject\w*|refus\w*|deny|denies|denied)\b"),
    (r"\b(?:public|publicly|publish\w*|transparen\w*)\b",
     r"\b(?:confidential\w*|secret\w*|opaque\w*)\b"),
    (r"\b(?:extend\w*|prolong\w*|lengthen\w*)\b",
     r"\b(?:shorten\w*|curtail\w*)\b"),
    (r"\b(?:add(?:s|ed|ing)?|insert\w*)\b",
     r"\b(?:delet\w*|strike\s+out|struck\s+out)\b"),
    (r"\b(?:encourag\w*|promot\w*|facilitat\w*)\b",
     r"\b(?:discourag\w*|hinder\w*|imped\w*|obstruct\w*)\b"),
    (r"\bfree\s+of\s+charge\b|\bwithout\s+(?:any\s+)?charge\b|\bat\s+no\s+cost\b|\bor\s+(?:for\s+)?free\b",
     r"\bpaid\s+for\b|\bagainst\s+(?:a\s+)?(?:payment|fee)\b|\bfor\s+a\s+fee\b|\bchargeable\b"),
    (r"\bhigher\s+than\b",
     r"\blower\s+than\b"),
    (r"\bsuspend\w*",
     r"\bcontinu\w*\s+to\s+run\b|\bkeeps?\s+running\b|\bruns?\s+on\b"),
    (r"\bconfidential\w*",
     r"\bpublic(?:ly)?\s+availab\w*|\bmade?\s+(?:\w+\s+)?public\b|\bas\s+public\b"),
    (r"\blimited\s+(?:period|time|duration)\b|\bfixed\s+(?:period|term)\b",
     r"\bindeterminate\b|\bindefinite(?:ly)?\b|\bopen-ended\b|\bunlimited\s+(?:period|time|duration)\b"),
    (r"\bgravest\b|\bmost\s+serious\b",
     r"\bleast\s+serious\b|\bmildest\b|\blightest\b"),
    (r"\b(?:a|any)\s+later\s+date\b",
     r"\b(?:an|any)\s+earlier\s+date\b"),
    (r"\bindependen\w*",
     r"\bintegrated\s+(?:in|into|with)\b|\bsubordinat\w*|\bdependent\s+on\b"),
    (r"\b(?:take|takes|taking|taken|took)\s+(?:\w+\s+){0,3}?into\s+(?:due\s+)?account\b",
     r"\b(?:disregard\w*|ignor(?:e|es|ed|ing))\b"),
)
# Contractions a sentence may use, as the law writes them ("can't" is "cannot").
CONTRACTIONS = ((r"\bcan[’']t\b", "cannot"), (r"\bwon[’']t\b", "will not"), (r"\bshan[’']t\b", "shall not"),
                (r"\b(\w+)n[’']t\b", r"\1 not"))
# The actors a rule names, each with the words that name it.
ACTORS = {
    "controller": r"(?:joint\s+)?controllers?(?![’']s?\s+or\s+processor|\s+or\s+processor)",
    "processor": r"(?<!sub-)processors?",
    "supervisory authority": r"supervisory\s+authorit(?:y|ies)",
    "data subject": r"data\s+subjects?",
    "provider": r"providers?",
    "deployer": r"deployers?",
    "importer": r"importers?",
    "distributor": r"distributors?",
    "notified body": r"notified\s+bod(?:y|ies)",
    "commission": r"(?<!european\s)commission\b",
    "ai office": r"ai\s+office",
    "member state": r"member\s+states?",
    "board": r"\bboard\b",
    "recipient": r"recipients?",
    "certification body": r"certification\s+bod(?:y|ies)",
    "monitoring body": r"monitoring\s+bod(?:y|ies)",
    "representative": r"(?:authorised\s+)?representatives?",
    "public authority": r"public\s+authorit(?:y|ies)",
    "coordinator": r"digital\s+services\s+coordinators?",
    "market surveillance": r"market\s+surveillance\s+authorit(?:y|ies)",
    "trader": r"traders?",
    # the Digital Markets Act's and the Data Act's
    "gatekeeper": r"gatekeepers?",
    "business user": r"business\s+users?",
    "end user": r"end\s+users?",
    "data holder": r"data\s+holders?",
    "data recipient": r"data\s+recipients?",
    "consumer": r"consumers?",
}
# Regimes an act sets apart by a qualifier: a head noun → its qualified form. A sentence that names the head bare
# where the cited text names it only qualified ('providers of AI systems' for 'providers of high-risk AI systems')
# widens the rule to what the text does not cover.
SCOPE_QUALIFIERS = {
    r"\bAI\s+systems?\b": r"\bhigh[- ]risk\s+AI\s+systems?\b",
    r"\bonline\s+platforms?\b": r"\bvery\s+large\s+online\s+platforms?\b",
    r"\bonline\s+search\s+engines?\b": r"\bvery\s+large\s+online\s+search\s+engines?\b",
    r"\bAI\s+models?\b": r"\bgeneral[- ]purpose\s+AI\s+models?\b",
    r"\bgeneral[- ]purpose\s+AI\s+models?\b": r"\bgeneral[- ]purpose\s+AI\s+models?\s+with\s+systemic\s+risks?\b",
    r"\bincidents?\b": r"\bserious[- ]incidents?\b",
}
# The actors one act names besides the language's (by the corpus name its provisions carry): the Data Act's rules are
# duties of data holders towards users, where 'user' elsewhere is anyone.
ACT_ACTORS = {
    "data-act": {"user": r"(?<!end\s)(?<!business\s)users?\b(?!\s+(?:interface|manual))",
                 "public sector body": r"public\s+sector\s+bod(?:y|ies)"},
}
# Words a faithful paraphrase adds without changing what it claims (stemmed before comparison).
FRAME_WORDS = """under gdpr regulation act ai dsa digital services provision provisions article articles recital recitals paragraph
        point points must shall may can cannot has have having had need needs needed required require
        requires obliged obligation obligations allowed permitted entitled also only so if where when whenever
        one same such listed following set out says states state explains explain provides provide
        lays down means mean meaning namely e.g i.e whether because therefore thus hence while although
        not no every each all both either other another any own its their his her him them they it
        will would should does do did being get gets got make makes made give gives given take takes
        there here which who whom whose what than then more less most least up within after before
        us we our you your someone something anyone anything thing things way ways case cases
        though whereas become becomes became provision provisions sooner earlier later unless
        done doing itself themselves over particular particularly necessarily away
        example instance kind type types long including include includes included among
        apply applies applied application covers cover covered fall falls count counts
        generally normally usually typically still just even once always ever already again
        zero one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty
        forty fifty sixty seventy eighty ninety hundred thousand million billion half per cent
        percent euro euros eur"""

# How the support check reads a provision's structure (verify.structure): the conditions that open
# or close a sentence, a condition the sentence states itself, quantifiers, connectives before a
# condition, the words that open an exception, join points, or concede.
STRUCTURE = {
    "condition_opening": r"^(?:(?:as\s+)?from(?=\s+\d)|where|if|when|whenever|unless|in\s+so\s+far\s+as|insofar\s+as|provided\s+that|subject\s+to|"
                         r"in\s+the\s+event\s+(?:that|of)|in\s+case|upon\s+(?:a|the)\s+(?:[\w-]+\s+)?request)\b",
    "conjunct_condition": r",\s*(?:and|or)\s*,\s*(?=(?:where|if|when|unless)\b)",
    "condition_inside": r"(?:,\s*|\b)(?:unless|provided\s+(?:that|(?=(?:they|it|he|she|the|such)\b))|on\s+condition\s+that|"
                        r"upon\s+(?:a|the)\s+(?:[\w-]+\s+)?request|only\s+(?:if|where|when|in\s+so\s+far\s+as)|"
                        r"in\s+so\s+far\s+as|insofar\s+as|to\s+the\s+extent\s+that|in\s+(?:any\s+case|cases)\s+where|"
                        r"except\s+(?:where|when|if)|save\s+where)\b|,\s*(?:where|if|when|until)\b|(?<!\bas\s)\bif\b|\bwhen\b",
    "own_condition": r"\b(?:where|if|when|whenever|unless|provided\s+that|only|as\s+long\s+as|so\s+long\s+as|as\s+far\s+as|"
                     r"to\s+the\s+extent|in\s+so\s+far|insofar|in\s+case|on\s+condition|once|subject\s+to|except|save|"
                     r"depending|in\s+principle|as\s+a\s+rule|generally|normally|usually|in\s+general|typically)\b",
    # a lead-in that states its clause only on the grounds its points list ('reconsider … a designation decision …
    # for one of the following reasons: (a) …')
    "grounds": r"\b(?:only\s+)?(?:in|on|for)\s+(?:any\s+|one\s+|each\s+)?(?:of\s+)?the\s+following\s+"
              r"(?:cases|circumstances|reasons|grounds|situations)",
    "quantifier": r"\b(?:all|every|each|any)\s+(?!(?:time|event|case)\b)",  # not 'at any time', 'in any event': idioms
    "connective": r"^(?:however|furthermore|moreover|in\s+addition|nevertheless|"
                  r"by\s+way\s+of\s+derogation(?:\s+from\s+[^,]{1,60})?|notwithstanding\s+[^,]{1,60})\s*,\s*",
    "exception_word": r"unless|except|save",
    # a participle opens a clause inside a noun phrase ('platforms allowing consumers to conclude …'): not a modifier
    "participle": r"\b\w{3,}ing\b|\bto\b(?!\s+(?:the|a|an|its|their)\b)",
    # a duty owed only when asked ('shall, upon request, communicate them', 'on request'), and how a sentence says it
    # ('shall, at the request of the customer, export', 'at their request'; but 'a Member State acting at the
    # request of the Commission' names who asks an actor of a noun phrase: not set off by a comma, not read)
    # ('upon request or on its own initiative' is either: no condition)
    "on_request": r"\b(?:up)?on\s+(?:(?:a|the|its|their|his|her)\s+)?(?:[\w-]+\s+)?request\b"
                  r"(?!\s+or\s+(?:on|of)\s+its\s+own\s+(?:initiative|motion))|"
                  r"\bat\s+(?:its|their|his\s+or\s+her)\s+(?:[\w-]+\s+)?request\b|(?<=,)\s*at\s+the\s+request\s+of\b",
    "asked": r"\b(?:request\w*|ask\w*|demand\w*|when\s+asked)\b",
    # a rule said to hold in every case, negatively: it drops the exception the provision makes
    "absolute": r"\b(?:never|in\s+no\s+case|at\s+no\s+time)\b",
    # a one-word condition that leaves the rule to someone's judgement ('where appropriate', 'if necessary')
    "discretion": r"\b(?:appropriate|relevant|necessary|(?:technically\s+)?feasible)\b",
    "and_word": r"and",  # joins the parts of a condition, all of which must hold
    # a verb that makes a joined piece of a condition a clause of its own
    "finite_verb": r"\b(?:is|are|was|were|has|have|had|does|do|did|can|cannot|could|may|might|shall|must|will|would|"
                   r"\w+s\s+(?:to|that|the|a|an|its|their))\b",
    "point_joiner": r"and|or",
    # a qualifier inside a sentence that leaves the words after it to someone's judgement or to what is possible (not
    # 'where feasible': 'notify … within 72 hours' states the gist of Article 33(1), as the suite has it)
    "qualifier": r"\b(?:(?:where|if|when|as)\s+(?:appropriate|relevant|necessary|possible)|"
                 r"to\s+the\s+(?:best\s+)?extent\s+possible|as\s+far\s+as\s+possible|in\s+cases?\s+of\s+urgency|"
                 r"in\s+so\s+far\s+as\s+(?:this\s+is\s+|it\s+is\s+)?(?:technically\s+)?(?:possible|feasible))\b",
    # a condition word that opens a clause ('on condition that', 'provided that'): with no verb before the points, the
    # points are its clause
    "condition_needs_clause": r"\bthat\s*$",
    # what follows a qualifier set off by commas that leaves it bounding the words before it: the clause's end or a purpose
    "qualifier_closes": r"\s*(?:,\s*to\b|[;:.]|$)",
    "concession": r"even",
    # a reference after a noun phrase that restricts it ('AI systems referred to in Annex III')
    # a reference to the act itself ('laid down in this Regulation') restricts nothing the claim's 'under the Regulation'
    # leaves open
    "own_act_reference": r"(?:referred\s+to\s+in|listed\s+in|set\s+out\s+in|laid\s+down\s+in|pursuant\s+to)\s+this\s+"
                         r"(?:Regulation|Directive|Decision)\b",
    "listed_in": r"referred\s+to\s+in|listed\s+in|set\s+out\s+in|laid\s+down\s+in|(?:[\w-]+\s+){0,3}?pursuant\s+to\s+(?:Articles?|points?)",
}
# Words that end a quantified noun phrase: the verb or the clause after it begins.
PHRASE_END = """are be been being can cannot could did do does had has have if irrespective is may might must no not regardless shall should that to unless was were whatever when where it they he she we you under which whichever who whom whose will would"""

# What an instruction to its reader looks like (verify.untrusted): regex alternations by what the
# words do (InjectionWords says what each field holds).
# Who a model is, in each language: the addressee of a vocative or of a 'note for'.
_MODEL_EN = r"AI|A\.I\.|artificial\s+intelligence|(?:AI\s+)?assistants?|chatbots?|bots?|(?:large\s+)?language\s+models?|LLMs?|GPT|ChatGPT|Claude|Gemini|Copilot"

INJECTION = InjectionWords(
    reader=alt(
        r"\bwho(?:ever|soever)\s+(?:is\s+)?(?:reads?|reading|sees?|seeing|process(?:es|ing)|pars(?:es|ing)|summari[sz](?:es|ing)|analy[sz](?:es|ing))\s+(?:this|these|the\s+(?:page|document|text|file))",
        r"\b(?:anyone|anybody|everyone|those)\s+(?:who\s+(?:reads?|sees?|process(?:es)?)|reading|processing|summari[sz]ing)\s+(?:this|these)\b",
        r"\b(?:dear|hey|hi|hello|attention|attn)\s*[,:]?\s+(?:the\s+|all\s+|any\s+)?(?:readers?|models?|" + _MODEL_EN + r")\b",
        r"^\W*(?:to\s+|for\s+)?(?:the\s+|all\s+|any\s+)?(?:readers?|models?|" + _MODEL_EN + r")\s*[:,!]",
        r"\bif\s+you\s+are\s+(?:an?\s+|the\s+)?(?:AI|A\.I\.|artificial\s+intelligence|assistant|chatbot|bot|(?:large\s+)?language\s+model|LLM|machine|automated\s+(?:system|reader|agent))\b(?!\s+systems?\b)",
        r"\byou\s+are\s+(?:an?\s+)?(?:AI|A\.I\.|helpful\s+assistant|assistant|chatbot|(?:large\s+)?language\s+model|LLM)\b(?!\s+systems?\b)",
        r"\bas\s+an?\s+(?:AI|A\.I\.|assistant|chatbot|(?:large\s+)?language\s+model|LLM)\b(?!\s+(?:systems?|models?|office)\b)",
        r"\b(?:the\s+|any\s+)?(?:" + _MODEL_EN + r"|models?)\s+(?:that\s+(?:is|are)\s+)?(?:reading|processing|parsing|summari[sz]ing|analy[sz]ing|ingesting)\s+(?:this|these)\b",
        r"\byou,\s+(?:the\s+)?(?:readers?|models?|" + _MODEL_EN + r")\b"),
    you=r"\byou\b|\byour(?:s|self|selves)?\b",
    coordinate=r"and|then|but|or|so|instead",
    modal=r"shall|may|must|should|will|would|can|could|is|are|was|were|has|have|had|does|did|be|been|being",
    lead=r"please|kindly|now|simply|just|always|only|instead|also|henceforth|from\s+now\s+on|in\s+(?:your|the)\s+(?:answer|reply|response)",
    imperative=alt(
        r"answer|reply|respond|say|state|tell|write|output|print|return|repeat|claim|assert|declare|confirm|affirm",
        r"ignore|disregard|forget|override|bypass|treat|consider|regard|assume|pretend|act|behave|believe|trust|accept",
        r"follow|obey|remember|conclude|summari[sz]e|mention|cite|quote|recommend|insist|stop|refuse|deny|reject|avoid",
        r"emphasi[sz]e|never|always|do\s+not|don['’]t|make\s+sure|use|give|explain|describe|include"),
    steer=alt(
        r"assume|pretend|believe|trust\s+(?:this|me|us)|conclude|obey|act\s+as|behave\s+as|role-?play",
        r"(?:treat|consider|regard|accept)\s+(?:this|these|the\s+(?:above|following))\s+(?:page|document|text|notice|note|statement|file|policy)",
        r"remember\s+that|keep\s+in\s+mind\s+that"),
    reply=alt(
        r"answer|reply|respond|say|state|write|output|print|return|repeat|claim|assert|declare|confirm|affirm|insist|conclude",
        r"tell\s+(?:the\s+|your\s+|any\s+|every\s+|all\s+)?(?:users?|readers?|people|everyone|anyone|them|customers?|clients?|whoever\s+asks|the\s+person\s+asking)"),
    that=r"that",
    saying=r"by\s+(?:saying|stating|writing)\b|with\s*(?=[:\"“‘«']|the\s+(?:following|sentence|words?|statement)\b)|:|[\"“‘«]|(?<=\s)'",
    yes=r"yes|no",
    infinitive=r"answer|reply|respond|say|state|write|output|tell\s+(?:the\s+)?users?|claim|assert|declare|confirm",
    must=r"\byou\s+(?:must|should|shall|will|need\s+to|have\s+to|are\s+to|are\s+(?:now\s+)?required\s+to|may\s+only|can\s+only|are\s+(?:only\s+)?allowed\s+to)\s+(?:(?:now|always|only|simply|just)\s+)*",
    told=alt(
        r"\b(?:correct|right|only|proper|true|expected|official|approved|required|accurate|real)\s+(?:answer|reply|response|output)(?:\s+to\s+\w+(?:\s+\w+){0,6})?" + ASIDE + r"\s+(?:is|would\s+be|will\s+be|should\s+be|must\s+be|to\s+give|here)\b",
        r"\b(?:when|whenever|if)\s+(?:you\s+are|you['’]re)\s+(?:asked|questioned|queried|prompted)\b[^.!?\n]{0,80}\b(?:answer|reply|respond|say|state|tell)\b"),
    override=r"ignore|disregard|forget|override|bypass|skip|discard|set\s+aside|pay\s+no\s+attention\s+to|do\s+not\s+(?:follow|obey|apply)|don['’]t\s+(?:follow|obey|apply)",
    det=r"all|any|the|your|my|these|those|every|each|of|previous|prior|earlier|above|preceding|foregoing|original|initial|other|existing|system|safety|current|old|given|default|standing|usual",
    earlier=r"instructions?|rules?|prompts?|guidelines?|directions?|directives?|guardrails?|constraints?|polic(?:y|ies)|programming|training|system\s+message|(?:all|everything)\s+(?:of\s+)?(?:the\s+)?(?:above|before|previous)|the\s+above",
    claim=alt(
        r"\bnew\s+(?:instructions?|directives?|system\s+prompt|orders)\b(?!\s+for\s+use\b)",
        r"\b(?:updated|revised|hidden|secret|injected|additional|special)\s+(?:instructions?|directives?)\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+)?(?:readers?|models?|" + _MODEL_EN + r")\b",
        r"\b(?:system|developer|admin(?:istrator)?)\s+(?:message|prompt|instructions?|note|override|command)\b",
        r"\b(?:note|message|instructions?|memo|reminder|notice|directive|warning)\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+|every\s+)?(?:models?|" + _MODEL_EN + r")\b(?!\s+(?:systems?|office|act|board|pact|literacy|regulatory|value|model\s+providers?)\b)",
        r"(?:\[|<\|?|#{1,6}\s*)/?(?:system|instructions?|assistant|inst)\s*(?:\]|\|?>|:)|^\W*(?:system|assistant|human)\s*:",
        r"\bbegin\s+(?:system|hidden|new)?\s*instructions?\b|\bend\s+of\s+(?:the\s+)?(?:system\s+)?prompt\b"),
)

# Words after a modal that are not the verb it governs (verify.signals.modal_verbs).
MODAL_NOT_VERB = "be have not also only apply applied the a an"

# Function words the keyword index leaves out (index.analysis); legal words ("shall", "not") stay.
STOPWORDS = """a an the of to in on for by with at from as and or is are be been was were this that
        these those it its which who whom whose what when where how do does did i my me we our you your
        he she they their them his her can could would should there any some such than then into"""

# What kind a provision is, from its words (retrieve.follow: the end of a reference a question asks for):
# a penalty, an exception, a remedy, a time limit, a start date, the act's own entry into force; and the word
# of a duty a penalty punishes.
KINDS = {
    "penalty": r"\b(?:fines?|penalt|sanction|punish|imprisonment)",
    "exception": r"\b(?:derogat|by way of derogation|shall not apply|does not apply|exempt|restrict|exception)",
    "remedy": r"\b(?:judicial remedy|court|complaint|lodge|compensation)",
    "deadline": r"\b(?:within\s+(?:\w+\s+){0,2}(?:hours?|days?|weeks?|months?|years?)|without\s+undue\s+delay|(?:not|no)\s+later\s+than)\b",
    "date": r"\b(?:shall apply from|apply from|applies from|enter into force)",
    "whole_act": r"\b(?:this|the\s+present)\s+(?:regulation|directive|act)\s+shall\s+(?:enter|come)\s+into\s+force",
    "duty_word": r"\b(?:shall|must)\b",
    "sets_aside": r"shall\s+not\s+apply|does\s+not\s+apply",
    "derogates": r"by\s+(?:way\s+of\s+)?derogation\s+from|notwithstanding|in\s+derogation\s+from|derogating\s+from",
}

# Words left out of a recurring phrase before its initials are read as an acronym (answer.gate:
# "data protection officer" → DPO).
PHRASE_STOP = "and or of the for on in to a an by with"

# corpus.formats (pdftext, rulebook, eurlex): the words of the documents pincite parses.
# pdftext: the word before a front-matter page's Roman numeral in a footer ('Page iv').
PAGE_LABEL = {
    "page": r"page",
}

# rulebook: a rulebook module in the Central Bank of Bahrain Rulebook's shape.
RULEBOOK = {
    # The running header names module and chapter: 'MODULE FC: Financial Crime', 'CHAPTER FC-1: …'.
    "module": r"MODULE",
    "chapter": r"CHAPTER",
    "contents": r"(?:table\s+of\s+)?contents",  # the title of a table of contents page
    # A history table's title: its rows start with rule ids, yet are no rules.
    "history": r"\b(?:module|document|change|revision|amendment|version)\s+history\b|\bevolution of\b",
    # A deleted stub: "[This Paragraph was deleted …]", "Deleted".
    "deleted": r"(?:this\s+(?:rule|paragraph|section|chapter)\s+(?:was|has\s+been)\s+)?deleted",
}

# eurlex: the word a section heading inside an annex opens with
# ('Section A'), the title of a definitions article.
EURLEX = {
    "annex_section": r"section",
    "definitions_title": "definitions",  # a definitions article's title, lower-cased ('Definitions')
}

# verify (signals, check, claims, support): numbers written in words, units, the names of acts, what a
# recital is said to state.
# Number words by value: verify.signals writes them as digits ('seventy-two hours' → '72 hours').
NUMBER_WORDS = {
    "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
# How English compounds them: a ten and a digit ('seventy-two'), a digit and the hundred ('two hundred and five').
NUMBER_COMPOUNDS = {
    "digit": r"two|three|four|five|six|seven|eight|nine",
    "ten": r"twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety",
    "hundred": r"hundred",
    "and": r"and",
}
# Scale words after digits, written lower case ('10 Million' → '10 million').
NUMBER_SCALES = "million billion"
# 'twice a year' is 'two times a year': the count a paraphrase writes out.
TIMES_WORDS = {"twice": "2 times", "thrice": "3 times"}
# 'the twentieth day' is 'the 20th day' (every act's entry into force). 'first' to 'ninth' are left out: they
# name structure and kinds more often than counts ('the first subparagraph', 'third countries').
ORDINAL_WORDS = {"tenth": "10th", "eleventh": "11th", "twelfth": "12th", "thirteenth": "13th", "fourteenth": "14th",
                 "fifteenth": "15th", "sixteenth": "16th", "seventeenth": "17th", "eighteenth": "18th",
                 "nineteenth": "19th", "twentieth": "20th", "thirtieth": "30th", "fortieth": "40th",
                 "fiftieth": "50th", "sixtieth": "60th", "hundredth": "100th"}
# The modals that permit, and the one that forbids by itself (verify.signals.modal_verbs).
MODAL_CLASSES = {"permission": "may can", "prohibition": "cannot"}
# The qualifiers that make a period an extension ('extended by two further months').
PERIOD_EXTENDERS = "further additional"
# verify.check.quantities: number words read as a count before a unit of time ('one month'), scale words
# after a number, the units by name.
UNIT_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30}
MULTIPLIERS = {"million": 10**6, "millions": 10**6, "billion": 10**9}
QUANTITY_UNITS = {
    "percent": r"per\s?cent|percent",
    "hour": r"hours?",
    "working day": r"working\s+days?",
    "day": r"days?",
    "week": r"weeks?",
    "month": r"months?",
    "year": r"years?",
    "eur": r"eur|euros?",
}
# References to structure are not quantities ('paragraph 2', 'Articles 5 and 6', 'Regulation (EU) 2016/679',
# 'OJ L 119'): the parts they name, the words joining numbers, the series of Union acts, 'No'.
NOT_QUANTITIES = {
    "part": r"paragraphs?|points?|subparagraphs?|chapters?|sections?|titles?|annex(?:es)?|recitals?|articles?|OJ",
    "joined": r"and|or|to",
    "series": r"EU|EC|EEC|Euratom",
    "number_sign": r"No",
}
# verify.check.split_sentences: abbreviations whose full stop does not end a sentence ('Art.', 'e.g.', 'No.').
SENTENCE_SPLIT = {
    "abbreviation": r"art|arts|no|nos|p|pp|para|paras|e\.g|i\.e|cf|etc|reg|dir|vs|ca|approx|mr|mrs|dr|st|ibid|op|cit|fig"
                    r"|sec|ch|ann|rec",
    # verify.untrusted: the abbreviations over three letters a number follows ('para. 2', 'sect. 4').
    "before_number": r"para|sect",
}
# verify.claims: the names of acts, by the corpus that is that act (case as written); a sentence naming another
# act is not supported by a provision of this one.
ACT_MENTIONS = {
    "gdpr": r"GDPR|General\s+Data\s+Protection\s+Regulation|Regulation\s+\(EU\)\s+2016/679",
    "ai-act": r"AI\s+Act|Artificial\s+Intelligence\s+Act|Regulation\s+\(EU\)\s+2024/1689",
    "dsa": r"Digital\s+Services\s+Act|DSA|Regulation\s+\(EU\)\s+2022/2065",
    "dma": r"Digital\s+Markets\s+Act|DMA",
    "data-act": r"Data\s+Act",
    "dga": r"Data\s+Governance\s+Act",
    "nis2": r"NIS\s*2(?:\s+Directive)?",
    "eprivacy": r"ePrivacy\s+Directive",
}
# A citation the prose makes of another instrument ('Article 4 of Directive 95/46/EC'), after its number.
OTHER_INSTRUMENTS = {"cited_of": r"\bof\s+(?:Directive|Regulation|Decision|the\s+(?:Charter|TFEU|TEU))"}
# verify.support: what states an obligation (a recital states none), and the words that report a recital
# rather than state a rule ('the recitals explain that providers must…').
RECITAL_CLAIMS = {
    "obligation": r"\b(?:must|shall|(?:is|are)\s+(?:legally\s+)?(?:required|obliged|prohibited|bound|forbidden)"
                  r"|ha(?:s|ve)\s+to|(?:is|are)\s+not\s+allowed|may\s+not|needs?\s+to|obliged|mandatory)\b",
    "reported": r"\b(?:recitals?|preamble|the\s+regulation\s+(?:explains|notes|says|states)"
                r"|explains?|notes?|observes?|acknowledges?)\b",
}

# citations (citations.grammar, citations.references, corpus.checks): how a provision is named and pointed at.
# The head words of a citation, by the kind of provision they name: (kind, whether a list of numbers may
# follow, pattern). 'Art.' is English, Italian and French alike.
CITATION_HEADS = (
    ("article", True, r"articles"),
    ("article", False, r"article"),
    ("article", False, r"art\.|art(?=\s*\d)"),
    ("annex", True, r"annexes"),
    ("annex", False, r"annex"),
    ("recital", True, r"recitals"),
    ("recital", False, r"recital"),
    ("section", True, r"sections"),
    ("section", False, r"section|sec\."),
)
# The words around a citation's number (citations.grammar): the connectives of a list and the words of a
# range ('Articles 13 and 14', 'Articles 15 to 17'), the paragraph and point words after an article's
# number, a subparagraph named by its ordinal (read over: it is no level of the label), a page (in a label;
# in running text, after a file name), the parts of an act a section may belong to ('Chapter IV, Section 2'
# is no statute section), and points or a paragraph written before their article ('point (a) of Article
# 6(1)').
CITATION = {
    "and": r"and|or",
    "range": r"to|through",
    "paragraph": r"paragraphs?|para?\.",
    "point": r"points?",
    "ordinal": r"first|second|third|fourth|fifth|last",
    "subparagraph": r"subparagraph",
    "page": r"page|p\.?",
    "page_in_text": r"page|p\.?",
    "chapter": r"Chapter",
    "title": r"title",
    "prefix_point": r"points?",
    "prefix_paragraph": r"paragraph",
    "prefix_and": r"and|or",
    "prefix_of": r"of",
}
# How a label is written (citations.grammar.format_label): its style ('numbered': 'Article 5(1)(f)', 'Annex
# III, point 4(a)', the labels the corpus stores) and its words. A language without a word for a kind has
# its labels of that kind written in English.
LABELS = {"style": "numbered", "article": "Article", "annex": "Annex", "recital": "Recital", "section": "Section",
          "point": "point", "page": "p."}
# How a provision's text points elsewhere (citations.references): the words before another act ('Article 4
# of Directive 95/46/EC'), the bodies that adopt one, the kinds of act, the union in brackets and the sign
# before the number ('Regulation (EU) No 1025/2012'), the series after it; the Treaties, by name (after an
# optional article) or acronym; 'that Regulation'; this act ('of this Regulation'); chapters ('Section 2 of
# Chapter III', not 'Chapter III of Regulation …') and lists of them or of paragraphs ('Chapters II to IV',
# 'paragraphs 1 and 2', not '… of Article 5'); an article that amends another act, by its title. A kind of
# act in "act_cited" is read only after a cited provision ('Article 4 of Framework Decision 2008/977/JHA'):
# an act named on its own is read from 'Decision' on, and its edge so labelled.
REFERENCES = {
    "of_act": r"of|of the|to|in|under",
    "issuer": r"Council|Commission|European Parliament and (?:of the )?Council",
    "act": r"Regulation|Directive|Decision",
    "act_cited": r"Framework Decision",
    "union": r"EU|EC|EEC|Euratom",
    "number_sign": r"No\.?",
    "series": r"EC|EU|EEC|JHA",
    "treaty": r"Treaty|Charter",
    "definite": r"the",
    "treaty_short": r"TFEU|TEU",
    "that_act": r"(?:that|the said|said)\s+(?:Regulation|Directive|Decision)\b",
    "this_act": r",?\s*(?:of|to|in|under)\s+this\s+(?:Regulation|Directive|Decision)",
    "chapters": r"Chapters",
    "chapter_section": r"Section",
    "chapter_section_of": r"of",
    "chapter_of_act": r"of\s+(?:Regulation|Directive)",
    "list_and": r"and|or",
    "list_to": r"to",
    "paragraph": r"paragraphs?",
    "of_article": r"of",
    "article": r"Article",
    "amending": r"Amendments?\s+(?:to|of)",
}
# What the corpus checks read (corpus.checks): a mention of an article or an annex by number (the reference
# graph must have about as many edges), the title of a penalty chapter, and the title of a definitions
# article (a plain word, compared lower-cased).
CHECKS = {"mention": r"Articles?|Annex(?:es)?", "penalty_title": r"penalt", "definitions_title": "definitions"}

# index.vocabulary (the support check's equivalents): a sentence's term counts as in the cited text when
# the text has it or a word of its group; one group per line, as the groups were measured.
EQUIVALENTS = """company companies business businesses firm firms organisation organisations organization
        organizations employer undertaking undertakings enterprise enterprises entity entities
        controller controllers processor processors trader traders
        customer customers client clients consumer consumers user users people person persons someone
        individual individuals individuals staff employee employees worker workers citizen citizens
        patient patients member members recipient recipients subject subjects
        hack hacked hacking leak leaked leaks lost stolen breach breaches infringe infringes infringement
        infringements violate violates violation violations
        report reports reported tell tells told inform informs informed alert notify notifies notified
        notification communicate communicates communication
        ban bans banned forbid forbids forbidden prohibit prohibits prohibited prohibition
        fine fines penalty penalties sanction sanctions
        keep keeps kept store stores stored retain retains maintain maintains record records
        delete deletes deleted erase erases erased erasure remove removes removed removal
        website websites site platform platforms service services host hosts hosting
        ask asks asked request requests
        learn learns learned find finds found discover discovers discovered aware awareness knowledge
        charge charges pay pays fee fees cost costs
        shop shops seller sellers sell sells sale buy buys purchase purchases contract contracts
        chatbot chatbots interact interacting interaction
        write writes writing wrote written
        bring brings bringing brought
        choose chooses choosing chose chosen
        hold holds holding held
        send sends sending sent
        draw draws drawing drew drawn
        show shows showing showed shown
        know knows knowing knew known
        withdraw withdraws withdrawing withdrew withdrawn
        seek seeks seeking sought
        lay lays laying laid
        bind binds binding bound
        mean means meaning meant
        prior advance beforehand
        sufficient sufficiently enough adequate adequately
        personnel staff
        design designed build built
        intentional intentionally deliberate deliberately
        total overall
        cooperate cooperation together jointly
        exchange exchanges exchanged share shares shared
        appropriate appropriately suitable proper properly
        promptly quickly swiftly fast
        establish established set create created
        lodge lodged file filed submit submits submitted
        assess assessed assessment evaluate evaluated evaluation examine examined
        provide provides provided give gives given supply supplies supplied
        obtain obtains obtained get gets receive receives received
        necessary needed
        terminate terminated termination end ends ended
        commence commences start starts begin begins
        amend amends amended modify modifies modified
        revoke revokes revoked cancel cancels cancelled
        exempt exempts exempting exemption relieve relieves relieving release releases releasing"""

# index.vocabulary (the search's plain words): a line's plain words are searched as the statutory words after
# '→' too; a group goes on over lines indented further.
SEARCHED_AS = """
        company companies business businesses firm firms organisation organisations organization organizations
            employer enterprise enterprises entity entities
            → controller controllers processor processors undertaking undertakings trader traders provider providers
              deployer deployers
        customer customers client clients people someone individual individuals staff employee employees
            worker workers citizen citizens patient patients member members
            → person persons subject subjects consumer consumers user users recipient recipients
        hack hacked hacking leak leaked leaks lost stolen
            → breach breaches infringe infringes infringement infringements violate violates violation violations
        tell tells told alert
            → report reports reported inform informs informed notify notifies notified notification communicate
              communicates communication
        ban bans banned forbid forbids forbidden
            → prohibit prohibits prohibited prohibition suspend suspension
        fine fines
            → penalty penalties sanction sanctions
        keep keeps kept
            → store stores stored retain retains maintain maintains record records
        delete deletes deleted remove removes removed
            → erase erases erased erasure removal
        website websites site
            → platform platforms service services host hosts hosting
        ask asks asked
            → request requests
        learn learns learned find finds found discover discovers discovered
            → aware awareness knowledge
        charge charges pay pays cost costs
            → fee fees
        shop shops seller sellers sell sells sale buy buys purchase purchases
            → contract contracts
        chatbot chatbots
            → interact interacting interaction
        info details
            → data
        use uses used using handle handles handling gather gathers gathered
            → process processes processed processing collect collection
        algorithm algorithms automatic automatically
            → automated system systems profiling
        mask masked masking anonymise anonymised anonymize anonymized
            → pseudonymisation pseudonymised anonymous
        boss bosses job jobs workplace
            → employer employment
        agree agrees agreed permission
            → consent
        cyberattack cyberattacks ransomware malware attack attacks
            → breach security incident
        dna gene genes genome
            → genetic
        face faces facial fingerprint fingerprints
            → biometric
        medical medicine doctor doctors hospital hospitals illness diagnosis
            → health
        headquarters headquartered subsidiary subsidiaries branch branches
            → establishment
        regulator regulators watchdog watchdogs
            → supervisory authority authorities market surveillance competent
        abroad overseas
            → transfer transfers third country countries
        kid kids minor minors teen teens teenager teenagers
            → child children
        forget forgotten
            → erasure erase
        migrate migrating port porting
            → portability switching
        unsubscribe
            → object objection withdraw
        ads advert adverts advertising newsletter newsletters spam promotional
            → marketing advertisement advertisements
        camera cameras cctv track tracking tracked spy spying
            → monitor monitoring surveillance
        sue suing lawsuit lawsuits
            → judicial remedy court proceedings
        compensate refund refunds
            → compensation
        developer developers vendor vendors maker makers
            → provider providers manufacturer manufacturers
        launch launches launched release releases released
            → placing market available
        mood moods feelings emotional
            → emotion emotions
        street streets mall malls stadium stadiums
            → publicly accessible space spaces
        police policing
            → law enforcement
        accident accidents malfunction malfunctions
            → serious incident
        deepfake deepfakes
            → deep fake
        llm llms chatgpt
            → general purpose model
        trick tricks tricked tricking
            → manipulative deceptive subliminal
        school schools university universities student students pupil pupils
            → education educational
        hire hiring hired recruiter recruiters resume resumes
            → recruitment recruit selection
        loan loans mortgage mortgages
            → credit creditworthiness
        watermark watermarks watermarking
            → marked detectable machine readable
        post posts posted upload uploads uploaded comment comments
            → content
        flag flagged flagging
            → notice
        feed feeds
            → recommender system
        giant giants bigtech
            → gatekeeper
        app apps
            → software application applications
        messaging messenger chat chats
            → interpersonal communications
        favour favours favouring favor favors favoring preferencing
            → favourably ranking
        revenue revenues income earnings
            → turnover
        gadget gadgets device devices appliance appliances smart
            → connected product products
        disaster disasters pandemic flood floods earthquake
            → public emergency"""

# retrieve.search (TITLED_ANSWERS): the titles of the articles an act gives to whether it applies, which acts
# it amends and from when it applies.
ANSWER_TITLES = {
    "scope": r"\bscope\b",
    "amendments": r"^amendments?\s+to\s+(?:regulations?|directives?|decisions?)\b",
    "application": r"\bentry\s+into\s+force\b",
}

# retrieve.ranker: what a provision's title says it is about (the learned ranker's intent features).
TITLE_TOPICS = {
    "application": r"entry into force|application",
    "penalty": r"fines?|penalt|sanction",
    "exception": r"exception|derogat|restriction|limitation",
}

# Month names, as a date is written ('25 May 2018'): answer.extractive reads a calendar date by them.
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"

# answer.extractive: how a provision states a period without a number of days, and an exception that reverses
# the rule it follows ('Point (f) … shall not apply', 'By way of derogation from paragraph 1', 'However, …').
QUOTES = {
    "period_words": r"\b(?:without\s+undue\s+delay|immediately|promptly|forthwith)\b",
    "reverses": r"\b(?:shall not apply|does not apply|by way of derogation|notwithstanding|however)\b",
    # A sibling paragraph that sets the quoted one aside ('Paragraph 1 shall not apply …', 'By way of derogation
    # from paragraph 1'); a sentence naming the quoted point ('points (a) and (f)').
    "paragraph_words": r"paragraphs?",
    "list_words": r"and|or",
    "not_apply": r"shall not apply",
    "derogation_from": r"by way of derogation from paragraph",
    "point_words": r"points?",
    "point_list_words": r"and|or|to",
    # answer.pointers: how a statute deals with named things it does not list: it lets someone decide,
    # designate or appoint them, and has them published in a list or a register.
    "mechanism": r"\b(?:publish\w*|list|lists|register|registry|database|may decide|shall decide|"
                 r"implementing acts?|designat\w+|appoint\w*|elect\w*|chair\w*|establish\w*)\b",
}

# retrieve.cues, answer.gate, answer.pointers: acronyms common in questions that name no act (a question's
# 'AI' or 'CCTV' is no act pincite should know).
ACRONYMS = "AI IT HR CV ID IP CCTV SMS URL API CEO SME FAQ PDF USB GPS DNA PIN OK TV PC EU LLM GPU CPU QR RFID NGO"

# index.analysis: the Snowball stemmer (PyStemmer) the keyword index and the support check stem this language with.
STEMMER = "english"
