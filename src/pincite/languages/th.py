"""Thai: the question cues (pincite.languages). Thai writes no spaces between words, so its cues are
written without word boundaries."""

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
