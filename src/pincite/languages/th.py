"""Thai: what pincite knows of the language (pincite.languages). Thai writes no spaces between words, so its cues are
written without word boundaries."""

from pincite.languages.injection import InjectionWords, alt

QUESTION = {
    "asks_from_when": r"เริ่มมีผล|มีผลใช้บังคับ|ใช้บังคับเมื่อ",
    # Facts a statute never holds: the latest notification, the current chair ('คนปัจจุบัน'; not
    # 'เป็นปัจจุบัน', up to date), a fine imposed last year, what a court has ruled. 'เคย' alone (ever,
    # used to) tells the facts of a case too often ('ฉันเคยกดยินยอม…', I once consented…).
    "now": r"ล่าสุด|คนปัจจุบัน",
    "already": r"(?:เมื่อ)?ปีที่แล้ว|เคย(?:ตัดสิน|สั่งปรับ|ลงโทษ|วินิจฉัย)",
}

HOPS = {
    "penalty": r"โทษ|ปรับ|จำคุก",
    # 'without (the) consent' asks for the cases the Act allows without it, which it lists as exceptions
    # ('เว้นแต่', PDPA Sections 24, 26, 27).
    "exception": r"ยกเว้น|เว้นแต่|(?:โดย)?ไม่ได้(?:รับความ)?ยินยอม",
    "remedy": r"ร้องเรียน|ฟ้อง",
    "deadline": r"ภายในกี่วัน|ภายในเวลาเท่าใด|กี่วัน|นานเท่าใด",
    "definition": r"ถือเป็น|หมายถึง|นิยาม",
    "date": r"เมื่อไร|มีผล|ใช้บังคับ",
}

# What an instruction to its reader looks like (verify.untrusted): regex alternations by what the
# words do (InjectionWords says what each field holds).
# Thai has no spaces between words and no letter case: phrases match as substrings, and the
# imperative is marked by a particle (จง, โปรด, กรุณา; อย่า 'do not', not อย่าง 'manner').
_MODEL_TH = r"(?:ผู้ช่วย\s*)?(?:AI|เอไอ|ปัญญาประดิษฐ์)|แช[ตท]บอ[ตท]|โมเดล(?:ภาษา)?|บอ[ตท]|LLM|ผู้ช่วย"
_YOU_TH = r"คุณ(?!ภาพ|สมบัติ|ค่า|ธรรม|ประโยชน์|วุฒิ|ลักษณะ|ูปการ|หญิง|นาย|งาม|ความดี|านุ)"

INJECTION = InjectionWords(
    reader=alt(
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
    claim=alt(
        r"(?:คำสั่ง|คำแนะนำ)ใหม่(?:สำหรับ|ถึง)",
        r"(?:คำสั่ง|ข้อความ|พรอมต์|พรอมท์)(?:จาก)?ระบบ",
        r"(?:หมายเหตุ|ข้อความ|คำสั่ง|คำแนะนำ|คำเตือน|บันทึก)\s*(?:ถึง|สำหรับ)\s*(?:" + _MODEL_TH + r")"),
    spaced=False,
)

# Function words the keyword index leaves out (index.analysis); legal words ("ต้อง" must, "ไม่" not,
# "ปรับ" fine) stay, unlike in pythainlp's general-purpose list, which drops them.
STOPWORDS = """
การ ความ ที่ และ หรือ ของ ใน ให้ ได้ ซึ่ง โดย เป็น แก่ จะ ไว้ นั้น นี้ กับ แต่ ก็ ว่า อยู่ ไป มา
อัน ต่อ จาก ด้วย เพื่อ แห่ง ตาม แล้ว ถ้า หาก เมื่อ ทั้ง อย่าง ใด ๆ
"""

# What kind a provision is, from its words (retrieve.follow: the end of a reference a question asks for):
# a penalty, an exception, a remedy, a time limit, a start date, the act's own entry into force; and the word
# of a duty a penalty punishes.
KINDS = {
    "penalty": r"ระวางโทษ|โทษปรับ|ปรับทางปกครอง|จำคุก|โทษทางปกครอง|โทษอาญา",
    "exception": r"ยกเว้น|ไม่ใช้บังคับ|เว้นแต่",
    "remedy": r"ร้องเรียน|ฟ้อง",
    "deadline": r"ภายใน\S{0,20}วัน|โดยไม่ชักช้า",
    "date": r"ใช้บังคับ(?:ตั้งแต่|เมื่อพ้น)|มีผลใช้บังคับ|เริ่มใช้บังคับ",
    "whole_act": r"พระราชบัญญัตินี้ให้ใช้บังคับตั้งแต่",
    "duty_word": r"ต้อง",
}

# corpus.formats (thai_text, pdftext, thai_statute): the Thai script as PDF text extraction gives it, and a
# statute as the Royal Gazette prints it.
# The Thai digits ๐ to ๙, in value order: read as 0 to 9 (a Thai statute writes ๗๒ for 72, numbers its
# pages ๑, ๒ …).
DIGITS = "๐๑๒๓๔๕๖๗๘๙"

SCRIPT = {
    # The Royal Gazette fonts draw nikhahit (the ring of sara am, ำ) as a glyph that text extraction maps
    # to a space: a drawn "space" is this letter.
    "nikhahit": "\u0e4d",
}

# Built on Thailand's Personal Data Protection Act B.E. 2562 (ราชกิจจานุเบกษา เล่ม ๑๓๖ ตอนที่ ๖๙ ก). Each a
# regex source that is also the plain word, as the parser writes it back in labels and the version, except
# "year".
STATUTE = {
    "section": r"มาตรา",  # opens a paragraph: มาตรา ๒๖
    "chapter": r"หมวด",  # a centred heading, its title on the next line: หมวด ๒
    "part": r"ส่วนที่",  # within a chapter: ส่วนที่ ๑
    "transitional": r"บทเฉพาะกาล",  # a line of its own opening the transitional provisions
    # The countersignature and the explanatory note close the act.
    "countersignature": r"ผู้รับสนองพระบรมราชโองการ",
    "note": r"หมายเหตุ",
    # The running header: เล่ม ๑๓๖ ตอนที่ ๖๙ ก … ราชกิจจานุเบกษา ๒๗ พฤษภาคม ๒๕๖๒ (volume, issue, series, date).
    "gazette": r"ราชกิจจานุเบกษา",
    "volume": r"เล่ม",
    "issue": r"ตอนที่",
    "year": r"พ\.ศ\.",  # the Buddhist-era year that ends the act's title: พ.ศ. ๒๕๖๒
}

# citations (citations.grammar, corpus.checks): how a provision is named (en.py says what each kind holds).
# Thai is written without spaces between words: a head word has no word boundary, and a mention counts
# without its number.
CITATION_HEADS = (("section", False, r"มาตรา"),)
SPACED = False
LABELS = {"style": "numbered", "section": "มาตรา"}  # 'มาตรา 26', Arabic digits
CHECKS = {
    "mention": r"มาตรา",
    "penalty_title": r"บทก[ำํ]?า?หนดโทษ",  # ำ may come as ํ + า from the PDF
}
