"""The safeguard word lists (core/safeguard_words.py) in fifteen more languages: Italian, Dutch,
Polish, Turkish, Korean, Swedish, Indonesian, Vietnamese, Ukrainian, Czech, Arabic, Hindi,
Hebrew, Persian and Thai. Each topic's terms and the actions that weaken any topic, appended to
the first lists' alternations; short Latin stems are spelled out in their inflected forms, so an
English word never matches ("usu" would find "usually", "sil" "silent"). An item in a language no
list holds is still read carefully (core/textlang.py). Pure data."""
from __future__ import annotations

TOPICS: dict[str, str] = {
    "code review": r"revisione del codice|\brevisione|codereview|beoordeling|przegląd\w* kodu|recenzj\w*|kod inceleme\w*"
                   r"|inceleme\w*|코드 리뷰|리뷰|검토|kodgranskning\w*|granskning\w*|tinjauan kode|peninjauan|review kode"
                   r"|đánh giá mã|duyệt mã|рев['ʼ’]?ю|перевірк\w* коду|revize kódu|مراجعة|समीक्षा|रिव्यू|סקירת קוד|סקירה"
                   r"|بازبینی|بررسی کد|รีวิว|ตรวจโค้ด",
    "human approval": r"확인(?:을 )?받|approvazion\w*|autorizzazion\w*|permess\w*|goedkeuring\w*|toestemming|zatwierdz\w*|zgod\w*|pozwoleni\w*"
                      r"|\bonay\w*|\bizin\w*|승인|허락|허가|godkännande\w*|godkänn\w*|tillstånd|persetujuan|phê duyệt|xin phép"
                      r"|дозв[іо]л\w*|схвален\w*|schválení|souhlas\w*|povolení|موافقة|إذن|अनुमति|मंज़ूरी|मंजूरी|स्वीकृति|אישור"
                      r"|تأیید|تایید|مجوز|اجازه|อนุมัติ|อนุญาต|schval\w*|nachfragen|nachzufragen|rückfrage\w*"
                      r"|potwierdzeni\w*|bestätigung|confirmación|confirmação|conferma",
    "tests": r"\btesten\b|\btest(?:y|ów|ami)\b|\btestler\w*|테스트|\btester(?:na)?\b|\btestet\b|pengujian|kiểm thử|\btestů\b"
             r"|اختبار\w*|टेस्ट|परीक्षण|בדיקות|טסטים|تست|آزمون|เทสต์|ทดสอบ",
    "git hooks": r"훅|हुक",
    "credentials and secrets": r"credenzial\w*|chiav\w* api|wachtwoord\w*|geheim\w*|hasł\w*|sekret\w*|klucz\w* api|şifre\w*|parola\w*"
                               r"|gizli anahtar\w*|özel anahtar\w*|비밀번호|시크릿|자격 증명|api 키|토큰|lösenord\w*|hemlighet\w*"
                               r"|api-nyck\w*|kata sandi|rahasia|kredensial|mật khẩu|bí mật|khóa api|секрет\w*|облікові дані"
                               r"|токен\w*|hesl\w*|tajemství|كلمة المرور|كلمات المرور|أسرار|بيانات الاعتماد|पासवर्ड|क्रेडेंशियल"
                               r"|סיסמ\w*|סודות|رمز عبور|گذرواژه|รหัสผ่าน|ความลับ|โทเค็น|\btoken (?:deploy|akses|api|produksi|truy cập)",
    "permissions": r"\broot (?:account|user|access|shell)|(?:cuenta|usuario|compte|conta|konto|account) root\b|amministrator\w*|beheerder\w*|adminrechten|uprawnie\w*|yönetici|\byetki\w*|권한|관리자|behörighet\w*"
                   r"|administratör\w*|hak akses|quyền quản trị|quyền truy cập|прав\w* доступу|oprávnění|صلاحيات"
                   r"|अनुमतियाँ|एडमिन|הרשאות|دسترسی|สิทธิ์|แอดมิน",
    "certificates and TLS": r"certificat\w*|certifica(?:at|ten)\b|certyfikat\w*|sertifika\w*|인증서|certifikat\w*|chứng chỉ"
                            r"|сертифікат\w*|certifikát\w*|شهادة|شهادات|प्रमाणपत्र|सर्टिफिकेट|תעודה|תעודות|گواهی|ใบรับรอง",
    "dependencies": r"dipendenz\w*|afhankelijkhe\w*|zależnoś\w*|bağımlılı\w*|의존성|종속성|beroenden\w*|dependensi|ketergantungan"
                    r"|phụ thuộc|залежност\w*|závislost\w*|تبعيات|اعتماديات|निर्भरता|תלויות|وابستگی",
    "destructive commands": r"database di produzione|productiedatabase|baz\w* produkcyjn\w*|üretim veritaban\w*|운영 (?:db|데이터베이스)"
                            r"|프로덕션 (?:db|데이터베이스)|produktionsdatabas\w*|database produksi|cơ sở dữ liệu production"
                            r"|produkční databáz\w*|قاعدة بيانات الإنتاج|پایگاه داده تولید",
    "CI and scanners": r"\bkontroller\w*|pijplijn\w*",
    "where instructions come from": r"istruzion\w*|instructie\w*|instrukcj\w*|polece\w*|talimat\w*|지시|지침|instruktion\w*"
                                    r"|instruksi|chỉ thị|інструкц\w*|вказівк\w*|pokyn\w*|instrukc\w*|تعليمات|निर्देश|הוראות"
                                    r"|دستورالعمل|คำสั่ง",
}

