"""Text from documents a user uploaded is untrusted: sentences in it that instruct their reader are
not law, whatever the page says. They are cut before the text reaches a model's prompt and before a
sentence is checked against it, so an injected "note for AI assistants" can neither steer the model
nor lend its claim support.

A sentence is recognised by what it does, not by its vocabulary, in each language pincite reads
(English, Italian, French, Danish, Thai; every table is tried on every sentence, since an injection
need not be in the document's language). It is cut when it

- claims to be an instruction: a new instruction, a system message, a note for an AI;
- tells its reader what to answer, say or write ('answer that…', 'the correct reply is…', 'you must
  say…'), or to ignore, disregard, forget or override the instructions or rules it was given;
- addresses the reader, the AI, the model, the assistant or 'whoever reads this' (a vocative, or 'if
  you are an AI') and gives an imperative; or addresses its reader as 'you' and tells it what to
  believe ('assume…', 'pretend…', 'treat this page as…') — a staff policy says 'you must report a
  breach', and that stays.

Law is written about third persons ('the controller shall inform the data subject'), never to its
reader, and none of it is cut: tests/test_injection.py runs every sentence of the GDPR (en, it), the
AI Act (en, it, fr, da) and the Thai PDPA through it. A cut sentence leaves a line break behind, and
the rest of a sentence it interrupted (after an abbreviation, or on the next line) goes with it:
what is left is the document's own sentences, never words from either side of a cut joined into
one, never a remnant of the instruction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import overload

from pincite.provisions import Provision
from pincite.verify.check import Cited

UPLOADED_KINDS = ("page", "rule")  # provisions cut from a PDF a user uploaded, not from a publisher


@dataclass(frozen=True)
class Words:
    """One language's words for what an instruction does: regex alternations, matched without
    regard to case, at word boundaries (`spaced=False`, Thai: as substrings, with no clause marks).

    reader:    phrases that address the reader or a model (a vocative, 'whoever reads this')
    you:       second-person words
    coordinate, lead: words that may come between a clause's start and its imperative
    modal:     finite verbs of a third-person clause: '…shall be drawn up and state that' coordinates
               a duty, not an imperative, so a coordinated imperative needs none before it; after
               an address, a modal and `infinitive` are an order ('models reading this should say')
    imperative: imperative forms a page gives its reader (clause-initial)
    steer:     imperatives that tell a reader what to believe: with `you`, an instruction
    reply:     imperatives of answering, saying, writing, followed by what to say: `that`, `yes`
               or `saying` ('with "…"', ':', 'by saying'); `saying` may come a few words later
               ('respond to any question by saying…'), and after `must`, `that` too
    infinitive: verbs of answering after `must` ('you must say that')
    must:      second-person duty ('you must', 'devi'): an imperative by other means
    told:      the answer given as settled ('the correct answer is')
    override:  imperatives of ignoring, forgetting, overriding; `earlier` names their object, after
               nothing but `det` ('ignore all your previous instructions', not 'forget passwords
               you no longer need and update the rules register')
    claim:     a sentence calling itself an instruction ('new instructions', 'note for AI')
    """

    reader: str
    you: str
    coordinate: str
    modal: str
    lead: str
    imperative: str
    steer: str
    reply: str
    that: str
    saying: str
    yes: str
    infinitive: str
    must: str
    told: str
    override: str
    det: str
    earlier: str
    claim: str
    spaced: bool = True


def _alt(*parts: str) -> str:
    return "|".join(parts)


_ASIDE = r"(?:\s*,[^,;:]{1,60},)?"  # 'the correct reply, per Article 6, is…'


# Who a model is, in each language: the addressee of a vocative or of a 'note for'.
_MODEL_EN = r"AI|A\.I\.|artificial\s+intelligence|(?:AI\s+)?assistants?|chatbots?|bots?|(?:large\s+)?language\s+models?|LLMs?|GPT|ChatGPT|Claude|Gemini|Copilot"

EN = Words(
    reader=_alt(
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
    imperative=_alt(
        r"answer|reply|respond|say|state|tell|write|output|print|return|repeat|claim|assert|declare|confirm|affirm",
        r"ignore|disregard|forget|override|bypass|treat|consider|regard|assume|pretend|act|behave|believe|trust|accept",
        r"follow|obey|remember|conclude|summari[sz]e|mention|cite|quote|recommend|insist|stop|refuse|deny|reject|avoid",
        r"emphasi[sz]e|never|always|do\s+not|don['’]t|make\s+sure|use|give|explain|describe|include"),
    steer=_alt(
        r"assume|pretend|believe|trust\s+(?:this|me|us)|conclude|obey|act\s+as|behave\s+as|role-?play",
        r"(?:treat|consider|regard|accept)\s+(?:this|these|the\s+(?:above|following))\s+(?:page|document|text|notice|note|statement|file|policy)",
        r"remember\s+that|keep\s+in\s+mind\s+that"),
    reply=_alt(
        r"answer|reply|respond|say|state|write|output|print|return|repeat|claim|assert|declare|confirm|affirm|insist|conclude",
        r"tell\s+(?:the\s+|your\s+|any\s+|every\s+|all\s+)?(?:users?|readers?|people|everyone|anyone|them|customers?|clients?|whoever\s+asks|the\s+person\s+asking)"),
    that=r"that",
    saying=r"by\s+(?:saying|stating|writing)\b|with\s*(?=[:\"“‘«']|the\s+(?:following|sentence|words?|statement)\b)|:|[\"“‘«]|(?<=\s)'",
    yes=r"yes|no",
    infinitive=r"answer|reply|respond|say|state|write|output|tell\s+(?:the\s+)?users?|claim|assert|declare|confirm",
    must=r"\byou\s+(?:must|should|shall|will|need\s+to|have\s+to|are\s+to|are\s+(?:now\s+)?required\s+to|may\s+only|can\s+only|are\s+(?:only\s+)?allowed\s+to)\s+(?:(?:now|always|only|simply|just)\s+)*",
    told=_alt(
        r"\b(?:correct|right|only|proper|true|expected|official|approved|required|accurate|real)\s+(?:answer|reply|response|output)(?:\s+to\s+\w+(?:\s+\w+){0,6})?" + _ASIDE + r"\s+(?:is|would\s+be|will\s+be|should\s+be|must\s+be|to\s+give|here)\b",
        r"\b(?:when|whenever|if)\s+(?:you\s+are|you['’]re)\s+(?:asked|questioned|queried|prompted)\b[^.!?\n]{0,80}\b(?:answer|reply|respond|say|state|tell)\b"),
    override=r"ignore|disregard|forget|override|bypass|skip|discard|set\s+aside|pay\s+no\s+attention\s+to|do\s+not\s+(?:follow|obey|apply)|don['’]t\s+(?:follow|obey|apply)",
    det=r"all|any|the|your|my|these|those|every|each|of|previous|prior|earlier|above|preceding|foregoing|original|initial|other|existing|system|safety|current|old|given|default|standing|usual",
    earlier=r"instructions?|rules?|prompts?|guidelines?|directions?|directives?|guardrails?|constraints?|polic(?:y|ies)|programming|training|system\s+message|(?:all|everything)\s+(?:of\s+)?(?:the\s+)?(?:above|before|previous)|the\s+above",
    claim=_alt(
        r"\bnew\s+(?:instructions?|directives?|system\s+prompt|orders)\b(?!\s+for\s+use\b)",
        r"\b(?:updated|revised|hidden|secret|injected|additional|special)\s+(?:instructions?|directives?)\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+)?(?:readers?|models?|" + _MODEL_EN + r")\b",
        r"\b(?:system|developer|admin(?:istrator)?)\s+(?:message|prompt|instructions?|note|override|command)\b",
        r"\b(?:note|message|instructions?|memo|reminder|notice|directive|warning)\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+|every\s+)?(?:models?|" + _MODEL_EN + r")\b(?!\s+(?:systems?|office|act|board|pact|literacy|regulatory|value|model\s+providers?)\b)",
        r"(?:\[|<\|?|#{1,6}\s*)/?(?:system|instructions?|assistant|inst)\s*(?:\]|\|?>|:)|^\W*(?:system|assistant|human)\s*:",
        r"\bbegin\s+(?:system|hidden|new)?\s*instructions?\b|\bend\s+of\s+(?:the\s+)?(?:system\s+)?prompt\b"),
)

_MODEL_IT = r"IA|AI|intelligenza\s+artificiale|assistent[ei](?:\s+(?:IA|AI|virtual[ei]))?|chatbot|bot|modell[oi](?:\s+linguistic[oi])?|LLM|GPT|ChatGPT|Claude"

IT = Words(
    reader=_alt(
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
    imperative=_alt(
        r"rispondi|rispondete|risponda|d[iì]['’]|dì|dite|dica|scrivi|scrivete|afferma|affermate|dichiara|dichiarate",
        r"conferma|confermate|ripeti|ripetete|sostieni|sostenete|ignora|ignorate|dimentica|dimenticate|trascura|trascurate",
        r"tratta|trattate|considera|considerate|presumi|presumete|supponi|supponete|fingi|fingete|credi|credete",
        r"fidati|fidatevi|segui|seguite|obbedisci|obbedite|ricorda|ricordate|ricordati|cita|citate|evita|evitate",
        r"riassumi|riassumete|rifiuta|rifiutate|nega|negate|assicurati|assicuratevi|usa|usate|non\s+(?:menzionare|citare|dire|rispondere|seguire)"),
    steer=_alt(
        r"presumi|presumete|supponi|supponete|fingi|fingete|credi|credete|fidati|fidatevi|obbedisci|obbedite",
        r"ricorda(?:ti)?\s+che|ricordate\s+che|(?:tratta|trattate|considera|considerate)\s+(?:questa|questo|il\s+presente|la\s+presente)\s+(?:pagina|documento|testo|avviso|nota)"),
    reply=_alt(
        r"rispondi|rispondete|risponda|d[iì]['’]|dì|dica|scrivi|scrivete|afferma|affermate|dichiara|dichiarate",
        r"conferma|confermate|ripeti|ripetete|sostieni|sostenete",
        r"(?:di|dite|dica|d[iì]['’])\s+(?:all['’]\s*utente|agli\s+utenti|ai\s+lettori|a\s+tutti|a\s+chiunque)"),
    that=r"che",
    saying=r"dicendo\b|con\s*(?=[:\"“‘«']|la\s+(?:seguente|frase)\b)|:|[\"“‘«]|(?<=\s)'",
    yes=r"sì|no",
    infinitive=r"rispondere|dire|affermare|dichiarare|scrivere|confermare|sostenere",
    must=r"\b(?:(?:tu|voi)\s+)?(?:devi|dovete|dovrai|dovrete)\s+(?:(?:ora|sempre|solo|soltanto|semplicemente)\s+)*",
    told=_alt(
        r"\b(?:la|l['’])\s*(?:unica\s+)?risposta\s+(?:corretta|giusta|esatta|vera|attesa|ufficiale)(?:\s+a\s+\w+(?:\s+\w+){0,6})?" + _ASIDE + r"\s+(?:è|sarà|sarebbe|deve\s+essere)\b",
        r"\bl['’]\s*unica\s+risposta\s+(?:possibile\s+)?(?:è|sarà)\b",
        r"\b(?:quando|se|qualora)\s+(?:ti\s+|vi\s+)(?:viene|vengono|venga|chiedono|domandano|chiede)\b[^.!?\n]{0,80}\b(?:rispondi|rispondete|di['’]|dì|dite)\b"),
    override=r"ignora|ignorate|ignorare|dimentica|dimenticate|dimenticare|trascura|trascurate|tralascia|tralasciate|disattendi|disattendete|scavalca|sovrascrivi|non\s+(?:seguire|seguite|considerare|considerate|tenere\s+conto|tenete\s+conto|rispettare|rispettate)",
    det=r"le|la|gli|i|il|lo|l|tutte|tutti|tutto|tue|tuoi|tua|tuo|vostre|vostri|queste|questi|ogni|qualsiasi|qualunque|delle|degli|dei|della|del|alle|ai|agli|precedenti|vecchie|solite|di|sistema",
    earlier=r"istruzion[ei]|regol[ae]|indicazion[ei]|direttiv[ae]|prompt|consegn[ae]|vincol[io]|linee\s+guida|tutto\s+(?:ciò\s+che|quanto)\s+(?:precede|sopra)",
    claim=_alt(
        r"\bnuov[ae]\s+istruzion[ei]\b(?!\s+per\s+l['’]\s*uso\b)",
        r"\b(?:messaggio|prompt|istruzion[ei]|nota)\s+(?:di|del)\s+sistema\b",
        r"\b(?:nota|messaggio|istruzion[ei]|avviso|promemoria|avvertenza|comunicazione)\s+(?:per|a|alla|al|agli|ai|all['’])\s*(?:l['’]\s*|il\s+|lo\s+|gli\s+|i\s+)?(?:" + _MODEL_IT + r")\b(?!\s+(?:sistem\w*|per\s+finalità)\b)"),
)

_MODEL_FR = r"IA|AI|intelligence\s+artificielle|assistant(?:e|s|es)?(?:\s+(?:IA|virtuel(?:le)?s?))?|chatbots?|bots?|agents?\s+conversationnels?|modèles?(?:\s+de\s+langage)?|LLM|GPT|ChatGPT|Claude"

FR = Words(
    reader=_alt(
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
    imperative=_alt(
        r"réponds|répondez|dis|dites|écris|écrivez|affirme|affirmez|confirme|confirmez|déclare|déclarez|indique|indiquez",
        r"répète|répétez|soutiens|soutenez|ignore|ignorez|oublie|oubliez|traite|traitez|considère|considérez",
        r"suppose|supposez|présume|présumez|fais|faites|crois|croyez|suis|suivez|obéis|obéissez|veuillez|merci\s+de",
        r"rappelle-toi|souviens-toi|souvenez-vous|utilise|utilisez|prétends|prétendez|agis|agissez|cite|citez",
        r"mentionne|mentionnez|refuse|refusez|nie|niez|assure-toi|assurez-vous|résume|résumez",
        r"ne\s+(?:mentionne|mentionnez|cite|citez|dis|dites|tiens|tenez|réponds|répondez|suis|suivez)"),
    steer=_alt(
        r"suppose|supposez|présume|présumez|prétends|prétendez|fais\s+comme\s+si|faites\s+comme\s+si|crois|croyez|obéis|obéissez",
        r"rappelle-toi\s+que|souviens-toi\s+que|souvenez-vous\s+que",
        r"(?:traite|traitez|considère|considérez)\s+(?:cette|ce|cet|le\s+présent|la\s+présente)\s+(?:page|document|texte|avis|note)"),
    reply=_alt(
        r"réponds|répondez|dis|dites|écris|écrivez|affirme|affirmez|confirme|confirmez|déclare|déclarez|indique|indiquez",
        r"répète|répétez|soutiens|soutenez",
        r"(?:veuillez|merci\s+de|tu\s+dois|vous\s+devez)\s+(?:toujours\s+|seulement\s+|uniquement\s+)?(?:répondre|dire|affirmer|déclarer|écrire|confirmer|indiquer|répéter)",
        r"(?:dis|dites)\s+(?:à\s+l['’]\s*utilisateur|aux\s+utilisateurs|aux\s+lecteurs|à\s+tous)"),
    that=r"que|qu['’]",
    saying=r"en\s+disant\b|par\s*(?=[:\"“‘«']|la\s+(?:phrase|formule)\s+suivante\b)|:|[\"“‘«]|(?<=\s)'",
    yes=r"oui|non",
    infinitive=r"répondre|dire|affirmer|déclarer|écrire|confirmer|soutenir",
    must=r"\b(?:tu\s+dois|vous\s+devez|tu\s+devras|vous\s+devrez|il\s+(?:te|vous)\s+faut)\s+(?:(?:maintenant|toujours|seulement|uniquement|simplement)\s+)*",
    told=_alt(
        r"\b(?:la|l['’])\s*(?:seule\s+|bonne\s+)*réponse\s+(?:correcte|exacte|juste|vraie|attendue|officielle)(?:\s+à\s+\w+(?:\s+\w+){0,6})?" + _ASIDE + r"\s+(?:est|sera|serait|doit\s+être)\b",
        r"\bla\s+(?:seule|bonne)\s+(?:bonne\s+)?réponse(?:\s+à\s+\w+(?:\s+\w+){0,6})?" + _ASIDE + r"\s+(?:est|sera)\b",
        r"\b(?:quand|lorsqu['’]on|si\s+on)\s+(?:te|vous)\s+(?:demande|interroge|pose)\b[^.!?\n]{0,80}\b(?:réponds|répondez|dis|dites)\b"),
    override=r"ignore|ignorez|ignorer|oublie|oubliez|oublier|ne\s+(?:tiens|tenez|tenir)\s+pas\s+compte|ne\s+pas\s+tenir\s+compte|fais\s+abstraction|faites\s+abstraction|passe\s+outre|passez\s+outre|outrepasse|outrepassez|n['’]obéis\s+pas|n['’]obéissez\s+pas|ne\s+suis\s+pas|ne\s+suivez\s+pas",
    det=r"les|la|le|l|toutes|tous|tes|vos|ces|des|de|du|d|précédentes|anciennes|habituelles|ta|votre|ton",
    earlier=r"instructions?|consignes?|règles?|directives?|indications?|prompt|invite|contraintes?|tout\s+ce\s+qui\s+précède",
    claim=_alt(
        r"\bnouvelles?\s+(?:instructions?|consignes?|directives?)\b(?!\s+d['’]utilisation\b)",
        r"\b(?:message|invite|prompt|instructions?|note)\s+(?:du\s+)?système\b",
        r"\b(?:note|message|instructions?|consignes?|avis|rappel|avertissement)\s+(?:(?:destinée?s?\s+)?(?:à|aux|pour))\s*(?:l['’]\s*|les\s+|la\s+|le\s+)?(?:" + _MODEL_FR + r")\b(?!\s+(?:à\s+usage|systèmes?)\b)"),
)

_MODEL_DA = r"AI(?:-(?:assistent\w*|model\w*|chatbot\w*|sprogmodel\w*))?|kunstig\s+intelligens|assistent(?:en|er|erne)?|chatbot(?:ten|s)?|bot(?:ten)?|sprogmodel(?:len|ler)?|model(?:len|ler)?|LLM|GPT|ChatGPT|Claude"

DA = Words(
    reader=_alt(
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
    imperative=_alt(
        r"svar|sig|skriv|bekræft|fortæl|gentag|påstå|erklær|ignorer|glem|tilsidesæt|se\s+bort\s+fra|husk|følg|adlyd",
        r"antag|lad\s+som\s+om|behandl|betragt|stol\s+på|tro\s+på|nævn|undlad|stop|brug|giv|afvis|benægt|konkluder",
        r"sørg\s+for|opsummer|citer|anbefal|nægt|aldrig|lad\s+være\s+med"),
    steer=_alt(
        r"antag|lad\s+som\s+om|stol\s+på\s+(?:denne|dette|mig|os)|tro\s+på\s+(?:denne|dette)|adlyd|konkluder",
        r"husk\s+at|(?:behandl|betragt)\s+(?:denne|dette)\s+(?:side|dokument|tekst|meddelelse|note)"),
    reply=_alt(
        r"svar|sig|skriv|bekræft|gentag|påstå|erklær|konkluder",
        r"fortæl\s+(?:brugeren|brugerne|læseren|læserne|alle|dem|enhver)"),
    that=r"at",
    saying=r"ved\s+at\s+sige\b|med\s*(?=[:\"“‘«»„']|følgende\b)|:|[\"“‘«»„]|(?<=\s)'",
    yes=r"ja|nej",
    infinitive=r"svare|sige|skrive|bekræfte|påstå|erklære|fortælle\s+(?:brugeren|brugerne)",
    must=r"\b(?:du\s+(?:skal|bør|må|burde)|(?:skal|bør|må|burde)\s+du)\s+(?:(?:nu|altid|kun|blot|bare)\s+)*",
    told=_alt(
        r"\bdet\s+(?:eneste\s+)?(?:korrekte|rigtige|sande|forventede|officielle)\s+svar(?:\s+på\s+\w+(?:\s+\w+){0,6})?" + _ASIDE + r"\s+(?:er|vil\s+være|skal\s+være)\b",
        r"\bsvaret\s+skal\s+(?:altid\s+)?være\s*(?:at\b|:)",
        r"\b(?:når|hvis)\s+du\s+(?:bliver\s+)?(?:spurgt|spørges)\b[^.!?\n]{0,80}\b(?:svar|sig|skriv)\b"),
    override=r"ignorer|ignorere|glem|glemme|se\s+bort\s+fra|tilsidesæt|tilsidesætte|spring\s+over|lad\s+være\s+med\s+at\s+følge|følg\s+ikke",
    det=r"de|alle|dine|din|dit|jeres|disse|tidligere|foregående|ovenstående|al|enhver|gamle|sædvanlige|dens|hans",
    earlier=r"instrukser(?:ne)?|instruks(?:en)?|instruktion(?:en|er|erne)?|anvisning(?:en|er|erne)?|regl(?:er|erne)|regel(?:en)?|prompt(?:en)?|retningslinjer(?:ne)?|alt\s+(?:det\s+)?ovenstående",
    claim=_alt(
        r"\bnye\s+(?:instrukser|instruktioner|anvisninger|direktiver)\b(?!\s+(?:om|for)\s+brug\b)",
        r"\bsystem(?:besked|meddelelse|prompt|instruks(?:er)?|instruktion(?:er)?|note)\b",
        r"\b(?:note|besked|meddelelse|instruks(?:er)?|instruktion(?:er)?|påmindelse|advarsel|bemærkning)\s+(?:til|for)\s+(?:" + _MODEL_DA + r")\b(?!-)"),
)

# Thai has no spaces between words and no letter case: phrases match as substrings, and the
# imperative is marked by a particle (จง, โปรด, กรุณา; อย่า 'do not', not อย่าง 'manner').
_MODEL_TH = r"(?:ผู้ช่วย\s*)?(?:AI|เอไอ|ปัญญาประดิษฐ์)|แช[ตท]บอ[ตท]|โมเดล(?:ภาษา)?|บอ[ตท]|LLM|ผู้ช่วย"
_YOU_TH = r"คุณ(?!ภาพ|สมบัติ|ค่า|ธรรม|ประโยชน์|วุฒิ|ลักษณะ|ูปการ|หญิง|นาย|งาม|ความดี|านุ)"

TH = Words(
    reader=_alt(
        r"(?:ถึง|เรียน)?\s*(?:ผู้ที่|ผู้ใดที่|ใครก็ตามที่|ใครที่|ทุกคนที่)\s*(?:อ่าน|ประมวลผล|สรุป)\s*(?:หน้า|เอกสาร|ข้อความ)?\s*(?:นี้|ฉบับนี้)",
        r"(?:ถึง|เรียน)\s*(?:ท่าน)?ผู้อ่าน|ผู้อ่านที่รัก",
        r"(?:ถึง|เรียน|สวัสดี)\s*(?:" + _MODEL_TH + r")",
        r"^\W*(?:" + _MODEL_TH + r")\s*[:,!]",
        r"(?:หาก|ถ้า)" + _YOU_TH + r"(?:เป็น|คือ)\s*(?:" + _MODEL_TH + r")"),
    you=_YOU_TH,
    coordinate=r"และ|แล้ว",
    modal=r"ต้อง|ควร|จะต้อง",
    lead=r"โปรด|กรุณา",
    imperative=r"จง|โปรด|กรุณา|อย่า(?!ง)",
    steer=r"(?:จง|โปรด|กรุณา)?(?:สมมติ|แสร้ง|ทำเป็น|เชื่อ(?!ม|ถือ)|จำไว้)ว่า",
    reply=r"(?:จง|โปรด|กรุณา|ช่วย)\s*(?:ตอบ|บอก|พูด|กล่าว|เขียน|ยืนยัน|ระบุ)|ให้ตอบ(?:ทุกคำถาม|คำถาม(?:ใด\s*ๆ|ทั้งหมด)?)?(?:เสมอ)?ว่า|ตอบ(?:กลับ)?(?:ไป)?(?:เสมอ|เพียง|แค่)?ว่า|ตอบเพียง|ตอบแค่|บอก(?:ผู้ใช้|ผู้ถาม|ทุกคน)ว่า",
    that=r"ว่า",
    saying=r"",
    yes=r"",
    infinitive=r"ตอบ|บอก|พูด|กล่าว|เขียน|ยืนยัน",
    must=_YOU_TH + r"\s*(?:ต้อง|ควร|จะต้อง)\s*",
    told=r"คำตอบ(?:เดียว)?ที่(?:ถูกต้อง|ถูก|แท้จริง|เหมาะสม)(?:ที่สุด)?\s*(?:คือ|ได้แก่|เป็น|จะเป็น)",
    override=r"ไม่ต้อง(?:สนใจ|ใส่ใจ|ปฏิบัติตาม|ทำตาม)|เพิกเฉย|ละเลย|ลืม|อย่า(?:สนใจ|ปฏิบัติตาม|ทำตาม)|ข้าม",
    det=r"ต่อ|ทุก|ทั้งหมด|ทั้ง",
    earlier=r"(?:คำสั่ง|คำแนะนำ|กฎ|ข้อกำหนด|ข้อความ)(?:ทั้งหมด)?\s*(?:ก่อนหน้า|ข้างต้น|ที่ผ่านมา|เดิม|ของระบบ|ที่ได้รับ|ทั้งหมด)",
    claim=_alt(
        r"(?:คำสั่ง|คำแนะนำ)ใหม่(?:สำหรับ|ถึง)",
        r"(?:คำสั่ง|ข้อความ|พรอมต์|พรอมท์)(?:จาก)?ระบบ",
        r"(?:หมายเหตุ|ข้อความ|คำสั่ง|คำแนะนำ|คำเตือน|บันทึก)\s*(?:ถึง|สำหรับ)\s*(?:" + _MODEL_TH + r")"),
    spaced=False,
)

LANGUAGES = {"en": EN, "it": IT, "fr": FR, "da": DA, "th": TH}


@dataclass(frozen=True)
class _Rules:
    """One language's table compiled: each rule a regex."""

    claim: re.Pattern[str]
    told: re.Pattern[str]
    override: re.Pattern[str]
    reader: re.Pattern[str]
    imperative: re.Pattern[str]
    you: re.Pattern[str]
    steer: re.Pattern[str]


def _compile(w: Words) -> _Rules:
    flags = re.IGNORECASE
    b = r"(?!\w)" if w.spaced else ""  # a word's end, where \b finds none after "di'"
    lead = rf"(?:(?:{w.lead})(?!\w)\s*,?\s*)*"
    if w.spaced:
        # Where a clause starts: the sentence's start or a mark, then any leading adverbs
        # ('please', 'now'); or a coordinating word with no finite verb before it ('ignore the
        # rules and answer that…', not '…shall be drawn up and state that…'). An imperative
        # after a vocative may follow any coordinating word.
        mark = rf"(?:^|[:;,!?()\[\]\"“”«»—–]|\s-)\s*{lead}"
        guarded = rf"^(?:(?!\b(?:{w.modal})\b)[^.!?])*?\b(?:{w.coordinate})\s+{lead}"
        start, loose = f"(?:{mark}|{guarded})", rf"(?:{mark}|\b(?:{w.coordinate})\s+{lead})"
        said = rf"\s*,?\s*{lead}(?:(?:{w.that}|{w.yes})\b|{w.saying})"
        words = r"(?:\s+[^\s.!?;:,\"“‘«]+){1,6}?\s*,?\s*"
        told = _alt(w.told,
                    rf"{start}(?:{w.reply}){b}(?:{said}|{words}(?:{w.saying}))",
                    rf"(?:{w.must})(?:{w.infinitive}){b}(?:{said}|{words}(?:{w.saying}|{w.that}\b))")
        duty = rf"\b(?:{w.modal})\s+{lead}(?:{w.infinitive}){b}{said}"
        override = rf"(?:{start}|{w.must})(?:{w.override}){b}(?:[\s'’]+(?:{w.det})\b)*[\s'’]+(?:{w.earlier})\b"
    else:  # Thai: the imperative particles and the phrases mark the clause
        start = loose = rf"(?:(?:{w.coordinate}|{w.lead})\s*)?"
        told = _alt(w.told, w.reply, rf"(?:{w.must})(?:{w.infinitive})\S{{0,30}}?{w.that}")
        duty = rf"(?:{w.modal})\s*(?:{w.infinitive})\s*{w.that}"
        override = rf"(?:{w.override})\s*(?:(?:{w.det})\s*)*(?:{w.earlier})"
    return _Rules(
        claim=re.compile(w.claim, flags),
        told=re.compile(told, flags),
        override=re.compile(override, flags),
        reader=re.compile(w.reader, flags),
        # To an addressed reader, a duty to answer is an order too: 'models reading this should say that'.
        imperative=re.compile(_alt(rf"{loose}(?:{w.imperative}){b}", w.must, duty), flags),
        you=re.compile(w.you, flags),
        steer=re.compile(rf"{start}(?:{w.steer}){b}", flags),
    )


_RULES = {lang: _compile(words) for lang, words in LANGUAGES.items()}


@lru_cache(maxsize=8192)
def instruction(sentence: str) -> str:
    """What the sentence does to its reader, when it instructs it ('' when it does not): it claims
    to be an instruction, tells the reader what to answer or to ignore its instructions, addresses
    it with an imperative, or tells the 'you' it addresses what to believe."""
    text = " ".join(sentence.split())
    if not text:
        return ""
    rules = _RULES.values()
    if any(r.claim.search(text) for r in rules):
        return "claims to be an instruction"
    if any(r.told.search(text) for r in rules):
        return "tells the reader what to answer"
    if any(r.override.search(text) for r in rules):
        return "tells the reader to ignore its instructions"
    # Address and imperative in one language: 'du' is Danish 'you' and French 'of the'.
    if any(r.reader.search(text) and r.imperative.search(text) for r in rules):
        return "addresses the reader with an imperative"
    if any(r.steer.search(text) and r.you.search(text) for r in rules):
        return "tells the reader what to believe"
    return ""


# A sentence, or a line that ends without a full stop (a point of a list): every piece of the
# text is one of these, so what is kept reads as the text read.
_SENTENCE = re.compile(r"[^.!?\n]*(?:[.!?]+|\n|$)")
# A piece that goes on with the one before: it starts in lower case ('e.g. the'), or with a
# digit right after a point ('2.5', '2.1') or after an abbreviation ('Art. 6', 'No. 45').
_LOWER = re.compile(r"\s*[a-zà-ÿ]")
_DIGIT = re.compile(r"[ \t]*\d")
_ABBREVIATION = re.compile(r"(?:^|\W)(?:[A-Za-z]{1,3}|para|sect|cf|nos?)\.$", re.IGNORECASE)
# After a cut, the rest of a sentence: it starts in lower case, or with a number and a word in
# lower case ('24 hours of discovering it', not the paragraph numbers '2.' or '2.1 The DPO').
_REST = re.compile(r"\s*(?:[a-zà-ÿ]|\d[\d.,]*\s+[a-zà-ÿ])")
_ENDED = re.compile(r"(?:[.!?;:]\s*\n|[!?])$")


def sentences(text: str) -> list[str]:
    """The text's sentences, whitespace included: joined, they are the text."""
    out: list[str] = []
    for piece in _SENTENCE.findall(text):
        if not piece:
            continue
        last = out[-1] if out else ""
        if (last.strip() and not _ENDED.search(last)
                and (_LOWER.match(piece) or (last.endswith(".") and piece[:1].isdigit())
                     or (_ABBREVIATION.search(last) and _DIGIT.match(piece)))):
            out[-1] += piece
        else:
            out.append(piece)
    return out


def without_instructions(text: str) -> str:
    """The text less every sentence that instructs its reader. A cut leaves a line break, and
    what follows it in lower case goes too (the rest of the sentence the instruction
    interrupted, or of the instruction): no words from either side of a cut are read as one
    sentence, and no remnant of an instruction is left to support a claim."""
    kept: list[str] = []
    cut = False
    for sentence in sentences(text):
        if instruction(sentence) or (cut and (sentence.isspace() or _REST.match(sentence))):
            cut = True
            continue
        if cut:
            if kept and not kept[-1].endswith("\n"):
                kept[-1] = kept[-1].rstrip() + "\n"
            sentence, cut = sentence.lstrip(), False
        kept.append(sentence)
    return "".join(kept).strip()


def uploaded(p: Provision) -> bool:
    return p.kind in UPLOADED_KINDS or not p.celex


def as_data(p: Provision) -> Provision:
    """A provision as it may be shown to a model and checked against: an uploaded one without
    its instructing sentences (and title), a published one as it is."""
    if not uploaded(p):
        return p
    title = "" if instruction(p.title or "") else p.title
    return replace(p, text=without_instructions(p.text), title=title)


@overload
def cited_as_data(cited: Cited) -> Cited: ...


@overload
def cited_as_data(cited: Cited | None) -> Cited | None: ...


def cited_as_data(cited: Cited | None) -> Cited | None:
    """A looked-up citation as it may be checked against: `pincite verify` on an uploaded corpus
    gives an injected note no more support than an answer does."""
    if cited is None or not uploaded(cited.provision):
        return cited
    return Cited(cited.label, as_data(cited.provision), without_instructions(cited.text))