# Actions that weaken any topic they stand near, by language.
WEAK = (
    r"|\bsalta(?:re|te|no|ndo)?\b|disattiv\w*|disabilita\w*|\bcancella(?:re|te|to|ti)?\b|rimuov\w*|aggira\w*|\bfidarsi|\bfidati|non serve"   # it
    r"|overslaan|overgeslagen|\bsla (?:\w+ ){0,3}over\b|uitschakel\w*|\bschakel (?:\w+ ){0,3}uit\b|verwijder\w*|negeer\w*|negeren"       # nl
    r"|omzeil\w*|vertrouw\w*|niet nodig|(?:is )?(?:meestal )?ruis\b|niet op te wachten|\bdroppen\b|pierwszeństw\w*|beklemeyin|beklemeden"
    r"|pomiń|pomija\w*|pominię\w*|wyłącz\w*|usuń|usunąć|usuwa\w*|usunię\w*|ignoruj\w*|zignoruj\w*|obejść|obejdź|zaufa\w*|ufaj\w*"  # pl
    r"|niepotrzebn\w*"
    r"|\batla\b|atlayın|atlan(?:ır|abilir)|atlamak|atlayabilir\w*|devre dışı|\bkapat\w*|\bsil(?:in|inir|ebilir\w*|mek)\b"             # tr
    r"|yok say\w*|güven\w*|gerek yok|gerekmez"
    r"|건너뛰|건너 뛰|생략|비활성화|끄고|꺼도|끈다|삭제|무시|우회|신뢰|필요 없|안 해도"                                              # ko
    r"|hoppa\w* över|stäng\w* av|inaktivera\w*|\bta bort\b|radera\w*|ignorera\w*|lita på|litar på|kringgå\w*|behövs inte|onödig\w*"   # sv
    r"|\blewati\b|melewati|lewatkan|nonaktifkan|matikan|\bhapus\b|menghapus|abaikan|mengabaikan|percayai|mempercayai|tidak perlu"     # id
    r"|bỏ qua|(?<!tóm )\btắt\b|vô hiệu hóa|\bxóa\b|tin tưởng|không cần"                                                              # vi
    r"|пропуст\w*|вимкн\w*|видал\w*|ігнор\w*|довір\w*|обійд\w*|обход\w*"                                                           # uk
    r"|přeskoč\w*|vypn\w*|vypín\w*|smaž\w*|smazat|odstran\w*|důvěřuj\w*|obejít|není potřeba"                                        # cs
    r"|تخط\w*|تجاوز\w*|تعطيل|عطّل|احذف|حذف|تجاهل\w*|الوثوق|لا حاجة"                                                                 # ar
    r"|छोड़|छोड|बंद कर|हटा|अनदेखा|नज़रअंदाज़|नजरअंदाज|भरोसा|ज़रूरत नहीं|जरूरत नहीं"                                                    # hi
    r"|דלג|לדלג|השבת|להשבית|לכבות|מחק|למחוק|התעלם|להתעלם|לסמוך|לעקוף|עקוף|אין צורך"                                                 # he
    r"|نادیده|غیرفعال|اعتماد|دور بزن|لازم نیست"                                                                                    # fa
    r"|ข้าม|ปิด|ลบ|เพิกเฉย|ไม่ต้อง|เชื่อถือ"                                                                                          # th
)

# "without <topic>": prepositions, and postpositions that follow the safeguard they drop (Korean, Turkish).
WITHOUT = r"|\bsenza\b|\bzonder\b|\bbez\b|\butan\b|\btanpa\b|mà không|بدون|\bدون\b|बिना|בלי|ללא|โดยไม่"
WITHOUT_AFTER = ("없이", "olmadan")

# Negations before an action: Latin words (whole words), then scripts without word breaks.
NEGATION_WORDS = r"|non(?!-)|mai|niet|nooit|geen|nigdy|asla|aldrig|inte|ej|jangan|tidak|không|đừng|ніколи|nikdy"
NEGATION_MARKS = r"|절대|לא|אל|לעולם|لا|أبدا|هرگز|नहीं|मत|कभी|ห้าม|อย่า"
# A negation after the action: Korean "-지 않/마", Hindi "नहीं".
NEGATED_AFTER = r"|^\S{0,4}(?:지\s?(?:않|마|말)|면 안)|^\S{0,3}\s(?:नहीं|न)(?:\s|$)"

# Exposing a credential (paste it somewhere), widening permissions (work as root), by language.
TOPIC_WEAK = {
    "credentials and secrets": r"|ditempel|\btempel\w*|dán vào|incolla\w*|\bplakken|wklej\w*|yapıştır\w*|klistra\w*|붙여",
    "permissions": r"|(?:con|with|avec|mit|com|als) (?:la |the |le |a |der |dem )?(?:cuenta|account|compte|conta|konto|user|usuario) root\b",
}
# Protective actions that, negated, weaken: waiting (for approval, for checks).
PROTECT = r"|чекати|ждать|дожида\w*|aspettare|wachten|czekać|beklemek|vänta|menunggu|\bchờ\b|attendre|esperar|warten"
# Words that may stand between "without" and the safeguard it drops ("tanpa minta akses", "ohne vorher nachzufragen").
BETWEEN = "vorher zuerst erst first minta meminta chiedere vragen pytać sormak fråga hỏi"
